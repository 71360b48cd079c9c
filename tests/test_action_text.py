"""Every action has a text form, and one parser reads it back.

The text forms are the strings game records hold (``"play 7♦ as A"``,
``"challenge"``, ...), so a saved record's actions read the same way a
typed-in action does.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.actions import ActionTextError, parse_action

from .budget import examples
from .strategies import option_combinations, random_action

RECORDS = Path(__file__).parent / "data" / "records"

FORMS = [
    (cr.Play("7♣ K♦", "7"), "play 7♣ K♦ as 7"),
    (cr.Play("7♦", "A"), "play 7♦ as A"),
    (cr.Play("10♥ 10♠", "10"), "play 10♥ 10♠ as 10"),
    (cr.Challenge(), "challenge"),
    (cr.Challenge(earlier=True), "challenge earlier"),
    (cr.Accept(), "accept"),
    (cr.Discard("7 K"), "discard 7 K"),
    (cr.Discard(()), "discard"),
    (cr.Pass(), "pass"),
    (cr.Refuse(), "refuse"),
]


@pytest.mark.parametrize(("action", "text"), FORMS, ids=[text for _, text in FORMS])
def test_each_action_writes_the_text_records_hold(action: cr.Action, text: str) -> None:
    assert action.text() == text
    assert parse_action(text) == action


def test_the_parser_is_exported_from_the_package() -> None:
    assert cr.parse_action("play 7c Kd as 7") == cr.Play("7♣ K♦", "7")
    assert cr.ActionTextError is ActionTextError


def test_surrounding_spaces_are_ignored() -> None:
    assert parse_action("  challenge earlier \n") == cr.Challenge(earlier=True)


def test_every_action_in_the_saved_records_reads_back_to_the_same_text() -> None:
    texts: list[str] = []
    for path in sorted(RECORDS.glob("*.json")):
        if path.name == "expected.json":
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        games = record.get("games", [record])
        for game in games:
            texts.extend(game.get("actions", []))
            texts.extend(game.get("view", {}).get("choices", []))
    assert len(texts) > 20
    for text in texts:
        assert parse_action(text).text() == text


@pytest.mark.parametrize(
    "text",
    [
        "fold",
        "",
        "play 7♦",
        "play 7♦ as",
        "play7♦ as 7",
        "challenge later",
        "accept now",
        "pass 7",
        "refuse me",
    ],
)
def test_unreadable_text_names_every_allowed_form(text: str) -> None:
    with pytest.raises(ActionTextError) as caught:
        parse_action(text)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, cr.CheatRulesError)
    assert message.startswith(f"cannot read {text!r} as an action; write ")
    for form in (
        "play <cards> as <rank>",
        "'challenge'",
        "'challenge earlier'",
        "'accept'",
        "'discard <ranks>'",
        "'pass'",
        "'refuse'",
    ):
        assert form in message
    assert repr(text) in message


@pytest.mark.parametrize(
    ("text", "words"),
    [("play Zz as A", "cannot read 'Zz'"), ("play 7♦ as 13", "13"), ("discard 7 Q Zz", "Zz")],
)
def test_bad_cards_or_ranks_are_card_errors(text: str, words: str) -> None:
    with pytest.raises(cr.CardError, match=words):
        parse_action(text)


@pytest.mark.parametrize("value", [None, 7, b"pass", ["pass"]])
def test_only_text_is_read(value: object) -> None:
    with pytest.raises(ActionTextError, match="must be text such as 'play 7♣ as 7'"):
        parse_action(value)  # type: ignore[arg-type]


@examples(40)
@given(option_combinations(), st.integers(0, 2**32), st.integers(0, 60))
def test_any_legal_action_reads_back_from_its_text(rules: cr.Rules, seed: int, steps: int) -> None:
    state = cr.deal(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = list(state.legal_actions())
        for action in rng.sample(legal, min(4, len(legal))):
            assert parse_action(action.text()) == action
        chosen = random_action(state, rng)
        assert parse_action(chosen.text()) == chosen
        state = state.apply(chosen)
