"""The same event told live and told handled, through `brain ask`: the live one pages P1, its
handled or past twin pages no one (English and Chinese). The escalation model reads what an
event is about; whether it is over is read by the live contrast, a model fitted only on such
twins (`brain.escalation.contrast`)."""

from __future__ import annotations

import json

import pytest

from brain.escalation.model import labelled_rows
from cli import main
from tests.escalation_wordings import TWINS


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_twins_are_not_training_rows() -> None:
    known = {str(r["text"]) for r in labelled_rows(None)}
    assert not known & {text for pair in TWINS.values() for text in pair}


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("name", list(TWINS))
def test_a_live_event_pages_and_its_handled_twin_does_not(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    live, handled = TWINS[name]

    paged = _ask(capsys, live)
    quiet = _ask(capsys, handled)

    assert paged["escalate"] is True
    assert paged["escalation"]["priority"] == "P1"
    assert quiet["escalate"] is False
    assert quiet["escalation"]["priority"] != "P1"
    assert quiet["urgency"] != "critical"


@pytest.mark.usefixtures("home")
def test_a_handled_event_the_rules_would_page_says_the_live_contrast_held_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The security rules read a hijacked mailbox and force a page; the evidence says the live
    contrast read it as over, and which priority it set over the rules'."""
    decision = _ask(capsys, TWINS["hijacked_mailbox_zh"][1])

    evidence = decision["escalation"]["evidence"]
    assert any(e.startswith("live contrast: p(happening) = ") for e in evidence), evidence
    assert "the live contrast does not confirm the security event: P2, no page" in evidence
    (line,) = [e for e in evidence if e.startswith("priority ")]
    assert line.startswith("priority P2 (the live contrast), not the matrix's ")
