"""How many cards one claim may hold."""

from __future__ import annotations

from typing import Any

import attrs

from cheatrules.errors import RulesError

__all__ = ["ClaimSize"]


def _positive(instance: Any, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RulesError(f"a claim size must be a whole number of at least 1; got {value!r}")


@attrs.frozen
class ClaimSize:
    """A claim lays between ``minimum`` and ``maximum`` cards (never more than the hand holds).

    >>> ClaimSize(1, 4).sizes(hand_size=3)
    range(1, 4)
    """

    minimum: int = attrs.field(default=1, validator=_positive)
    maximum: int = attrs.field(default=4, validator=_positive)

    def __attrs_post_init__(self) -> None:
        if self.minimum > self.maximum:
            raise RulesError(
                f"a claim size's minimum ({self.minimum}) is above its maximum ({self.maximum})"
            )

    def sizes(self, hand_size: int) -> range:
        """The claim sizes open to a player holding ``hand_size`` cards."""
        return range(self.minimum, min(self.maximum, hand_size) + 1)
