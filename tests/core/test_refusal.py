"""`Game.refusal`: the public precondition of each action, the one a table asks."""

from __future__ import annotations

import pytest

from mindwidget import Game
from mindwidget.game import RuleError


def test_refusal_is_none_exactly_for_the_actions_legal_actions_lists() -> None:
    game = Game.from_hands([[10, 40], [20, 60], [30, 80]])
    game.ready(t=0.0)
    game.play(0, t=1.0)
    for seat in range(3):
        legal = game.legal_actions(seat)
        for action in ("play", "propose_star", "use_star", "next_level", "start_blind"):
            assert (game.refusal(action, seat) is None) == (action in legal), (action, seat)


def test_a_refusal_says_why_and_an_unknown_action_is_named() -> None:
    game = Game.from_hands([[10], [20]])
    game.ready(t=0.0)
    game.play(0, t=1.0)
    refused = game.refusal("play", 0)
    assert isinstance(refused, RuleError)
    assert refused.key == "no_cards"
    with pytest.raises(ValueError, match="action must be one of play, vote, .* not 'fly'"):
        game.refusal("fly", 0)


# ------------------------------------------- the one refusal above the core: Refused
def test_refused_from_a_rule_error_keeps_its_reason_and_says_it_in_each_language() -> None:
    from mindwidget.i18n import translate
    from mindwidget.refusal import Refused

    game = Game.from_hands([[10], [20]])
    game.ready(t=0.0)
    game.play(0, t=1.0)
    error = game.refusal("play", 0)
    assert error is not None
    refused = Refused.from_rule(error)
    assert isinstance(refused, RuleError) and isinstance(refused, ValueError)
    assert (refused.key, refused.params, refused.words) == ("no_cards", error.params, "game")
    for lang in ("en", "nl", "de"):
        assert refused.text(lang) == translate("refused_no_cards", lang, **error.params)
    assert str(refused) == "Player 1 has no cards left to play."
    assert Refused.from_rule(RuleError("an English message only")).key == "not_now"


def test_each_kind_of_refusal_says_the_words_its_readers_had_before() -> None:
    from mindwidget.classroom.words import say
    from mindwidget.i18n import say_in
    from mindwidget.refusal import Refused

    for lang in ("en", "nl", "de"):
        # a pupil's page: the class strings err_<key>
        full = Refused("too_many_joins", words="class", s=60)
        assert full.text(lang) == say("err_too_many_joins", lang, s=60)
        assert "60" in full.text(lang)
        taken = Refused("name_taken", words="class", name="Anna")  # a param called name
        assert taken.text(lang) == say("err_name_taken", lang, name="Anna")
        assert "Anna" in taken.text(lang)
        # the teacher: declined_<key>
        empty = Refused("start_empty", words="teacher", table=2)
        assert empty.text(lang) == say_in("teacher", "declined_start_empty", lang, table=2)
    assert Refused("bad_code", words="class").text("nl").startswith("Die code klopt niet")
    assert str(Refused("start_empty", words="teacher", table=2)) == (
        "table 2 has no pupil yet, so there is nothing to start."
    )
    with pytest.raises(ValueError, match="words must be one of game, class, teacher, not 'pupil'"):
        Refused("bad_code", words="pupil")


def test_every_refusal_the_package_raises_has_its_words_in_english_dutch_and_german() -> None:
    import json
    import pathlib
    import re

    from mindwidget.refusal import WORDS

    pkg = pathlib.Path(__file__).parents[2] / "mindwidget"
    found: set[tuple[str, str]] = set()
    for path in pkg.rglob("*.py"):
        for key, words in re.findall(
            r'Refused\(\s*"(\w+)"(?:,\s*words="(\w+)")?', path.read_text(encoding="utf-8")
        ):
            found.add((key, words or "game"))
    assert {words for _, words in found} == set(WORDS)
    assert len(found) > 30
    for lang in ("en", "nl", "de"):
        for key, words in found:
            family, prefix = WORDS[words]
            folder = pkg / "locales" / (family or "")
            strings = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
            assert f"{prefix}{key}" in strings, (lang, words, key)
