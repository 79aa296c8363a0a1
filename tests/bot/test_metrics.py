"""`GET /metrics` over real HTTP: every family an operator needs, parsed by prometheus-client's
own parser, with counts that follow what the bot did."""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import BotMetrics, MeteredBrain
from brain.conversation.turns import BrainAPI
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ROUTED_TEXT, Harness
from tests.http_client import client_session

FAMILIES = {
    "brain_slack_requests_received": "counter",
    "brain_slack_requests_acked": "counter",
    "brain_slack_events_deduplicated": "counter",
    "brain_slack_ack_seconds": "histogram",
    "brain_decisions": "counter",
    "brain_decision_confidence": "histogram",
    "brain_decision_seconds": "histogram",
    "brain_llm_calls": "counter",
    "brain_llm_tokens": "counter",
    "brain_llm_failures": "counter",
    "brain_escalations": "counter",
    "brain_feedback": "counter",
    "brain_slack_api_errors": "counter",
    "brain_slack_api_rate_limited": "counter",
    "brain_bot_pending_work": "gauge",
}


async def _scrape(
    harness: Harness,
) -> dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]]:
    url = harness.url.rsplit("/slack/events", 1)[0] + "/metrics"
    async with client_session() as session, session.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    found: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]] = {}
    for family in text_string_to_metric_families(text):
        assert FAMILIES.get(family.name, family.type) == family.type, family.name
        samples = found.setdefault(family.name, {})
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def _total(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
) -> float:
    return sum(
        value
        for (sample, sample_labels), value in samples.items()
        if sample == name and all((k, v) in sample_labels for k, v in labels.items())
    )


async def test_metrics_follow_what_the_bot_did(harness: Harness) -> None:
    before = await _scrape(harness)
    assert set(FAMILIES) <= set(before)
    assert _total(before["brain_decisions"], "brain_decisions_total") == 0

    harness.fake.fail("chat.postMessage", status=429, retry_after=1)
    event = p.message(ROUTED_TEXT)
    await harness.event(event, event_id="EvMETRICS1")
    await harness.event(event, event_id="EvMETRICS1", retry_num=1)  # Slack's retry
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    await harness.event(p.message(ESCALATE_TEXT), event_id="EvMETRICS2")
    await harness.fake.wait_for("chat.postMessage", 3)
    await harness.idle()
    decision = harness.brain.last_decision("UASKER01", event["channel"])
    assert decision is not None
    status, _ = await harness.command("/brain-why", "", user="UASKER01", channel=event["channel"])
    assert status == 200
    harness.bot.services.conversation.confirm(decision.decision_id, user="UASKER01", source="t")

    after = await _scrape(harness)
    received = after["brain_slack_requests_received"]
    assert _total(received, "brain_slack_requests_received_total", kind="message") == 3
    assert _total(received, "brain_slack_requests_received_total", kind="command") == 1
    assert _total(after["brain_slack_requests_acked"], "brain_slack_requests_acked_total") == 4
    assert _total(after["brain_slack_ack_seconds"], "brain_slack_ack_seconds_count") == 4
    dropped = after["brain_slack_events_deduplicated"]
    assert _total(dropped, "brain_slack_events_deduplicated_total", kind="event") == 1
    decisions = after["brain_decisions"]
    assert _total(decisions, "brain_decisions_total") == 2
    assert (
        _total(
            decisions,
            "brain_decisions_total",
            controller=str(decision.controller),
            tier=decision.tier,
            outcome=decision.outcome,
        )
        >= 1
    )
    assert _total(after["brain_decision_confidence"], "brain_decision_confidence_count") == 2
    assert _total(after["brain_decision_seconds"], "brain_decision_seconds_count") == 2
    assert _total(after["brain_escalations"], "brain_escalations_total", event="sent") == 1
    assert _total(after["brain_feedback"], "brain_feedback_total", kind="confirm") == 1
    limited = after["brain_slack_api_rate_limited"]
    assert _total(limited, "brain_slack_api_rate_limited_total", method="chat.postMessage") == 1
    errors = after["brain_slack_api_errors"]
    assert _total(errors, "brain_slack_api_errors_total", method="chat.postMessage") == 1
    assert _total(after["brain_llm_calls"], "brain_llm_calls_total") == 0  # no key configured


def _protocol_members(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")}


class _Recorder:
    """An inner brain that records which of its members the metered one reached."""

    def __init__(self) -> None:
        self.reached: list[str] = []
        self.decision = SimpleNamespace(
            controller="ticket", tier="fast", outcome="routed", confidence=0.9, latency_ms=5.0
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        self.reached.append(name)
        return lambda *args, **kwargs: self.decision


@pytest.mark.parametrize("member", sorted(_protocol_members(BrainAPI)))
def test_every_brain_api_member_reaches_the_brain_through_the_meter(member: str) -> None:
    """A member added to BrainAPI needs no edit in MeteredBrain to reach the bot; the two
    metered calls still count."""
    inner, metrics = _Recorder(), BotMetrics()
    metered = MeteredBrain(inner, metrics)  # type: ignore[arg-type]
    attribute = getattr(metered, member)
    if not isinstance(vars(BrainAPI)[member], property):
        params = list(inspect.signature(getattr(BrainAPI, member)).parameters.values())[1:]
        required = [param for param in params if param.default is inspect.Parameter.empty]
        assert attribute(*["x"] * len(required)) is inner.decision
    assert inner.reached == [member]
    counted = {
        "ask": metrics.decisions.labels(controller="ticket", tier="fast", outcome="routed"),
        "execute": metrics.decisions.labels(controller="ticket", tier="fast", outcome="routed"),
        "feedback": metrics.feedback.labels(kind="x"),
    }
    if member in counted:
        assert counted[member]._value.get() == 1
