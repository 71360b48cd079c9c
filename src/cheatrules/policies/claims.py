"""How many cards one claim may hold."""

from __future__ import annotations

import attrs

from cheatrules import _checks as checks
from cheatrules.errors import N_, RulesError

__all__ = ["ClaimSize"]


@attrs.frozen
class ClaimSize:
    """A claim lays between ``minimum`` and ``maximum`` cards (never more than the hand holds).

    A hand smaller than ``minimum`` lays all it holds: that is what a table
    does, and it leaves no player without a move. A claim never holds more
    cards than the deck: :class:`~cheatrules.Rules` refuses a ``maximum``
    above the size of its deck.

    Raises:
        RulesError: ``minimum`` or ``maximum`` is not a whole number of at
            least 1, or ``minimum`` is above ``maximum``.

    >>> ClaimSize(1, 4).sizes(hand_size=3)
    range(1, 4)
    >>> ClaimSize(2, 4).sizes(hand_size=1)
    range(1, 2)

    """

    minimum: int = attrs.field(default=1, converter=checks.index, validator=checks.whole(1))
    maximum: int = attrs.field(default=4, converter=checks.index, validator=checks.whole(1))

    def __attrs_post_init__(self) -> None:
        if self.minimum > self.maximum:
            raise RulesError(
                N_("a claim size's minimum (%(minimum)s) is above its maximum (%(maximum)s)"),
                minimum=self.minimum,
                maximum=self.maximum,
            )

    def sizes(self, hand_size: int) -> range:
        """The claim sizes open to a player holding ``hand_size`` cards.

        From ``minimum`` to ``maximum``, capped by the hand; a hand of
        fewer than ``minimum`` cards (but at least one) lays all of them.
        """
        if 0 < hand_size < self.minimum:
            return range(hand_size, hand_size + 1)
        return range(self.minimum, min(self.maximum, hand_size) + 1)

    def allows(self, count: int, hand_size: int) -> bool:
        """Whether a claim of ``count`` cards is open to a player holding ``hand_size`` cards."""
        return count in self.sizes(hand_size)
