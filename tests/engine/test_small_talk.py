"""A greeting, thanks or a goodbye outside a thread is answered in kind, in the asker's
language, by the learned social-act model: no "outside what I can handle", no "which
controller?", no unknown case for evolution; a request wrapped in a greeting is routed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.chain import social
from cli import main
from core.model_files import shipped_file
from tests.cli_calls import all_tickets, ask_json


def test_the_shipped_fit_is_the_one_the_rows_ask_for() -> None:
    """Rerun `scripts/make_social_set.py --fit` after changing its rows, the speech-act rows
    (its requests) or the features."""
    key = social.model_key(social.labelled_rows("train"))
    assert shipped_file("brain.data", social.SHIPPED_NAME, key).is_file()


def test_no_held_out_phrase_is_fitted_on() -> None:
    train = {r["text"].lower() for r in social.labelled_rows("train")}
    held = {r["text"].lower() for r in social.labelled_rows("holdout")}
    assert train and held and not train & held


def _boundaries(capsys: pytest.CaptureFixture[str]) -> int:
    assert main(["evolution", "report", "--json"]) == 0
    return int(json.loads(capsys.readouterr().out)["cases"])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hello", "Hello!"),
        ("good night, see you tomorrow", "any time"),
        ("thank you so much, that fixed it", "welcome"),
        ("谢谢", "不客气"),
        ("你好", "您好"),
    ],
)
def test_small_talk_is_answered_in_kind_and_leaves_no_unknown_case(
    home: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    """Before, "hello" ended in "This is outside what I can handle" and "谢谢" in a question
    which of three controllers should take it, each an unknown case for evolution."""
    decision = ask_json(capsys, text)
    assert (decision["outcome"], decision["controller"]) == ("fallback", None)
    assert not decision["clarification"]
    assert words in decision["result"]["summary"]
    assert decision["result"]["data"]["mode"] == "small_talk"
    assert _boundaries(capsys) == 0
    assert all_tickets(capsys) == []


def test_a_greeting_names_what_the_brain_can_help_with(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    english = ask_json(capsys, "hi there, good morning!")["result"]["summary"]
    chinese = ask_json(capsys, "早上好")["result"]["summary"]
    assert "IT support" in english and "Access and accounts" in english
    assert "权限与账号" in chinese and "Access" not in chinese


def test_a_request_wrapped_in_a_greeting_is_routed(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, "hi there, my VPN keeps dropping, error 691")
    assert (decision["outcome"], decision["controller"]) == ("routed", "incident")
    assert all_tickets(capsys)
