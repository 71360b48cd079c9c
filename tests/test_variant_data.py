"""A game as data: each game's facts live once, in its Variant record, and every reader follows it.

The factories, game records, the command line (``rules``, ``--with``, its
help), the web table's host page and the PettingZoo, Gymnasium and OpenSpiel
adapters all read :data:`cheatrules.variants.VARIANTS`. No docstring is read
as data, so ``python -OO`` (which strips them) changes nothing the command
line says. The deck option has one name, ``deck``, in both games; each
game's older spelling (``decks=``, ``pack=``) is still taken.
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._i18n import LANGUAGES
from cheatrules._records.rules_json import read_rules, rules_to_json
from cheatrules.cli import main
from cheatrules.cli._options import house_rules, variant_help
from cheatrules.variants import VARIANTS, Variant, variant

from .budget import examples

SOURCE = Path(cr.__file__).parent
RECORDS = Path(__file__).parent / "data" / "records"
GAMES = list(VARIANTS.values())


def _within(players: int, span: tuple[int, int]) -> bool:
    return span[0] <= players <= span[1]


def _listing(*argv: str) -> list[str]:
    out = io.StringIO()
    assert main(["rules", "--plain", "--lang", "en", *argv], stdout=out) == 0
    return out.getvalue().splitlines()


# -- the deck: one name in both games, and each game's older spelling ---------------------------


def test_the_deck_is_named_by_its_cards_in_both_games() -> None:
    assert cr.english(4, deck=104).deck == cr.Deck(packs=2)
    assert cr.english(7, deck=104) == cr.english(7)
    assert cr.verish(3, deck=52).deck == cr.Deck()
    assert cr.verish(5, deck=36).deck == cr.Deck.short()
    assert cr.verish(2, deck=36, jokers=True).deck == cr.Deck.short(jokers=2)
    assert cr.english(8, deck=104, jokers="per-pack").deck.size == 108


@pytest.mark.parametrize(
    ("name", "alias", "cards"),
    [("english", "decks", {1: 52, 2: 104}), ("verish", "pack", {36: 36, 52: 52})],
)
def test_each_game_keeps_its_older_spelling_of_the_deck(
    name: str, alias: str, cards: dict[int, int]
) -> None:
    game = VARIANTS[name]
    assert game.deck_alias == alias
    assert {choice.alias: choice.cards for choice in game.decks} == cards
    for old, new in cards.items():
        assert game.build(5, **{alias: old}) == game.build(5, deck=new)
    with pytest.raises(cr.RulesError, match=f"the options {alias}= and deck= contradict"):
        game.build(5, **{alias: next(iter(cards))}, deck=next(iter(cards.values())))


def test_an_older_spelling_belongs_to_its_own_game() -> None:
    with pytest.raises(cr.RulesError, match="unknown option decks for Verish' Ne Verish'"):
        cr.verish(3, decks=1)
    with pytest.raises(cr.RulesError, match="unknown option pack for English Cheat"):
        cr.english(3, pack=52)


def test_the_command_line_takes_both_spellings() -> None:
    assert house_rules("english", 5, ["decks=2"]) == cr.english(5, deck=104)
    assert house_rules("english", 5, ["deck=104"]) == cr.english(5, deck=104)
    assert house_rules("verish", 3, ["pack=52"]) == house_rules("verish", 3, ["deck=52"])
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit):
        main(["watch", "--with", "deck=36"], stdout=out, stderr=err)
    assert "--with deck=36: deck must be 52 or 104 cards" in err.getvalue()


def test_records_are_the_same_whichever_spelling_made_the_rules() -> None:
    state = cr.deal(cr.english(5, decks=2), seed=3)
    assert cr.dumps(state) == cr.dumps(cr.deal(cr.english(5, deck=104), seed=3))
    assert cr.loads(cr.dumps(state)) == state


def test_a_record_saved_before_the_deck_had_one_name_loads_unchanged() -> None:
    saved = (RECORDS / "english-7-two-packs-jokers.json").read_text(encoding="utf-8")
    # Written when a deck's jokers=true meant every pack's two.
    assert cr.loads(saved).rules == cr.english(7, deck=104, jokers="per-pack")
    assert cr.loads(saved).rules == cr.english(7, decks=2, jokers="per-pack")
    verish = cr.loads((RECORDS / "verish-2-fixed-hands.json").read_text(encoding="utf-8"))
    assert verish.rules.deck == cr.verish(2, deck=36).deck == cr.verish(2, pack=36).deck


def test_openspiel_takes_the_deck_by_either_name() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("cheatrules.openspiel")
    deck = pyspiel.load_game("python_cheat(players=3,deck=104)").rules
    assert deck == pyspiel.load_game("python_cheat(players=3,decks=2)").rules
    assert deck == cr.english(3, deck=104)
    assert pyspiel.load_game("python_verish(players=4,pack=36)").rules == cr.verish(4, deck=36)


# -- one record per game: every reader names the same games, with the same facts ----------------


def test_the_command_line_offers_exactly_the_recorded_games() -> None:
    listed = [
        line.split("(--variant ")[1].split(")")[0] for line in _listing() if "(--variant " in line
    ]
    assert listed == list(VARIANTS)
    err = io.StringIO()
    with pytest.raises(SystemExit):
        main(["rules", "--variant", "poker"], stderr=err)
    offered = err.getvalue().split("choose from ")[1]
    assert sorted(name.strip(" '\n)") for name in offered.split(",")) == sorted(VARIANTS)
    assert variant_help() == " or ".join(
        f"{game.name} ({game.title}, {game.min_players}-{game.max_players} players)"
        for game in GAMES
    )


def test_records_name_exactly_the_recorded_games() -> None:
    for game in GAMES:
        written = rules_to_json(game.build())
        assert written["game"] == game.name
        assert read_rules(written) == game.build()
    with pytest.raises(cr.RecordError) as refused:
        read_rules({**rules_to_json(cr.english()), "game": "poker"})
    assert str(refused.value).endswith(f"known: {', '.join([*VARIANTS, 'custom'])}")


def test_the_web_host_page_offers_the_recorded_games_with_their_facts() -> None:
    tables = pytest.importorskip("cheatrules.web.tables")
    offered = tables.games("fr")["games"]
    assert [game["name"] for game in offered] == list(VARIANTS)
    for game, shown in zip(GAMES, offered, strict=True):
        assert shown["players"] == [game.min_players, game.max_players]
        assert list(shown["options"]) == list(game.option_names)
        assert shown["title"] == game.title_in("fr")
        assert all(str(choice.cards) in shown["options"]["deck"] for choice in game.decks)


def test_pettingzoo_offers_the_recorded_games_by_every_name() -> None:
    pettingzoo = pytest.importorskip("cheatrules.pettingzoo")
    names = {name for game in GAMES for name in (game.name, *game.aliases)}
    assert set(pettingzoo.GAMES) == names
    for name in names:
        assert pettingzoo.GAMES[name]() == variant(name).build()


def test_gymnasium_registers_one_id_per_recorded_game() -> None:
    gymnasium = pytest.importorskip("cheatrules.gymnasium")
    assert sorted(gymnasium.IDS.values()) == sorted(VARIANTS)
    for env_id, name in gymnasium.IDS.items():
        assert env_id == f"cheatrules/{VARIANTS[name].short_name.capitalize()}-v0"


def test_openspiel_registers_each_recorded_game_with_its_players_and_parameters() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    openspiel = pytest.importorskip("cheatrules.openspiel")
    registered = {
        game_type.short_name
        for game_type in pyspiel.registered_games()
        if game_type.short_name in openspiel.GAMES
    }
    assert registered == {f"python_{game.short_name}" for game in GAMES}
    assert sorted(openspiel.GAMES.values()) == sorted(VARIANTS)
    for short_name, name in openspiel.GAMES.items():
        game = VARIANTS[name]
        loaded = pyspiel.load_game(short_name)
        game_type = loaded.get_type()
        assert (game_type.min_num_players, game_type.max_num_players) == (
            game.min_players,
            game.max_players,
        )
        assert game.title in game_type.long_name
        parameters = set(game_type.parameter_specification)
        assert {"deck", game.deck_alias, *game.option_names} <= parameters
        assert {family.name for family in game.families} <= parameters
        assert loaded.rules == game.build()


@pytest.mark.parametrize("game", GAMES, ids=list(VARIANTS))
def test_the_player_range_is_the_records_in_the_factory_and_the_listing(game: Variant) -> None:
    for players in range(game.min_players, game.max_players + 1):
        assert game.build(players).players == players
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(
            cr.RulesError, match=f"played by {game.min_players} to {game.max_players} players"
        ):
            game.build(players)
    listed = _listing("--variant", game.name)
    assert (
        listed[1]
        == f"  {game.min_players} to {game.max_players} players (--players N; 4 by default)"
    )


@pytest.mark.parametrize("factory", [cr.english, cr.verish])
def test_each_factory_is_its_records_build(factory: Any) -> None:
    game = VARIANTS[factory().name]
    assert inspect.signature(factory).parameters["players"].default == game.default_players
    assert factory() == game.build()
    assert factory(5, ranks="free", jokers=True) == game.build(5, ranks="free", jokers=True)


@pytest.mark.parametrize("game", GAMES, ids=list(VARIANTS))
def test_the_games_own_choices_are_its_records(game: Variant) -> None:
    assert sorted(family for family, _ in game.defaults) == sorted(
        family.name for family in game.families
    )
    for players in range(game.min_players, game.max_players + 1):
        rules = game.build(players)
        defaults = [choice for choice in game.decks if _within(players, choice.default_for)]
        assert len(defaults) == 1, players
        assert rules.deck == defaults[0].deck
        assert rules.dealing == game.dealing
        for family in game.families:
            usual = family.choice(game.default(family.name)).make(rules.deck)
            assert getattr(rules, family.name) == usual, (players, family.name)
    text = "\n".join(_listing("--variant", game.name))
    for family in game.families:
        assert f"--with {family.name}={game.default(family.name)} (the default)" in text
    for choice in game.decks:
        low, high = choice.default_for
        assert f"--with deck={choice.cards} (the default for {low} to {high} players)" in text


# -- no docstring is data -------------------------------------------------------------------------


def _docstring_reads(root: Path = SOURCE) -> list[str]:
    """Every ``__doc__`` and ``getdoc`` the package's source names, as ``path:line``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Attribute):
                names.append(node.attr)
            elif isinstance(node, ast.Name):
                names.append(node.id)
            elif isinstance(node, ast.ImportFrom):
                names.extend(alias.name for alias in node.names)
            if {"__doc__", "getdoc"} & set(names):
                found.append(f"{path.relative_to(root.parent)}:{getattr(node, 'lineno', 0)}")
    return found


