"""Plain-English narration of a game's events, for terminals, chats and tutorials.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> state = state.apply(cr.Play("K♦", "A")).apply(cr.Accept()).apply(cr.Challenge())
>>> for line in narrate(state.events):
...     print(line)
seat 2 deals 2, 2, 2 cards
seat 0 lays 1 card: one Ace (1 left)
seat 2: Cheat! K♦ — a lie; seat 0 takes 1 card
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameOver,
    Passed,
    PileTaken,
    Played,
    Revealed,
    WentOut,
)

__all__ = ["narrate"]


def narrate(events: Iterable[Event], *, challenge_word: str = "Cheat!") -> Iterator[str]:
    """Yield one line per thing that happened, folding related events together.

    A challenge, the cards it turned over and the pickup make one line;
    acceptances are told only for a player's last cards, where they decide
    the game.

    Args:
        events: a game's log, oldest first (``state.events``).
        challenge_word: what a challenger calls out.

    """
    sizes: list[int] = []
    challenger: int | None = None
    shown = ""
    last_cards: int | None = None
    asking = False  # acceptances after a pass answer the request to pass
    for event in events:
        if asking and not isinstance(event, (Accepted, Passed)):
            asking = False
        if isinstance(event, Dealt):
            sizes = list(event.hand_sizes)
            yield str(event)
        elif isinstance(event, Played):
            sizes[event.seat] -= event.count
            left = sizes[event.seat]
            last_cards = event.seat if left == 0 else None
            yield f"{event} ({left} left)" if left else f"{event}: the last cards!"
        elif isinstance(event, Passed):
            asking = True
            yield str(event)
        elif isinstance(event, Accepted):
            if asking:
                yield f"seat {event.seat} agrees"
            elif last_cards is not None:
                yield f"seat {event.seat} lets seat {last_cards}'s last cards stand"
        elif isinstance(event, Challenged):
            challenger = event.seat
        elif isinstance(event, Revealed):
            verdict = "true" if event.truthful else "a lie"
            which = f"seat {event.seat}'s earlier claim: " if event.earlier else ""
            shown = f"{which}{' '.join(map(str, event.cards))} — {verdict}"
        elif isinstance(event, PileTaken):
            sizes[event.seat] += event.count
            yield f"seat {challenger}: {challenge_word} {shown}; {event}"
        elif isinstance(event, Drew):
            sizes[event.seat] += event.count
            yield str(event)
        elif isinstance(event, Discarded):
            sizes[event.seat] -= len(event.cards)
            if event.ranks:
                yield str(event)
        elif isinstance(event, (WentOut, GameOver)):
            yield str(event)
        else:
            yield str(event)
