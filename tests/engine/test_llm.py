"""LLM optional: absent, failing, slow or garbage -> the same decision, and the decision says so."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from brain.engine import Brain
from core.records import Decision, Message
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, RecordedRequest, brain_llm

VAGUE = "help me, it's stuck"
FAST = "process ticket 2025060300011279027"


@pytest.fixture
def fake_llm(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with brain_llm(monkeypatch, timeout_s=0.5) as fake:
        yield fake


def _decide(text: str) -> Decision:
    brain = Brain.open()
    try:
        return brain.decide(Message(text, user="u1", channel="D1"))
    finally:
        brain.close()


def _same(a: Decision, b: Decision) -> None:
    assert (a.controller, a.outcome, a.tier, a.escalate) == (
        b.controller,
        b.outcome,
        b.tier,
        b.escalate,
    )


def test_without_a_key_the_brain_decides_and_says_the_llm_is_disabled(brain: Brain) -> None:
    decision = brain.decide(Message(VAGUE))

    assert decision.llm_status.startswith("disabled")
    assert decision.llm_calls == 0


def test_fast_path_makes_zero_llm_calls(fake_llm: FakeAnthropic) -> None:
    decision = _decide(FAST)

    assert decision.tier == "fast"
    assert decision.llm_calls == 0
    assert fake_llm.requests == []
    assert "skipped" in decision.llm_status


@pytest.mark.parametrize(
    ("reply", "status", "timeout_s"),
    [
        (FakeReply.status(500), "error", 60.0),
        (FakeReply.text("I think it is probably a ticket?"), "invalid", 60.0),
        (FakeReply.json({"intent": "launch_rockets", "confidence": 7}), "invalid", 60.0),
        (
            FakeReply.held(then=FakeReply.json({"intent": "incident", "confidence": 0.9})),
            "timeout",
            5.0,
        ),
    ],
    ids=["error", "garbage-text", "invalid-json", "slow"],
)
def test_failing_llm_gives_the_same_decision_and_says_so(
    fake_llm: FakeAnthropic,
    reply: FakeReply,
    status: str,
    timeout_s: float,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The LLM timeout is also the decision's deadline for LLM calls, counted from the start
    of the decision: with 0.5 s, a loaded machine spent it before the intent step on a fresh
    brain, no request was sent ("skipped", 0 calls) and the case failed. The fake answers at
    once, or (slow) never until the test ends, so the timeout only bounds the slow case."""
    monkeypatch.setenv("BRAIN_LLM_TIMEOUT", str(timeout_s))
    fake_llm.default = reply
    with_llm = _decide(VAGUE)
    assert with_llm.llm_calls >= 1
    assert status in with_llm.llm_status

    monkeypatch.delenv("ANTHROPIC_API_KEY")
    without = _decide(VAGUE)
    _same(with_llm, without)


def test_a_working_llm_is_asked_only_below_the_fast_path(fake_llm: FakeAnthropic) -> None:
    fake_llm.default = FakeReply.json(
        {"intent": "hardware_fault", "confidence": 0.9, "reasoning": "A device is frozen."}
    )

    decision = _decide(VAGUE)

    assert decision.llm_status == "ok"
    assert decision.llm_calls == 1
    assert len(fake_llm.requests) == 1
    assert decision.intent.intent == "hardware_fault"


def test_concurrent_decisions_each_count_only_their_own_llm_calls(
    fake_llm: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_LLM_TIMEOUT", "30")
    # The fake answers no request until both decisions have one in flight, so each decision's
    # call window overlaps the other's call (as in the Slack bot's worker threads).
    both_asking = threading.Barrier(2, timeout=10)

    def answer(request: RecordedRequest) -> FakeReply:
        both_asking.wait()
        return FakeReply.json({"intent": "hardware_fault", "confidence": 0.9})

    fake_llm.responder = answer
    texts = [(VAGUE, "u1"), ("my thing is acting weird again, no idea why", "u2")]
    brain = Brain.open()
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            decisions = list(
                pool.map(lambda t: brain.decide(Message(t[0], user=t[1], channel="D1")), texts)
            )
        assert brain.llm is not None and brain.llm.calls == 2
    finally:
        brain.close()

    assert len(fake_llm.requests) == 2
    assert [d.llm_status for d in decisions] == ["ok", "ok"]
    assert [d.llm_calls for d in decisions] == [1, 1]
