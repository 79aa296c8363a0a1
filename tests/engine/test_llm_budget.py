"""One LLM budget per decision: routing, the dynamic tier and the controllers run
after the decision (answer verification) share `[llm] timeout_s` of LLM waiting.

With the LLM stalled, the first request waits the whole budget out; a decision that spent it
then sends no further request (the fake records every request it receives). Before, each
verification call had a fresh timeout: a fast knowledge answer waited twice the timeout.
Asserted on what reaches the fake LLM and on the decision's accounting, never on a clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from brain.engine import Brain
from core.llm_calls import count_llm_calls
from core.records import Message
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, brain_llm

#: Knowledge questions answered from the KB: verification asks the LLM about the best passage.
QUESTIONS = ["how do I fix VPN error 691?", "my vpn says error 691, what should I do"]


@pytest.fixture
def stalled_llm(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    # The budget is the decision's deadline from its start: 0.4 s was spent before the first
    # LLM stage on a loaded machine (no request sent). 3 s leaves the decision room to reach
    # it; the reply is held until the test ends, so the budget is what the stall costs.
    with brain_llm(monkeypatch, timeout_s=3.0, default=FakeReply.held()) as fake:
        yield fake


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_stalled_llm_costs_one_decision_at_most_its_one_budget(
    stalled_llm: FakeAnthropic, text: str
) -> None:
    brain = Brain.open()
    try:
        brain.warm()  # the deadline is the wall clock's: not spent on a cold start
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


#: One message per tier (fast with answer verification, verify, dynamic) and outcome.
TIERS = {
    "fast_verified": "how do I fix VPN error 691?",
    "verify_vague": "can you check it",
    "dynamic_fallback": "help",
    "routed_incident": "my laptop screen is flickering",
}


@pytest.mark.parametrize("text", list(TIERS.values()), ids=list(TIERS))
def test_after_the_stalled_call_spends_the_deadline_no_later_step_calls(
    stalled_llm: FakeAnthropic, text: str
) -> None:
    # The decision's one deadline is spent by the first (stalled) request; every later LLM
    # step (intent vote, dry-run checks, verification, DCR) is skipped without a request,
    # and the decision's count is the requests the LLM received, not attempts that sent none.
    with Brain.open() as brain:
        brain.warm()
        decision = brain.ask(Message(text, user="u1", channel="C1"))
    assert len(stalled_llm.requests) <= 1, [r.system[:40] for r in stalled_llm.requests]
    assert decision.llm_calls == len(stalled_llm.requests)


def test_a_decision_whose_deadline_has_passed_sends_no_request(
    stalled_llm: FakeAnthropic,
) -> None:
    # The deadline is the wall clock's, created once when the decision (here: the caller's
    # block around it) starts, and never renewed: once it has passed, time spent elsewhere
    # than waiting on the LLM included, no step sends a request (before, only LLM waiting was
    # charged, so a decision that had waited on nothing still had its whole budget).
    with Brain.open() as brain:
        brain.warm()
        with count_llm_calls(within_s=0.05) as outer:
            time.sleep(0.1)  # the deadline passes while nothing waits on the LLM
            decisions = [brain.ask(Message(t, user="u2", channel="C2")) for t in TIERS.values()]
    assert stalled_llm.requests == []
    assert [d.llm_calls for d in decisions] == [0] * len(TIERS)
    assert outer.value == 0
