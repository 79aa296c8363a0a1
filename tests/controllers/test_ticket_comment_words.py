"""A comment command without a colon ("add a comment to INC-000001 saying ...", "给 INC-000001
留言说 ...") adds its words to the ticket through `brain ask`; before, the ticket controller
found no comment text and asked "What should the comment on INC-000001 say?"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli import main


def _ask(text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["ask", text, "--user", "UCOMMENT1", "--json"]) == 0
    decided: dict[str, Any] = json.loads(capsys.readouterr().out)
    return decided


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("add a comment to INC-000001 saying it also fails at home", "it also fails at home"),
        ("给 INC-000001 留言说在家也连不上", "在家也连不上"),
    ],
)
def test_a_comment_said_without_a_colon_is_added(
    command: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    filed = _ask("my VPN keeps dropping, error 691", capsys)
    assert filed["result"]["data"]["ticket"]["id"] == "INC-000001"  # precondition
    commented = _ask(command, capsys)
    assert commented["controller"] == "ticket" and commented["result"]["ok"], commented["result"]
    assert main(["tickets", "show", "INC-000001", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [c["text"] for c in shown["comments"]] == [words]
