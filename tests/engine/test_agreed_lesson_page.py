"""A lesson people agreed on counts against a page only the escalation model wants, never
against a live event, through the `brain` command line.

Three people move their own battery complaints to `change` (a replacement). A fourth user's
"charge drops from 100 to 0 in half an hour on my company notebook" (a paraphrase of the
correction stories' `fresh2` tune half) was paged on-call at P1 by the model alone (p 0.81),
and so went to the incident controller whatever the lesson. Now the agreed lesson stands
against that page. A lesson never holds back a live event: one the model alone is sure of, a
failure the matrix reads, or one the security rules force (through `decide_escalation`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.escalation.decide import AgreedMove, decide_escalation
from brain.escalation.model import load_or_fit
from core.config import load_settings
from core.records import IntentResult
from core.text.embedder import get_dense_embedder
from tests.cli_calls import brain_call
from tests.engine.test_org_agreement_hub import _ask

#: Three people's own messages about one kind of request, each moved to `change`.
TAUGHT = [
    ("U1", "my laptop battery barely lasts an hour now, can I get a new one"),
    ("U2", "the notebook battery is worn out, it dies shortly after unplugging"),
    ("U3", "笔记本电池不行了，拔掉电源很快就没电，想换一块"),
]
#: A fourth user's battery complaint that the model alone paged.
FOURTH = "charge drops from 100 to 0 in half an hour on my company notebook"
#: Live events, each with a lesson that moves messages like it to `ticket`: one the model
#: alone is sure of (a live intrusion), a company-wide outage the matrix reads, and a
#: credential given away, which the security rules force.
LIVE = {
    "model_sure": "someone is remotely controlling my laptop right now, the mouse moves by "
    "itself and files are being deleted",
    "matrix_wide": "email is down for the entire company, no one can send or receive anything",
    "rule_forced": "Got a mail saying my payslip was ready, logged in on the page it linked "
    "and only then saw the domain was paypro11-hr.net",
}


def _agree(capsys: pytest.CaptureFixture[str], taught: list[tuple[str, str]], target: str) -> None:
    for user, text in taught:
        decision = _ask(capsys, text, user)
        brain_call(
            capsys, "feedback", str(decision["decision_id"]), "--correct", target, "--user", user
        )


def test_an_agreed_lesson_stands_against_a_page_only_the_model_wants(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _agree(capsys, TAUGHT, "change")

    decision = _ask(capsys, FOURTH, "U4")

    escalation = decision["escalation"]
    assert isinstance(escalation, dict)
    assert decision["escalate"] is False, escalation["evidence"]
    assert escalation["priority"] != "P1"
    assert decision["controller"] == "change", decision["rationale"]
    assert any("3 people moved messages like this to change" in e for e in escalation["evidence"])


@pytest.mark.parametrize("name", list(LIVE))
def test_an_agreed_lesson_does_not_hold_back_a_live_event(tmp_path: Path, name: str) -> None:
    embedder = get_dense_embedder(load_settings())
    model = load_or_fit(tmp_path, embedder.embed if embedder is not None else None)
    text = LIVE[name]
    vector = embedder.embed([text])[0] if embedder is not None else None
    intent = IntentResult(
        intent="other", confidence=0.0, description="", urgency="low", entities={}
    )

    record = decide_escalation(
        text, intent, model=model, vector=vector, agreed=AgreedMove("ticket", 3)
    )

    assert record.escalate is True, record.evidence
    assert record.priority == "P1"
    if name == "model_sure":  # the lesson was weighed, and outweighed
        assert any("3 people moved messages like this to ticket, but" in e for e in record.evidence)
