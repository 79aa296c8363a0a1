"""One LLM budget per decision (issue 31): routing, the dynamic tier and the controllers run
after the decision (answer verification) share `[llm] timeout_s` of LLM waiting.

With the LLM stalled, the first request waits the whole budget out; a decision that spent it
then sends no further request (the fake records every request it receives). Before, each
verification call had a fresh timeout: a fast knowledge answer waited twice the timeout.
Asserted on what reaches the fake LLM and on the decision's accounting, never on a clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from brain.engine import Brain
from core.llm_calls import count_llm_calls
from core.records import Message
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply

#: Knowledge questions answered from the KB: verification asks the LLM about the best passage.
QUESTIONS = ["how do I fix VPN error 691?", "my vpn says error 691, what should I do"]


@pytest.fixture
def stalled_llm(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with FakeAnthropic(default=FakeReply.slow(30.0)) as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-a-real-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
        monkeypatch.setenv("BRAIN_LLM_TIMEOUT", "0.4")
        yield fake


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_stalled_llm_costs_one_decision_at_most_its_one_budget(
    stalled_llm: FakeAnthropic, text: str
) -> None:
    brain = Brain.open()
    try:
        with count_llm_calls() as outside:  # the caller sees every request the decision made
            decision = brain.ask(Message(text, user="u1", channel="C1"))
    finally:
        brain.close()
    assert decision.result is not None
    # Every request the brain attempted is in the decision's own accounting ...
    assert decision.llm_calls == outside.value >= 1
    # ... and only the first reached the stalled LLM: it spent the whole budget, so no later
    # stage (verification after routing) was given a fresh timeout to wait out again.
    assert len(stalled_llm.requests) == 1, [r.system[:40] for r in stalled_llm.requests]
