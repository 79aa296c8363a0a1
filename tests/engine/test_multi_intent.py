"""Multi-intent messages (seed 002): each independent request decided and run on its
own, in parallel, with roles; one request is never split. Through `brain ask` and `brain chat`."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from brain.intent.split import split_requests
from cli import main
from controllers.tickets import TicketStore
from core.config import load_settings


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json", "--user", "u1", "--channel", "C1"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("CPU alarm on db-01 and also I need Grafana access", {"alarm", "access"}),
        ("reset my password and also my laptop screen is broken", {"access", "incident"}),
        ("VPN 连不上，另外我需要开通 Grafana 权限", {"incident", "access"}),
    ],
)
@pytest.mark.usefixtures("home")
def test_each_request_is_decided_and_handled(
    capsys: pytest.CaptureFixture[str], text: str, wanted: set[str]
) -> None:
    decision = _ask(capsys, text)
    assert decision["outcome"] == "composed"
    assert decision["composition"] == "parallel"
    parts = decision["parts"]
    assert {p["controller"] for p in parts} == wanted
    assert [p["role"] for p in parts].count("primary") == 1
    primary = next(p for p in parts if p["role"] == "primary")
    assert decision["controller"] == primary["controller"]
    assert set(decision["supporting"]) == wanted - {primary["controller"]}
    # Each part ran on its own text, and each has a logged decision of its own.
    ran = decision["result"]["parts"]
    assert {p["controller"] for p in ran} == wanted
    assert all(p["ok"] for p in ran), ran
    for part in parts:
        assert main(["why", part["decision_id"], "--json"]) == 0
        logged = json.loads(capsys.readouterr().out)
        assert logged["text"] == part["text"]
        assert logged["controller"] == part["controller"]
        assert logged["result"]["controller"] == part["controller"]
    # The access part filed a request for its own text only, not the whole message.
    access = [t for t in TicketStore.open(load_settings()).all() if t.kind == "access"]
    assert [t.title for t in access] == [
        next(p["text"] for p in parts if p["controller"] == "access")
    ]


@pytest.mark.usefixtures("home")
def test_one_request_with_a_plain_and_is_not_split(capsys: pytest.CaptureFixture[str]) -> None:
    decision = _ask(capsys, "error 500 and timeout on the payment API")
    assert "parts" not in decision  # one request: the record reads as before
    assert decision["controller"] == "alarm"
    assert decision["supporting"] == []


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("the wifi on floor 2 keeps dropping and I need access to the payroll portal",
         {"incident", "access"}),
        ("the scanner by reception is jammed and I need a new headset for calls",
         {"incident", "change"}),
    ],
)  # fmt: skip
@pytest.mark.usefixtures("home")
def test_two_requests_joined_by_a_plain_and_are_each_handled(
    capsys: pytest.CaptureFixture[str], text: str, wanted: set[str]
) -> None:
    """A plain "and" between a problem and a request for work: two requests, not one access
    request for the broken service."""
    decision = _ask(capsys, text)
    assert decision["outcome"] == "composed"
    assert {p["controller"] for p in decision["parts"]} == wanted


@pytest.mark.parametrize(
    "text",
    [
        "my laptop is slow and it keeps freezing after lunch",
        "I need a Figma licence and my manager already approved it",
    ],
)
@pytest.mark.usefixtures("home")
def test_one_request_and_its_detail_or_reason_stay_one(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = _ask(capsys, text)
    assert "parts" not in decision and decision["outcome"] == "routed"


@pytest.mark.parametrize(
    ("text", "controller"),
    [
        ("I need access to Tableau. My manager Priya already approved it.", "access"),
        ("Can you check on INC-000123? It's the one about my printer.", "ticket"),
    ],
)
@pytest.mark.usefixtures("home")
def test_a_sentence_of_context_is_no_request_of_its_own(
    capsys: pytest.CaptureFixture[str], text: str, controller: str
) -> None:
    """An approval or the record meant, said in a sentence of its own, goes with the request
    before it: the approval was filed as a ticket and "the one about my printer" as a printer
    incident beside the look-up, each a part of its own."""
    assert len(split_requests(text)) == 2
    decision = _ask(capsys, text)
    assert "parts" not in decision and decision["outcome"] == "routed"
    assert decision["controller"] == controller


@pytest.mark.parametrize(
    "text",
    [
        "Please roll back the pricing deploy. When can it be done?",
        "请帮我回滚昨天的发布。大概多久能完成？",
    ],
)
@pytest.mark.usefixtures("home")
def test_a_request_and_a_question_about_it_files_the_request(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Read whole, the message ends in a question, and a question files nothing: the roll-back
    was answered by the knowledge desk and never filed."""
    decision = _ask(capsys, text)
    assert decision["controller"] == "change" and decision["request_type"] == "work"
    assert decision["result"]["ok"] and "CHG-" in decision["result"]["summary"]