def test_no_module_reads_a_docstring_as_data(tmp_path: Path) -> None:
    assert _docstring_reads() == []
    package = tmp_path / "cheatrules"
    package.mkdir()
    (package / "a.py").write_text("import inspect\nx = inspect.getdoc(len)\n")
    (package / "b.py").write_text("def f():\n    return f.__doc__\n")
    assert _docstring_reads(package) == ["cheatrules/a.py:2", "cheatrules/b.py:2"]


def test_the_web_table_and_the_adapters_import_no_private_module_of_the_command_line() -> None:
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path.parent.name == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "cheatrules.cli."
            ):
                found.append(f"{path.name}: {node.module}")
    assert found == []


#: What the command line says, run once as python runs it and once under ``python -OO``.
_COMMANDS = [
    ["rules"],
    ["rules", "--variant", "verish", "--lang", "ru"],
    ["play", "--with", "help"],
    ["watch", "--variant", "verish", "--with", "help"],
    ["--help"],
    ["play", "--help"],
]

_SAY = '''
import contextlib, io, json, runpy, sys

def said(commands):
    """What ``python -m cheatrules ARGS`` prints for each command, and its exit status."""
    import cheatrules.rules
    found = {"docstrings": cheatrules.rules.english.__doc__ is not None}
    for argv in commands:
        out = io.StringIO()
        sys.argv = ["cheatrules", *argv]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                runpy.run_module("cheatrules", run_name="__main__", alter_sys=True)
                code = None
            except SystemExit as exit:
                code = exit.code
        found[" ".join(argv)] = [code, out.getvalue()]
    return found
'''


