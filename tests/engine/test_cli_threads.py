"""`brain ask --thread T` continues that thread's conversation, as Slack and `brain chat` do:
follow-ups land on the thread's record, across separate `brain ask` runs (the state is in
BRAIN_HOME), and batch lines may name their own thread."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from brain.conversation.turns import Conversation
from brain.engine import Brain
from cli import exit_codes, main
from cli.chat_session import chat_loop
from tests.cli_calls import all_tickets, ask_json, comments
from tests.records import DECISION_CONTRACT

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "follow_ups"),
    [
        (
            "my laptop keeps losing the VPN, error 809",
            ["happening again right now", "rebooted, no change"],
        ),
        ("打印机打不出来，一直卡纸", ["还是老样子", "重启过了也一样"]),
    ],
)
def test_follow_ups_in_a_thread_stay_on_its_one_ticket(
    capsys: pytest.CaptureFixture[str], report: str, follow_ups: list[str]
) -> None:
    first = ask_json(capsys, report, "--thread", "T1", "--user", "u1")
    [filed] = all_tickets(capsys)
    assert filed["kind"] == "incident" and first["controller"] == "incident"

    for text in follow_ups:
        decision = ask_json(capsys, text, "--thread", "T1", "--user", "u1")
        assert decision["controller"] == "incident" and decision["outcome"] == "routed"
        assert set(decision["signals"]["incident"]) >= {"keyword", "semantic", "total"}
        assert filed["id"] in decision["result"]["summary"]

    [ticket] = all_tickets(capsys)
    assert ticket["id"] == filed["id"]
    assert comments(ticket) == follow_ups


@pytest.mark.usefixtures("home")
def test_a_new_problem_in_the_thread_files_its_own_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "my laptop keeps losing the VPN, error 809", "--thread", "T1")
    ask_json(capsys, "also I need access to Jira for the new project", "--thread", "T1")
    assert sorted(t["kind"] for t in all_tickets(capsys)) == ["access", "incident"]


@pytest.mark.usefixtures("home")
def test_without_a_thread_each_message_is_decided_on_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "my laptop keeps losing the VPN, error 809")
    second = ask_json(capsys, "my laptop keeps losing the VPN again, error 809")
    assert second["intent"]["intent"] != "follow_up"
    assert len(all_tickets(capsys)) == 2


@pytest.mark.usefixtures("home")
def test_threads_are_apart_from_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    ask_json(capsys, "my laptop keeps losing the VPN, error 809", "--thread", "T1")
    ask_json(capsys, "the printer on floor 3 is jammed", "--thread", "T2")
    ask_json(capsys, "still the same", "--thread", "T2")
    tickets = {t["fields"]["category"]: t for t in all_tickets(capsys)}
    assert comments(tickets["printer"]) == ["still the same"]
    assert comments(tickets["vpn"]) == []


def test_batch_lines_may_name_their_thread_user_and_channel(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        json.dumps({"text": "my laptop keeps losing the VPN, error 809", "thread": "T1"}),
        json.dumps(
            {"text": "the printer is jammed", "thread": "T2", "user": "u2", "channel": "C9"}
        ),
        json.dumps({"text": "happening again right now", "thread": "T1"}),
        "what is 滚仓?",
        json.dumps({"text": "rebooted, no change", "thread": "T1"}),
        json.dumps({"text": "x", "thread": ["T1"]}),
        '{"alertname": "HighErrorRate", "severity": "critical"}',
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))

    assert main(["ask", "--json", "-"]) == exit_codes.OK

    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert all(set(row) >= DECISION_CONTRACT for i, row in enumerate(rows) if i != 5)
    assert (rows[1]["user"], rows[1]["channel"], rows[1]["thread"]) == ("u2", "C9", "T2")
    assert rows[2]["thread"] == "T1" and rows[2]["intent"]["intent"] == "follow_up"
    assert rows[3]["thread"] is None and rows[3]["text"] == "what is 滚仓?"
    assert "thread" in rows[5]["error"]
    assert rows[6]["text"] == lines[6]  # a pasted JSON alert is text, as before
    tickets = {t["fields"]["thread"]: t for t in all_tickets(capsys) if t["fields"].get("thread")}
    assert comments(tickets["T1"]) == ["happening again right now", "rebooted, no change"]


def test_the_thread_continues_across_brain_ask_processes(home: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BRAIN_HOME": str(home)}

    def brain(*args: str) -> Any:
        done = subprocess.run(
            [sys.executable, "-m", "brain", *args, "--json"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        return json.loads(done.stdout)

    brain("ask", "my laptop keeps losing the VPN, error 809", "--thread", "T7")
    followed = brain("ask", "happening again right now", "--thread", "T7")
    [ticket] = brain("tickets", "list")
    assert ticket["id"] in followed["result"]["summary"]
    assert comments(ticket) == ["happening again right now"]


def test_an_answer_to_the_bots_question_in_the_thread_is_taken_as_the_pick(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "brain.toml").write_text(  # every decision asks back
        "[routing]\nfast_threshold = 1.0\nverify_threshold = 1.0\n[dynamic]\nenabled = false\n",
        encoding="utf-8",
    )
    asked = ask_json(capsys, "my printer is broken", "--thread", "T1")
    assert asked["outcome"] == "clarify" and all_tickets(capsys) == []
    picked = ask_json(capsys, "incident", "--thread", "T1")
    assert picked["decision_id"] == asked["decision_id"]
    [ticket] = all_tickets(capsys)
    assert ticket["kind"] == "incident" and ticket["id"] in picked["result"]["summary"]
    assert main(["ask", "2", "--thread", "T2"]) == exit_codes.USAGE  # nothing was asked there
    assert "No question is waiting" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("report", "status", "said"),
    [
        ("my printer is broken", "is anyone on it?", "Nothing is filed yet"),
        ("我的打印机坏了", "有人在看吗", "还没有提交任何工单"),
    ],
)
def test_a_status_question_while_the_pick_is_pending_puts_the_same_question_again(
    home: Path, capsys: pytest.CaptureFixture[str], report: str, status: str, said: str
) -> None:
    (home / "brain.toml").write_text(  # every decision asks back
        "[routing]\nfast_threshold = 1.0\nverify_threshold = 1.0\n[dynamic]\nenabled = false\n",
        encoding="utf-8",
    )
    with Brain.open() as brain:  # `brain chat` says why it asks again
        out: list[str] = []
        conversation = Conversation(brain, brain.conversations)
        chat_loop(conversation, [report, status], out.append)
    first, second = out[1:3]
    assert second.startswith(said) and first in second
    asked = ask_json(capsys, report, "--thread", "T1")
    assert asked["outcome"] == "clarify"
    again = ask_json(capsys, status, "--thread", "T1")
    assert again["decision_id"] == asked["decision_id"]  # nothing decided anew
    assert again["clarification"] == asked["clarification"]  # the same choices, in their order
    assert all_tickets(capsys) == []
    picked = ask_json(capsys, "incident", "--thread", "T1")  # the pick still answers it
    [ticket] = all_tickets(capsys)
    assert picked["decision_id"] == asked["decision_id"] and ticket["kind"] == "incident"


@pytest.mark.usefixtures("home")
def test_a_turn_answered_without_a_decision_is_printed_not_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "my laptop keeps losing the VPN, error 809", "--thread", "T1", "--user", "u1")
    command = ["ask", "forget what you learned from me", "--thread", "T1", "--user", "u1"]
    assert main([*command, "--json"]) == exit_codes.OK
    forgot = json.loads(capsys.readouterr().out)
    assert forgot["reply"] == "feedback" and "forgot" in forgot["text"]
    assert main(["ask", "/help", "--thread", "T1"]) == exit_codes.OK
    assert "/why" in capsys.readouterr().out


@pytest.mark.usefixtures("home")
def test_a_follow_ups_reason_gives_the_models_reading_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The rationale of a follow-up put on the record names the continuation model's reading
    once (it was written twice: "the thread's record: continues ... ; continues ...")."""
    ask_json(capsys, "my laptop keeps losing the VPN, error 809", "--thread", "T1")
    follow = ask_json(capsys, "happening again right now", "--thread", "T1")
    assert follow["rationale"].count("continues the record with probability") == 1


@pytest.mark.usefixtures("home")
def test_an_answer_that_repeats_the_fields_name_stores_only_its_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ "window tomorrow 7-8am" after "still need: window" was stored as the window
    "window tomorrow 7-8am"."""
    ask_json(capsys, "I need to change the firewall rule for the partner sftp", "--thread", "T1")
    [filed] = all_tickets(capsys)
    assert filed["status"] == "awaiting_info" and not filed["fields"].get("window")

    ask_json(capsys, "window tomorrow 7-8am", "--thread", "T1")
    [ticket] = all_tickets(capsys)
    assert ticket["fields"]["window"] == "tomorrow 7-8am"
