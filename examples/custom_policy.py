"""A house rule of your own, written as a policy and plugged into English Cheat.

At some tables a challenge sends the sequence back to Aces. The printed rules
say it never does, so cheatrules does not ship this rule; but a rank rule is
a small class with one method, so a table that wants it writes it:

Run: ``python examples/custom_policy.py``
"""

from __future__ import annotations

import attrs

import cheatrules as cr
from cheatrules.policies import Ascending


@attrs.frozen
class BackToAces:
    """Ascending from Ace, but every challenge sends the sequence back to Ace.

    It satisfies the :class:`cheatrules.policies.RankRule` protocol: the
    engine calls ``allowed`` after every claim and every challenge.
    """

    def allowed(
        self, previous: cr.Rank | None, table_empty: bool, ranks: tuple[cr.Rank, ...]
    ) -> tuple[cr.Rank, ...]:
        if table_empty:  # the start of the game, or a challenge just emptied the table
            return (cr.Rank.ACE,)
        return Ascending().allowed(previous, table_empty, ranks)


def main() -> None:
    rules = cr.english(players=3, ranks=BackToAces())
    state = cr.deal(rules, hands=["A♣ 2♦ 9♠", "5♥ 8♣", "3♥ 6♦"])
    state = state.apply(cr.Play("A♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    print(f"after one Ace stands, seat {state.to_move} must announce {state.required_rank}")
    state = state.apply(cr.Play("5♥", "2")).apply(cr.Challenge())
    print(state.events[-2])
    print(f"after the challenge, seat {state.to_move} must announce {state.required_rank}")
    assert state.required_rank is cr.Rank.ACE
    # The rules are still a frozen, comparable value.
    assert rules == cr.english(players=3, ranks=BackToAces())
    assert rules != cr.english(players=3)


if __name__ == "__main__":
    main()
