"""`brain ask`, `brain why`, `brain feedback` end to end through `cli.main`."""

from __future__ import annotations

import io
import json
import re

import pytest

from cli import main
from tests.records import DECISION_CONTRACT


def _ask_json(capsys: pytest.CaptureFixture[str], text: str, *extra: str) -> dict:
    assert main(["ask", text, "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.usefixtures("home")
def test_ask_why_feedback_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    decision = _ask_json(capsys, "VPN 连不上，报错 691", "--user", "u1", "--channel", "C1")
    for key in DECISION_CONTRACT:
        assert key in decision
    assert decision["controller"] == "incident"
    assert decision["user"] == "u1"

    assert main(["feedback", decision["decision_id"], "--correct", "access", "--user", "u1"]) == 0
    assert "recorded correct -> access" in capsys.readouterr().out

    assert main(["why", decision["decision_id"]]) == 0
    text = capsys.readouterr().out
    assert "correct -> access by u1 via cli" in text
    assert "incident" in text and "keyword" in text
    assert "Asks for: problem" in text  # what it was read as asking for (answer or file)

    assert main(["why", decision["decision_id"], "--json"]) == 0
    explained = json.loads(capsys.readouterr().out)
    assert explained["request_type"] == decision["request_type"] == "problem"
    assert explained["feedback"][0]["controller"] == "access"
    assert set(explained["signals"]["incident"]) >= {"keyword", "semantic", "total", "confidence"}
    assert explained["tier_path"]


@pytest.mark.usefixtures("home")
def test_a_reason_is_kept_redacted_with_the_rejection_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask_json(capsys, "can I order a new headset", "--user", "u1")
    decision_id = decision["decision_id"]
    assert main(["feedback", decision_id, "--reject", "--user", "u1"]) == 0
    reason = "it is an order for new kit, not a fault; my password is hunter2"
    for _ in range(2):  # the same reason again changes nothing
        assert main(["feedback", decision_id, "--reject", "--user", "u1", "--reason", reason]) == 0
    capsys.readouterr()
    assert main(["why", decision_id, "--json"]) == 0
    feedback = json.loads(capsys.readouterr().out)["feedback"]
    assert [(f["kind"], f.get("reason", "")[:22]) for f in feedback] == [
        ("reject", ""),
        ("reject", "it is an order for new"),
    ]
    assert "hunter2" not in feedback[1]["reason"] and feedback[1]["persisted"] == []
    assert main(["why", decision_id]) == 0
    assert "because: it is an order for new kit" in capsys.readouterr().out


@pytest.mark.usefixtures("home")
def test_human_output_shows_controller_confidence_tier_rationale_and_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "what is 滚仓?"]) == 0
    out = capsys.readouterr().out
    decision_id = re.search(r"brain why (d-[0-9a-f]{12})\)", out)
    assert decision_id, out
    assert main(["why", decision_id.group(1), "--json"]) == 0
    stored = json.loads(capsys.readouterr().out)
    lines = out.splitlines()
    assert lines[0].startswith("-> ") and lines[0].endswith("[consultation]")
    assert stored["controller"] == "consultation"
    assert lines[1].strip() == (
        f"confidence {stored['confidence']:.2f} | tier {stored['tier']} | "
        f"outcome {stored['outcome']} | urgency {stored['urgency']}"
    )
    assert f"   why: {stored['rationale']}" in lines
    summary = stored["result"]["summary"].strip().splitlines()[0]
    assert f"   result: {summary}" in lines


@pytest.mark.usefixtures("home")
def test_stdin_mode_writes_one_json_line_per_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "process ticket 2025060300011279027\n\n   \n\x00\x01\nbook a table for four tonight\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))

    code = main(["ask", "--json", "-"])

    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3, 4, 5]  # one object per input line
    assert rows[0]["controller"] == "ticket"
    assert all("empty" in row["error"] for row in rows[1:4])
    assert rows[4]["controller"] is None and "error" not in rows[4]
    assert code == 0  # lines that are not messages are answered with their reason


@pytest.mark.usefixtures("home")
def test_unknown_ids_and_bad_arguments_give_clear_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["why", "d-doesnotexist"]) == 1
    assert "no decision with id 'd-doesnotexist'" in capsys.readouterr().err
    assert main(["feedback", "d-doesnotexist", "--confirm"]) == 1
    assert "no decision" in capsys.readouterr().err
    assert main(["ask", "   "]) == 2
    assert "empty" in capsys.readouterr().err

    decision = _ask_json(capsys, "reset my password please")
    assert main(["feedback", decision["decision_id"], "--correct", "payroll"]) == 1
    err = capsys.readouterr().err
    assert "unknown controller 'payroll'" in err and "ticket" in err
    with pytest.raises(SystemExit):
        main(["feedback", decision["decision_id"]])  # one of the three is required
