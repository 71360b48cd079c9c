"""What a public web table bounds: messages, connections, tables, time, memory.

A server on the open internet meets clients that send too fast, read too
slowly, never say hello, or create tables without end. :class:`Limits`
gathers every bound in one value (the server's defaults fit a public
server on a small machine); :class:`Bucket` is the token bucket that rate
limits use.
"""

from __future__ import annotations

from typing import Any

import attrs

from cheatrules.errors import RulesError

__all__ = ["Bucket", "Limits"]


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise RulesError(f"{attribute.name} must be a number above 0; got {value!r}")


@attrs.frozen
class Limits:
    """The bounds of one web table server.

    Each connection:

    - ``hello_seconds``: says hello within this many seconds of opening, or
      is closed (code 4408); the time does not restart with each message.
    - ``messages_per_second`` and ``message_burst``: sends at most this many
      messages a second on average, this many at once; a ``language``
      message counts as ``language_cost`` (it is answered with the whole
      view). Past the limit the connection is told and closed (4429).
    - ``send_queue``: has at most this many messages waiting to be sent; a
      client that reads more slowly is closed (4413) and may reconnect,
      its page resuming from the last line it holds.

    Each client address (the address the server sees, a proxy's where it
    forwards):

    - ``connections_per_address``: holds at most this many connections at
      once, those still to say hello included (4429 past it);
    - ``tables_per_address`` every ``tables_window`` seconds: creates at
      most that many tables (``429`` past it).

    The server:

    - ``tables``: holds at most this many tables at once; finished and idle
      tables expire, so the count comes down;
    - ``idle_seconds``: a table nobody acted at for this long expires;
    - ``finished_seconds``: a finished game's table expires this long after
      its end (its links show the end until then);
    - ``connections``: holds at most this many connections in all.

    Raises:
        RulesError: a bound that is not a number above 0.

    """

    hello_seconds: float = attrs.field(default=5.0, validator=_positive)
    messages_per_second: float = attrs.field(default=10.0, validator=_positive)
    message_burst: float = attrs.field(default=40.0, validator=_positive)
    language_cost: float = attrs.field(default=10.0, validator=_positive)
    send_queue: int = attrs.field(default=256, validator=_positive)
    connections_per_address: int = attrs.field(default=64, validator=_positive)
    tables_per_address: int = attrs.field(default=30, validator=_positive)
    tables_window: float = attrs.field(default=600.0, validator=_positive)
    tables: int = attrs.field(default=1000, validator=_positive)
    idle_seconds: float = attrs.field(default=6 * 3600.0, validator=_positive)
    finished_seconds: float = attrs.field(default=3600.0, validator=_positive)
    connections: int = attrs.field(default=4096, validator=_positive)


class Bucket:
    """A token bucket: ``rate`` tokens a second, holding at most ``burst``.

    >>> bucket = Bucket(rate=1.0, burst=2.0, now=0.0)
    >>> bucket.take(1, now=0.0), bucket.take(1, now=0.0), bucket.take(1, now=0.0)
    (True, True, False)
    >>> bucket.take(1, now=1.0)
    True
    """

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = now

    def take(self, cost: float, now: float) -> bool:
        """Take ``cost`` tokens if the bucket holds them (refilled to ``now``); whether it did."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True