@pytest.mark.usefixtures("home")
def test_two_sentences_about_one_problem_stay_one_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert len(split_requests("My laptop will not boot. I already restarted it twice.")) == 2
    decision = _ask(capsys, "My laptop will not boot. I already restarted it twice.")
    assert "parts" not in decision  # one request: the record reads as before
    assert decision["controller"] == "incident"


@pytest.mark.usefixtures("home")
def test_chat_shows_each_part_and_corrects_one_of_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["CPU alarm on db-01 and also I need Grafana access"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    assert main(["chat", "--user", "UCHAT"]) == 0
    out = capsys.readouterr().out
    assert "2 requests" in out
    ids = re.findall(r"decision (d-[0-9a-f]{12}): /right", out)
    assert len(ids) == 2
    # Correct the second part only, and confirm the first, each by its own id.
    commands = [f"/wrong coding {ids[1]}", f"/right {ids[0]}"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in commands)))
    assert main(["chat", "--user", "UCHAT"]) == 0
    out = capsys.readouterr().out
    assert "Rerouted to" in out
    assert main(["why", ids[1], "--json"]) == 0
    corrected = json.loads(capsys.readouterr().out)
    assert [(f["kind"], f["controller"]) for f in corrected["feedback"]] == [("correct", "coding")]
    assert main(["why", ids[0], "--json"]) == 0
    confirmed = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in confirmed["feedback"]] == ["confirm"]


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("new joiner starting monday needs a laptop and accounts", "new joiner starting monday"),
        ("新同事下周一入职，需要准备电脑和账号", "新同事下周一入职"),
        ("new hire下周一入职，需要准备laptop和Jira账号", "new hire下周一入职"),
    ],
)
@pytest.mark.usefixtures("home")
def test_one_verb_with_two_objects_files_both(
    capsys: pytest.CaptureFixture[str], text: str, subject: str
) -> None:
    """ "X needs A and B": neither half of the "and" is a request alone, so each object is
    proposed with the shared head repeated, and files its own record with the subject kept."""
    decision = _ask(capsys, text)
    assert decision["outcome"] == "composed"
    assert {p["controller"] for p in decision["parts"]} == {"change", "access"}
    assert all(p["text"].startswith(subject) for p in decision["parts"])
    tickets = TicketStore.open(load_settings()).all()
    assert sorted(t.kind for t in tickets) == ["access", "equipment"]
    assert all(t.title.startswith(subject) for t in tickets)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I need a mouse and a keyboard", "equipment"),
        ("access to Jira and Confluence", "access"),
        ("my laptop is slow and freezing", "incident"),
    ],
)
@pytest.mark.usefixtures("home")
def test_two_objects_for_one_controller_stay_one_request(
    capsys: pytest.CaptureFixture[str], text: str, kind: str
) -> None:
    decision = _ask(capsys, text)
    assert "parts" not in decision and decision["outcome"] == "routed"
    assert [t.kind for t in TicketStore.open(load_settings()).all()] == [kind]
