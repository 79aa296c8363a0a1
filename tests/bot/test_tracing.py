"""Optional OpenTelemetry tracing: off unless an exporter is configured; on, a Slack request
is a server span continuing the caller's trace, and its decision a child span, both carrying
the event id (and the decision its decision id), never the message text."""

from __future__ import annotations

import json

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from bot.tracing import DECISION_ID, EVENT_ID, Tracing, from_env
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"


def test_tracing_is_off_unless_an_exporter_endpoint_is_set() -> None:
    assert not from_env({}).enabled
    assert not from_env({"OTEL_EXPORTER_OTLP_ENDPOINT": ""}).enabled
    off = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "BRAIN_TRACING": "off"}
    assert not from_env(off).enabled
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        tracing = from_env({name: "http://127.0.0.1:4318"})
        assert tracing.enabled
        tracing.shutdown()  # nothing was recorded: nothing is sent
    with Tracing().span("nothing", {EVENT_ID: "Ev1"}) as span:
        assert span is None


def _named(spans: tuple[ReadableSpan, ...], name: str) -> list[ReadableSpan]:
    return [span for span in spans if span.name == name]


@pytest.mark.parametrize("carried", [True, False], ids=["traceparent", "new-trace"])
async def test_a_message_is_a_request_span_with_its_decision_as_child(
    harness: Harness, carried: bool
) -> None:
    exporter = InMemorySpanExporter()
    harness.bot.services.tracing = Tracing.exporting_to(exporter)
    event = p.message(ROUTED_TEXT, user="UTRACE01", channel="DTRACE01")
    body = json.dumps(p.envelope(event, "EvTRACE01"))
    headers = {"traceparent": PARENT} if carried else {}
    status, _ = await harness.post(body, content_type="application/json", headers=headers)
    assert status == 200
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()

    spans = exporter.get_finished_spans()
    (request,) = _named(spans, "POST /slack/events")
    (decision,) = _named(spans, "brain.decide")
    assert request.kind == SpanKind.SERVER
    assert request.attributes is not None and decision.attributes is not None
    assert request.attributes[EVENT_ID] == "EvTRACE01"
    assert request.attributes["http.response.status_code"] == 200
    assert request.context is not None and decision.context is not None
    if carried:  # the caller's trace goes on
        assert format(request.context.trace_id, "032x") == TRACE_ID
    assert decision.parent is not None and decision.parent.span_id == request.context.span_id
    assert decision.context.trace_id == request.context.trace_id
    assert decision.attributes[EVENT_ID] == "EvTRACE01"
    reply = harness.fake.of("chat.postMessage")[0]
    shown = {
        str(block.get("block_id", "")).split(":", 1)[-1]
        for block in reply.params["blocks"]
        if str(block.get("block_id", "")).startswith("brain_")
    }
    assert decision.attributes[DECISION_ID] in shown
    recorded = json.dumps([dict(span.attributes or {}) for span in spans])
    assert "VPN" not in recorded  # the message text is not in any span
