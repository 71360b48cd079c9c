"""The house rules' meanings ``cheatrules rules`` reads from the library's docstrings, as messages.

:func:`cheatrules.cli._options.listing` reads what each house rule means
from the docstrings of the game functions, the policy families and the
policies, and looks each text up in the catalog of the language asked for.
This table marks those texts for ``pybabel extract``, word for word as the
listing makes them (first paragraph, one line, ``True`` said ``yes``), so
that the catalogs carry a translation of each. A docstring that changes makes
a new text with no translation yet; ``tests/test_cli_languages.py`` notices
it, and the table and the catalogs are brought up to date.

The meanings written in the command line itself (``_options._MEANINGS``) are
marked where they are written.
"""

from __future__ import annotations

from cheatrules._i18n import N_

#: Every docstring meaning ``cheatrules rules`` shows, as the English message id.
DOCSTRING_MEANINGS: tuple[str, ...] = (
    # Translators: what a house rule of `cheatrules rules` means, one line under its
    # `--with NAME=VALUE` (which stays as typed: yes, per-pack, the answer letter 'e').
    N_(
        "1 or 2 packs of 52 cards. By default one pack for 3-6 players and two for 7-10; "
        "a table of 3-6 may choose two packs."
    ),
    N_(
        "Wild jokers, each counting as the rank its group announced: yes adds two in all "
        '(one red, one black, even with two packs), "per-pack" two per pack, a number that '
        "many (at most two per pack)."
    ),
    N_(
        "Deal a fixed hand (yes: 7 cards each, or a number) and leave the rest as a stock "
        "to draw from."
    ),
    N_("36 (6 to Ace) or 52 cards. By default 36 for 2-3 players and 52 for 4-6."),
    N_('Wild jokers: yes (or "per-pack") adds the pack\'s two, a number that many (0 to 2).'),
    # Translators: what a family of house rules decides, after its name in `cheatrules rules`.
    N_("Decides which ranks the next claim may announce."),
    N_("A claim lays between minimum and maximum cards (never more than the hand holds)."),
    N_("Decides who may challenge a claim, and when."),
    N_("Decides which cards of a challenged group are turned over."),
    N_("Decides who makes the next claim after a challenge."),
    N_("Decides when the player to move may pass instead of laying cards."),
    N_("Decides whether a player who just took the pile decides on discards, and which fours."),
    N_("Decides, each time a player goes out, whether the game is over and how it ended."),
    # Translators: the house rules for the announced rank (--with ranks=...).
    N_("Cheat's sequence: start first, then each claim one rank above the last, wrapping round."),
    N_("The sequence downwards: start first (Aces), then K, Q, J ... 2, A again."),
    N_("Free-choice Cheat: every claim names any rank of the deck."),
    N_("The same rank as the last claim, or one above or below it (Ace both high and low)."),
    N_("Verish' Ne Verish': the opener of a round names any rank; everyone after keeps it."),
    N_(
        "Verish' Ne Verish': nobody is asked; the next player challenges or lays cards on the claim."  # noqa: E501
    ),
    # Translators: the house rules for what a challenge turns over (--with check=...).
    N_("The whole last group is turned over; one card of another rank makes it a lie."),
    N_("One card of the group, drawn by the seeded chance, is turned over and decides alone."),
    N_("The whole group is turned over, and a joker among it makes the claim true."),
    # Translators: the house rules for who plays after a challenge (--with after_challenge=...).
    N_("Whatever the outcome, the declarer's left neighbour plays next."),
    N_("Whoever took the pile plays next (the declarer if caught, else the challenger)."),
    # Translators: the house rules for passing (--with passing=...).
    N_("Nobody may pass: every turn lays cards (the rule books' default)."),
    N_("A pass is allowed once every card of the required rank has been shown in challenges."),
    N_("A player may ask to pass; the pass happens only if every opponent agrees."),
    # Translators: the house rules for setting fours aside (--with discards=...).
    N_("Fours are never discarded (Cheat)."),
    N_("Verish' Ne Verish': right after taking the pile, the taker may set aside complete fours."),
    N_("Fours may be set aside at any of the player's turns, before laying cards."),
    # Translators: the house rules for the end of a game (--with ending=...).
    N_("Cheat: the first player to go out wins at once; everyone else loses."),
    N_("Verish' Ne Verish': players leave as they empty their hands; the last one in loses."),
)