def test_python_oo_prints_what_python_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
    }
    environment |= {"COLUMNS": "80", "PYTHONIOENCODING": "utf-8"}
    for key in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    script = _SAY + "print(json.dumps(said(json.loads(sys.argv[1]))))"
    stripped = subprocess.run(
        [sys.executable, "-OO", "-c", script, json.dumps(_COMMANDS)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        check=True,
        timeout=120,
    )
    namespace: dict[str, Any] = {}
    exec(_SAY, namespace)  # the same commands in this process, where docstrings are kept
    usual = namespace["said"](_COMMANDS)
    under_oo = json.loads(stripped.stdout)
    assert (usual.pop("docstrings"), under_oo.pop("docstrings")) == (True, False)
    assert under_oo == usual
    rules = usual["rules"][1]
    assert "Project-Id-Version" not in rules
    for shown in ("--with deck=52", "--with deck=36", "--with jokers", "--with stock"):
        assert shown in rules
    assert "Decides which ranks the next claim may announce." in rules


# -- properties -----------------------------------------------------------------------------------


@st.composite
def listed_options(draw: st.DrawFn) -> tuple[Variant, int, dict[str, object], int]:
    """A game, a player count it takes, and options its record lists; the deck's cards chosen."""
    game = draw(st.sampled_from(GAMES))
    players = draw(st.integers(game.min_players, game.max_players))
    suited = [choice for choice in game.decks if _within(players, choice.suits)]
    choice = draw(st.sampled_from(suited))
    options: dict[str, object] = {}
    spelling = draw(st.sampled_from(["deck", game.deck_alias, None]))
    if spelling is not None:
        options[spelling] = choice.cards if spelling == "deck" else choice.alias
    else:
        choice = game.default_deck(players)
    if draw(st.booleans()):
        packs = choice.deck.packs
        options["jokers"] = draw(st.sampled_from([True, False, "per-pack", *range(2 * packs + 1)]))
    if draw(st.booleans()):
        options["stock"] = draw(st.sampled_from([True, False, 1, 3, 5]))
    for family in game.families:
        if draw(st.booleans()):
            options[family.name] = draw(st.sampled_from(family.names))
    return game, players, options, choice.cards


def _built(
    game: Variant, players: int, options: dict[str, object]
) -> tuple[cr.Rules | None, cr.RulesError | None]:
    try:
        return game.build(players, **options), None
    except cr.RulesError as error:
        return None, error


@examples(150)
@given(listed_options())
def test_every_combination_a_record_lists_is_taken_unless_documented_to_clash(
    case: tuple[Variant, int, dict[str, object], int],
) -> None:
    game, players, options, cards = case
    rules, error = _built(game, players, options)
    if error is not None:
        # The two refusals the docs give for listed values: a pass that waits for a
        # required rank beside a rank rule naming none, and a stock the deck cannot deal.
        if "contradict" in str(error):
            assert options.get("passing") == "all-revealed", error
        else:
            assert "cannot deal" in str(error) and options.get("stock") not in (None, False)
        return
    assert rules is not None
    assert (rules.name, rules.players) == (game.name, players)
    assert rules.deck.size - rules.deck.jokers == cards
    for family in game.families:
        named = str(options.get(family.name, game.default(family.name)))
        assert getattr(rules, family.name) == family.choice(named).make(rules.deck)
    written = rules_to_json(rules)
    assert written["game"] == game.name and read_rules(written) == rules


def _refusal(
    game: Variant, options: dict[str, object], players: int | None = None
) -> cr.RulesError:
    with pytest.raises(cr.RulesError) as refused:
        game.build(players, **options)
    return refused.value


@examples(60)
@given(
    game=st.sampled_from(GAMES),
    value=st.integers(-3, 120) | st.text(max_size=4) | st.booleans() | st.none(),
    what=st.sampled_from(["deck", "alias", "players", "family", "option"]),
    language=st.sampled_from(LANGUAGES),
)
def test_every_refused_value_is_told_with_what_is_allowed(
    game: Variant, value: object, what: str, language: str
) -> None:
    if what == "deck":
        assume(value is not None and value not in [choice.cards for choice in game.decks])
        error = _refusal(game, {"deck": value})
        allowed = [str(choice.cards) for choice in game.decks]
    elif what == "alias":
        assume(value is not None and value not in [choice.alias for choice in game.decks])
        error = _refusal(game, {game.deck_alias: value})
        allowed = [str(choice.alias) for choice in game.decks]
    elif what == "players":
        assume(value not in range(game.min_players, game.max_players + 1) and value is not None)
        error = _refusal(game, {}, value)  # type: ignore[arg-type]
        allowed = [str(game.min_players), str(game.max_players)]
    elif what == "family":
        family = game.families[len(str(value)) % len(game.families)]
        assume(value not in family.names and isinstance(value, str))
        error = _refusal(game, {family.name: value})
        allowed = list(family.names)
    else:
        name = f"house_{value}"
        error = _refusal(game, {name: True})
        allowed = [*game.option_names, *(family.name for family in game.families)]
    said = error.describe(language)
    for word in allowed:
        assert word in said, (what, word, said)
