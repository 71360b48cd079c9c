"""Narration of a game's events, for terminals, chats and tutorials, in the players' languages.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> state = state.apply(cr.Play("K♦", "A")).apply(cr.Accept()).apply(cr.Challenge())
>>> for line in narrate(state.events):
...     print(line)
seat 2 deals 2, 2, 2 cards
seat 0 lays 1 card: one Ace (1 left)
seat 2: Cheat! K♦ — a lie; seat 0 takes 1 card
>>> for line in narrate(state.events, language="ru"):
...     print(line)
игрок 2 сдаёт карты: 2, 2, 2
игрок 0 кладёт 1 карту: один туз (осталась 1)
игрок 2: Обман! K♦ — ложь; игрок 0 забирает 1 карту
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable, Iterator

from cheatrules._i18n import claim, listed, translations
from cheatrules.cards import Card
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
    Refused,
    Revealed,
    WentOut,
)
from cheatrules.variants import variant

__all__ = ["Narrator", "describe", "narrate"]


def narrate(
    events: Iterable[Event],
    *,
    challenge_word: str | None = None,
    game: str = "english",
    language: str = "en",
) -> Iterator[str]:
    """Yield one line per thing that happened, folding related events together.

    A challenge, the cards it turned over and the pickup make one line;
    acceptances are told only for a player's last cards, where they decide
    the game.

    Args:
        events: a game's log, oldest first (``state.events``).
        challenge_word: what a challenger calls out; by default the call of
            ``game`` in ``language`` (``"Cheat!"``, ``"Не верю!"``...).
        game: the name of the game played (a name of
            :data:`~cheatrules.variants.VARIANTS`), for its challenge call.
        language: the language of the lines: ``"en"`` (English, the
            default), ``"pt"`` (Brazilian Portuguese), ``"es"``, ``"fr"`` or
            ``"ru"``. It holds for this call alone.

    Raises:
        RulesError: a language the library does not speak, or an unknown game.

    """
    catalog = translations(language)
    if challenge_word is None:
        challenge_word = variant(game).call_in(language)
    return _narrate(events, challenge_word, language, catalog)


def _narrate(
    events: Iterable[Event], challenge_word: str, language: str, catalog: gettext.GNUTranslations
) -> Iterator[str]:
    narrator = Narrator(challenge_word, language, catalog)
    for event in events:
        yield from narrator._told(event)


class Narrator:
    """Tells a log that grows one event at a time: the lines each new event adds.

    :func:`narrate` tells a whole log at once; a narrator keeps what the
    lines so far depend on (the hand sizes, the challenge being told), so a
    front end that shows a game as it is played tells each event once. Its
    lines are those :func:`narrate` gives, in order: no line, once told,
    changes.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    >>> narrator = Narrator.of("english", "en")
    >>> narrator.extend(state.events)
    ['seat 2 deals 2, 2, 2 cards']
    >>> state = state.apply(cr.Play("K♦", "A"))
    >>> narrator.extend(state.events[narrator.heard :])
    ['seat 0 lays 1 card: one Ace (1 left)']

    Args:
        challenge_word: what a challenger calls out (``"Cheat!"``).
        language: the language of the lines.
        catalog: the language's messages (:meth:`of` finds them).

    """

    def __init__(
        self, challenge_word: str, language: str, catalog: gettext.GNUTranslations
    ) -> None:
        self.challenge_word = challenge_word
        self.language = language
        self.catalog = catalog
        #: How many events the narrator has been told.
        self.heard = 0
        self._sizes: list[int] = []
        self._challenger: int | None = None
        self._shown = ""
        self._last_cards: int | None = None
        self._last_count = 0  # how many cards the play of the last cards laid
        self._asking = False  # acceptances after a pass answer the request to pass

    @classmethod
    def of(cls, game: str = "english", language: str = "en") -> Narrator:
        """A narrator of ``game`` in ``language``, with the game's challenge call.

        Raises:
            RulesError: a language the library does not speak, or an unknown game.

        """
        catalog = translations(language)
        return cls(variant(game).call_in(language), language, catalog)

    def extend(self, events: Iterable[Event]) -> list[str]:
        """The lines the next ``events`` of the log add, in order."""
        lines: list[str] = []
        for event in events:
            lines += self._told(event)
        return lines

    def _told(self, event: Event) -> Iterator[str]:
        self.heard += 1
        language, catalog = self.language, self.catalog
        sizes = self._sizes
        if self._asking and not isinstance(event, (Accepted, Passed)):
            self._asking = False
        if isinstance(event, Dealt):
            self._sizes = list(event.hand_sizes)
            yield describe(event, language)
        elif isinstance(event, Played):
            sizes[event.seat] -= event.count
            left = sizes[event.seat]
            self._last_cards = event.seat if left == 0 else None
            self._last_count = event.count
            yield _played(event, left, language, catalog)
        elif isinstance(event, Passed):
            self._asking = True
            yield describe(event, language)
        elif isinstance(event, Accepted):
            if self._asking:
                yield catalog.gettext("seat %(seat)s agrees") % {"seat": event.seat}
            elif self._last_cards is not None:
                yield catalog.ngettext(
                    "seat %(seat)s lets seat %(declarer)s's last card stand",
                    "seat %(seat)s lets seat %(declarer)s's last cards stand",
                    self._last_count,
                ) % {"seat": event.seat, "declarer": self._last_cards}
        elif isinstance(event, Challenged):
            self._challenger = event.seat
        elif isinstance(event, Revealed):
            self._shown = _shown(event, catalog)
        elif isinstance(event, PileTaken):
            sizes[event.seat] += event.count
            yield catalog.gettext("seat %(seat)s: %(call)s %(shown)s; %(taken)s") % {
                "seat": self._challenger,
                "call": self.challenge_word,
                "shown": self._shown,
                "taken": describe(event, language),
            }
        elif isinstance(event, Drew):
            sizes[event.seat] += event.count
            yield describe(event, language)
        elif isinstance(event, Discarded):
            sizes[event.seat] -= len(event.cards)
            if event.ranks:
                yield describe(event, language)
        else:
            yield describe(event, language)


def _played(event: Played, left: int, language: str, catalog: gettext.GNUTranslations) -> str:
    """A play, with the cards its player has left, or its last card or cards called out."""
    play = describe(event, language)
    if left:
        return catalog.ngettext("%(play)s (%(left)s left)", "%(play)s (%(left)s left)", left) % {
            "play": play,
            "left": left,
        }
    return catalog.ngettext(
        "%(play)s: the last card!", "%(play)s: the last cards!", event.count
    ) % {"play": play}


def _show(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


def _shown(event: Revealed, catalog: gettext.GNUTranslations) -> str:
    verdict = catalog.gettext("true") if event.truthful else catalog.gettext("a lie")
    if event.earlier:
        return catalog.gettext("seat %(seat)s's earlier claim: %(cards)s — %(verdict)s") % {
            "seat": event.seat,
            "cards": _show(event.cards),
            "verdict": verdict,
        }
    return catalog.gettext("%(cards)s — %(verdict)s") % {
        "cards": _show(event.cards),
        "verdict": verdict,
    }


def describe(event: Event, language: str = "en") -> str:
    """One event told alone in ``language``; in English it is ``str(event)``.

    >>> from cheatrules.cards import Rank
    >>> describe(Played(2, (), Rank.SEVEN, 2), "pt")
    'o jogador 2 joga 2 cartas: duas cartas 7'

    Raises:
        RulesError: a language the library does not speak.

    """
    catalog = translations(language)
    if isinstance(event, Dealt):
        return _dealt(event, catalog)
    if isinstance(event, Played):
        said = claim(event.count, event.rank, language)
        return catalog.ngettext(
            "seat %(seat)s lays %(count)s card: %(claim)s",
            "seat %(seat)s lays %(count)s cards: %(claim)s",
            event.count,
        ) % {"seat": event.seat, "count": event.count, "claim": said}
    if isinstance(event, Accepted):
        return catalog.gettext("seat %(seat)s accepts") % {"seat": event.seat}
    if isinstance(event, Challenged):
        if event.earlier:
            return catalog.gettext("seat %(seat)s challenges seat %(declarer)s's earlier claim") % {
                "seat": event.seat,
                "declarer": event.declarer,
            }
        return catalog.gettext("seat %(seat)s challenges seat %(declarer)s") % {
            "seat": event.seat,
            "declarer": event.declarer,
        }
    if isinstance(event, Passed):
        return catalog.gettext("seat %(seat)s passes") % {"seat": event.seat}
    if isinstance(event, Refused):
        return catalog.gettext("seat %(seat)s refuses the pass") % {"seat": event.seat}
    if isinstance(event, Revealed):
        verdict = catalog.gettext("true") if event.truthful else catalog.gettext("a lie")
        return catalog.gettext("seat %(seat)s showed %(cards)s: %(verdict)s") % {
            "seat": event.seat,
            "cards": _show(event.cards),
            "verdict": verdict,
        }
    if isinstance(event, PileTaken):
        return catalog.ngettext(
            "seat %(seat)s takes %(count)s card", "seat %(seat)s takes %(count)s cards", event.count
        ) % {"seat": event.seat, "count": event.count}
    if isinstance(event, Drew):
        return catalog.ngettext(
            "seat %(seat)s draws %(count)s card from the stock",
            "seat %(seat)s draws %(count)s cards from the stock",
            event.count,
        ) % {"seat": event.seat, "count": event.count}
    if isinstance(event, Discarded):
        if not event.ranks:
            return catalog.gettext("seat %(seat)s discards nothing") % {"seat": event.seat}
        fours = listed([claim(4, rank, language) for rank in event.ranks], language)
        return catalog.gettext("seat %(seat)s discards %(fours)s") % {
            "seat": event.seat,
            "fours": fours,
        }
    if isinstance(event, WentOut):
        return catalog.gettext("seat %(seat)s goes out") % {"seat": event.seat}
    if isinstance(event, GameOver):
        return _game_over(event, catalog, language)
    return str(event)


def _dealt(event: Dealt, catalog: gettext.GNUTranslations) -> str:
    # Translators: %(sizes)s lists the hands' sizes ("2, 2, 2"); the plural follows the last.
    line = catalog.ngettext(
        "seat %(dealer)s deals %(sizes)s cards",
        "seat %(dealer)s deals %(sizes)s cards",
        event.hand_sizes[-1] if event.hand_sizes else 0,
    ) % {"dealer": event.dealer, "sizes": ", ".join(map(str, event.hand_sizes))}
    if event.set_aside_count:
        line += catalog.ngettext(
            "; %(count)s set aside", "; %(count)s set aside", event.set_aside_count
        ) % {"count": event.set_aside_count}
    if event.stock_count:
        line += catalog.ngettext(
            "; %(count)s in the stock", "; %(count)s in the stock", event.stock_count
        ) % {"count": event.stock_count}
    return line


def _game_over(event: GameOver, catalog: gettext.GNUTranslations, language: str) -> str:
    # One winner and one loser are seats the sentence places (with its article or case);
    # several are named as a list.
    if len(event.winners) == 1 and len(event.losers) == 1:
        return catalog.gettext("game over: seat %(winner)s wins, seat %(loser)s loses") % {
            "winner": event.winners[0],
            "loser": event.losers[0],
        }
    if len(event.winners) == 1:
        return catalog.gettext("game over: seat %(winner)s wins") % {"winner": event.winners[0]}
    if len(event.losers) == 1:
        return catalog.gettext("game over: seat %(loser)s loses") % {"loser": event.losers[0]}
    return catalog.gettext("game over: seats %(losers)s lose") % {
        "losers": listed(map(str, event.losers), language)
    }
