"""The engine's errors in the players' languages.

An error's ``str`` is its English text, unchanged (logs and tests match on
it); ``error.describe(language)`` says it through the catalog of that
language, every placeholder filled, the words among them (a rank's name, a
claim, what a player is asked to do) in that language too.
"""

from __future__ import annotations

import ast
import functools
import json
import pickle
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.arena import play_game
from cheatrules.encoding import ActionSpace
from cheatrules.errors import N_, NN_, CheatRulesError, Message, RankWord, either, to_player
from cheatrules.realtime import settle_window

from .strategies import deals

SOURCE = Path(cr.__file__).parent
OTHERS = ("pt", "es", "fr", "ru")
LEFTOVER = re.compile(r"%\(\w+\)|%[sd]")


def _raised(make: Callable[[], object]) -> CheatRulesError:
    with pytest.raises(CheatRulesError) as caught:
        make()
    return caught.value


@functools.cache
def _compiled(language: str) -> Catalog:
    with (SOURCE / "locale" / language / "LC_MESSAGES" / "cheatrules.mo").open("rb") as file:
        return read_mo(file)


def _in_catalog(message: Message, language: str) -> bool:
    """Whether ``message`` and every message among its placeholders are translated.

    A translation may equal its message id (``"%(where)s: %(error)s"`` reads the
    same in Portuguese): what counts is that the compiled catalog holds it.
    """
    entry = _compiled(language).get(message.template)
    string = None if entry is None else entry.string
    strings = tuple(string) if isinstance(string, (tuple, list)) else (string,)
    found = all(strings)
    if message.plural is not None:
        found = found and entry is not None and entry.pluralizable
    nested = [value for _, value in message.pairs if isinstance(value, Message)]
    return found and all(_in_catalog(inner, language) for inner in nested)


# -- the design --------------------------------------------------------------------


def test_an_error_keeps_its_english_text_its_template_and_its_parameters() -> None:
    error = cr.SeatError(N_("seat %(seat)s is not at this table"), seat=7)
    assert str(error) == "seat 7 is not at this table"
    assert error.template == "seat %(seat)s is not at this table"
    assert error.params == {"seat": 7}
    assert error.describe() == error.describe("en") == str(error)
    assert isinstance(error, ValueError)


def test_a_plain_text_error_still_works_as_its_own_template() -> None:
    error = cr.RulesError("a plain message, 100% English")
    assert str(error) == "a plain message, 100% English"
    assert error.template == "a plain message, 100% English"
    assert error.params == {}
    assert error.describe("fr") == "a plain message, 100% English"


def test_errors_pickle_with_their_class_and_what_renders_them() -> None:
    error = _raised(lambda: cr.deal(cr.english(3)).apply(cr.Play("2♠ 3♠", "Q")))
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error)
    assert copy.template == error.template
    assert copy.describe("ru") == error.describe("ru")


def test_a_plural_message_takes_each_languages_forms() -> None:
    one, few, many = (NN_("%(n)s copy", "%(n)s copies", n, n=n) for n in (1, 2, 5))
    assert [str(one), str(few), str(many)] == ["1 copy", "2 copies", "5 copies"]


def test_words_among_the_parameters_are_said_in_the_language() -> None:
    word = RankWord(cr.Rank.KING, 5)
    assert str(word) == "Kings"
    assert word.render("ru") == "королей"
    assert str(either(["'a'", "'b'", "'c'"])) == "'a', 'b' or 'c'"
    assert either(["'a'", "'b'"]).render("pt") == "'a' ou 'b'"  # type: ignore[union-attr]
    # A list: commas, and the language's "or" or "and" before the last.
    assert either(["'a'", "'b'", "'c'"]).render("ru") == "'a', 'b' или 'c'"  # type: ignore[union-attr]
    assert either(["x", "y", "z"], "and").render("es") == "x, y y z"  # type: ignore[union-attr]


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(cr.RulesError, match="unknown language 'de'"):
        cr.RulesError(N_("the game is over")).describe("de")


