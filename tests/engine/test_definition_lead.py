"""A "what is X" question opens with a glossary entry only when X is the entry's name (or
near it, a typo): an entry whose definition merely shares words with X is no answer, and the
passages that answer X are quoted instead. Through the brain API and `brain kb define`."""

from __future__ import annotations

import json

import pytest

from brain.engine import Brain
from cli import exit_codes
from tests.brain_calls import answered_by
from tests.cli_calls import brain_call


def test_the_service_desk_hours_do_not_open_with_the_emergency_change(brain: Brain) -> None:
    """The emergency change's definition says "restore service" and "24 hours"."""
    decision = answered_by(brain, "what are the service desk hours?")

    assert decision.result is not None and decision.result.ok, decision.result
    assert "emergency change" not in decision.result.summary, decision.result.summary
    assert "Monday to Friday" in decision.result.summary, decision.result.summary


@pytest.mark.usefixtures("home")
def test_define_names_no_entry_for_words_only_its_definition_holds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shared_words = brain_call(
        capsys, "kb", "define", "service desk hours", "--json", code=exit_codes.PARTIAL
    )
    typo = json.loads(brain_call(capsys, "kb", "define", "reconcilation", "--json"))

    assert json.loads(shared_words) is None
    assert typo["term"] == "reconciliation"