# -- real errors, each kind ------------------------------------------------------------


def _state() -> cr.GameState:
    return cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])


def _window() -> cr.GameState:
    return _state().apply(cr.Play("K♦", "A"))


def _tampered(text: str, actions: list[str]) -> str:
    """A game record whose actions are replaced by ``actions``."""
    return json.dumps({**json.loads(text), "actions": actions}, ensure_ascii=False)


def _peeking(text: str) -> str:
    """A view record whose first play is said to be seat 2's (its cards shown), seat 1 dealing."""
    record = json.loads(text)
    record["view"]["events"][0]["dealer"] = 1
    record["view"]["events"][1]["seat"] = 2
    return json.dumps(record, ensure_ascii=False)


def _ended_match() -> cr.Match:
    match = cr.Match.start(cr.verish(2), cr.FirstTo(1), seed=9)
    rng = random.Random(9)
    while not match.is_over:
        match = match.apply(rng.choice(list(match.legal_actions())))
    return match


SAMPLES: dict[str, tuple[Callable[[], object], str]] = {
    "not in hand": (
        lambda: _state().apply(cr.Play("Q♠", "A")),
        "illegal action Play(Q♠ as A): Q♠ is not in seat 0's hand",
    ),
    "wrong rank": (
        lambda: _state().apply(cr.Play("7♣", "K")),
        "illegal action Play(7♣ as K): the announced rank must be A, not K",
    ),
    "too many cards": (
        lambda: _state().apply(cr.Play("7♣ K♦ A♠", "A")),
        "illegal action Play(7♣ K♦ A♠ as A): seat 0 holds only 2 cards",
    ),
    "wrong phase": (
        lambda: _window().apply(cr.Play("A♠", "2")),
        "illegal action Play(A♠ as 2): seat 1 must challenge or accept seat 0's claim of one Ace",
    ),
    "nothing to challenge": (
        lambda: _state().apply(cr.Challenge()),
        "illegal action Challenge(): the table is empty, so there is no claim to challenge; "
        "seat 0 must lay cards as A",
    ),
    "no pass": (
        lambda: _state().apply(cr.Pass()),
        "illegal action Pass(): seat 0 may not pass now; seat 0 must lay cards as A",
    ),
    "bad card": (
        lambda: cr.cards("7♣ Zz"),
        "cannot read 'Zz' as a card: write a rank (A 2-10 T J Q K) then a suit "
        "(♣ ♦ ♥ ♠ or c d h s), as in '7♣', '10h' or 'QS' (a joker is ★♥ or ★♠)",
    ),
    "bad rank": (
        lambda: cr.Rank.parse("Z"),
        "unknown rank 'Z': expected one of A 2 3 4 5 6 7 8 9 10 J Q K (or ★ for a joker)",
    ),
    "bad dealer": (
        lambda: cr.deal(cr.english(3), dealer=5),
        "dealer must be a seat from 0 to 2; got 5",
    ),
    "bad seat": (
        lambda: _state().observe(9),
        "seat must be a whole number from 0 to 2; got 9",
    ),
    "bad option": (
        lambda: cr.english(4, ranks="nope"),
        "unknown ranks='nope'; the names are ascending, descending, free, adjacent, hold",
    ),
    "unknown option": (
        lambda: cr.verish(3, colour=1),
        "unknown option colour for Verish' Ne Verish'; the options are deck, jokers, stock, "
        "dealing, opening, ranks, claims, window, check, after_challenge, passing, discards, "
        "ending",
    ),
    "bad players": (
        lambda: cr.english(2),
        "English Cheat is played by 3 to 10 players; got 2",
    ),
    "bad pack count": (
        lambda: cr.english(4, jokers=9),
        "jokers must be True (two jokers in all), 'per-pack' (two per pack), False, "
        "or a count of 0 to 2 with 1 pack; got 9",
    ),
    "match over": (
        lambda: _ended_match().apply(cr.Challenge()),
        "illegal action Challenge(): the match is over, won by seat 1",
    ),
    "bad lineup": (
        lambda: play_game(cr.english(3), [], 1),
        "the lineup must seat 3 agents, one per seat; got 0",
    ),
    "corrupt match record": (
        lambda: cr.loads_match("[]"),
        "a match record must be a JSON object",
    ),
    "record of another version": (
        lambda: cr.loads('{"format": "cheatrules", "version": 7}'),
        "unknown record version 7; this library reads versions 1 and 2",
    ),
    "illegal action in a record": (
        lambda: cr.loads(_tampered(cr.dumps(_window()), ["play 2♥ as A"])),
        "actions[0] (play 2♥ as A): illegal action Play(2♥ as A): 2♥ is not in seat 0's hand",
    ),
    "illegal index": (
        lambda: ActionSpace(cr.english(3)).decode(0, _state().observe(0)),
        "index 0 (challenge) is not legal for seat 0 now; seat 0 must lay cards as A",
    ),
    "not an observation": (
        lambda: ActionSpace(cr.english(3)).mask(_state()),  # type: ignore[arg-type]
        "expected an Observation (state.observe(seat)); got GameState",
    ),
    "no window open": (
        lambda: settle_window(_state(), [1]),
        "no challenge window is open: the phase is play",
    ),
    "claim sizes the wrong way round": (
        lambda: cr.english(4, claims=cr.policies.ClaimSize(4, 2)),
        "a claim size's minimum (4) is above its maximum (2)",
    ),
    "an opening by no card": (
        lambda: cr.english(4, opening=cr.policies.HolderOf("Zz")),
        "HolderOf.card must be one card such as 'A♠'; got 'Zz'",
    ),
    "unknown language": (
        lambda: cr.RulesError(N_("the game is over")).describe("de"),
        "unknown language 'de'; the languages are 'en', 'pt', 'es', 'fr' and 'ru'",
    ),
    "view seeing another's cards": (
        lambda: cr.loads_view(_peeking(cr.dumps(_window(), seat=0))),
        "view.events[1] (Played): seat 0 cannot see seat 2's cards",
    ),
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_a_real_error_keeps_its_english_and_is_said_in_each_language(kind: str) -> None:
    make, english = SAMPLES[kind]
    error = _raised(make)
    assert str(error).startswith(english)
    assert error.describe("en") == str(error)
    for language in OTHERS:
        said = error.describe(language)
        assert said != str(error), (language, said)
        assert not LEFTOVER.search(said), (language, said)
        assert _in_catalog(error.message, language), (language, error.template)


def test_an_illegal_action_says_the_claim_and_the_rank_in_the_language() -> None:
    error = _raised(lambda: _window().apply(cr.Play("A♠", "2")))
    assert "um Ás" in error.describe("pt")
    assert "одного туза" in error.describe("ru") or "один туз" in error.describe("ru")


@settings(max_examples=40, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_random_illegal_actions_are_said_in_every_language(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    candidates: list[object] = [
        cr.Challenge(),
        cr.Challenge(earlier=True),
        cr.Accept(),
        cr.Pass(),
        cr.Refuse(),
        cr.Discard(("K",)),
        cr.Play("★♥", "A"),
    ]
    for _ in range(rng.randrange(6)):
        if state.is_over:
            break
        state = state.apply(state.legal_actions().choice(rng))
    hand = list(state.hands[state.decision.to_move]) if state.decision.to_move is not None else []
    if hand:
        rank = rng.choice(list(cr.Rank)[:-1])
        candidates.append(cr.Play(hand[: rng.randrange(1, len(hand) + 1)], rank))
    for action in candidates:
        if state.is_legal(action):  # type: ignore[arg-type]
            continue
        error = _raised(lambda action=action: state.apply(action))  # type: ignore[misc]
        for language in OTHERS:
            said = error.describe(language)
            assert not LEFTOVER.search(said)
            assert _in_catalog(error.message, language), (language, str(error))


# -- every raise in the engine uses a template ------------------------------------------

# The engine's modules whose errors speak every language so far. The modules
# not listed still raise English f-strings: add each here once converted.
ENGINE = (
    "_checks.py",
    "_encoding_checks.py",
    "_i18n.py",
    "_json.py",
    "_numbers.py",
    "_registry.py",
    "_records/rules_json.py",
    "_records/stored_view.py",
    "_records/view_log.py",
    "_records/views.py",
    "actions.py",
    "arena.py",
    "cards.py",
    "chance.py",
    "deal.py",
    "decision.py",
    "encoding.py",
    "legal.py",
    "match.py",
    "realtime.py",
    "records.py",
    "rules.py",
    "seating.py",
    "state.py",
    "variants.py",
    # The house rules: a host meets their errors building a table.
    *(f"policies/{path.name}" for path in sorted((SOURCE / "policies").glob("*.py"))),
)
LIBRARY_ERRORS = {
    "CheatRulesError",
    "CardError",
    "RulesError",
    "DealError",
    "IllegalActionError",
    "SeatError",
    "RecordError",
    "ActionTextError",
    "EncodingError",
    "SamplingError",
    "error",  # a validator's error class, passed in
}


def _is_template(node: ast.expr) -> bool:
    """``N_("...")``, ``NN_("...", "...", n, ...)``, or a message built elsewhere (a name)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("N_", "NN_")
    ):
        return all(isinstance(arg, ast.Constant) for arg in node.args[:1])
    return isinstance(node, (ast.Name, ast.Attribute))


def untemplated_raises(root: Path = SOURCE, modules: tuple[str, ...] = ENGINE) -> list[str]:
    """Every ``raise SomeLibraryError(...)`` in ``modules`` whose message is not a template."""
    found = []
    for name in modules:
        path = root / name
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            func = node.exc.func
            args = node.exc.args
            if isinstance(func, ast.Attribute) and func.attr == "fail":  # replay.fail(i, e, ...)
                if len(args) < 3 or not _is_template(args[2]):
                    found.append(f"{name}:{node.lineno}")
                continue
            called = func.id if isinstance(func, ast.Name) else None
            if isinstance(func, ast.Call):  # type(error)(...)
                called = "error"
            if called not in LIBRARY_ERRORS:
                continue
            if not args or not _is_template(args[0]):
                found.append(f"{name}:{node.lineno}")
    return found


def test_every_engine_error_is_raised_with_a_template() -> None:
    assert untemplated_raises() == []


def test_the_shape_check_finds_an_f_string(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        'def f(x):\n    raise RulesError(f"bad {x}")\n\n'
        'def g(x):\n    raise RulesError(N_("bad %(x)s"), x=x)\n\n'
        'def h(self, i, e, x):\n    raise self.fail(i, e, f"bad {x}")\n',
        encoding="utf-8",
    )
    assert untemplated_raises(tmp_path, ("m.py",)) == ["m.py:2", "m.py:8"]


# -- refusals told to the player who acted: "you", in every language ----------------------

#: The seat's own label in each language: a refusal told to that seat never names it so.
OWN_LABEL = {
    "en": "seat 0",
    "pt": "jogador 0",
    "es": "jugador 0",
    "fr": "joueur 0",
    "ru": "игрок 0",
}


@pytest.mark.parametrize("language", sorted(OWN_LABEL))
@pytest.mark.parametrize(
    "action",
    [cr.Play("A♠", "A"), cr.Pass(), cr.Accept(), cr.Discard("K"), cr.Play("7♣ 7♣", "A")],
    ids=["card not held", "pass", "accept", "discard", "card twice"],
)
def test_a_refusal_is_told_to_the_player_as_you_in_every_language(
    language: str, action: cr.Action
) -> None:
    state = cr.deal(cr.english(3, decks=2), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    with pytest.raises(cr.IllegalActionError) as caught:
        state.apply(action)
    told = to_player(caught.value, language, seat=0)
    assert OWN_LABEL[language] not in told
    assert "(" not in told, "an action written as code"
    # Another seat reads it of seat 0, in the third person (Russian declines the label).
    others = to_player(caught.value, language, seat=1)
    assert others != told and " 0" in others
