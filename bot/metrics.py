"""`GET /metrics`: what the bot is doing, in Prometheus' text format (prometheus-client).

Each bot has its own registry (no process-wide globals, so several bots in one process, as in
the tests, do not mix). Three sources feed it:

- counted where they happen: Slack requests received and acknowledged with their ack latency
  (an aiohttp middleware on `/slack/events`), decisions by controller, tier and outcome with
  their confidence and latency, and feedback by kind (`MeteredBrain`, the brain as the bot's
  listeners see it), Slack Web API errors and 429s (`SlackCallCounter`, a retry handler of
  the Web API client that only counts);
- read when scraped from counters the parts keep anyway (`BotCollector` in
  bot/metrics_endpoint.py, which also serves the page): events dropped as duplicates (the
  event ledger), escalations sent, re-sent and acknowledged, and the LLM client's calls,
  failures and tokens.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from brain import BrainAPI
from core.records import Decision

#: Latency buckets in seconds: acknowledgements must stay far below Slack's 3 s.
LATENCY_BUCKETS = (
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 1.0, 2.5, 5.0, 10.0
)  # fmt: skip
#: How often the event loop's lag is sampled (`watch_loop`).
LOOP_LAG_PERIOD_S = 0.1
CONFIDENCE_BUCKETS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


class BotMetrics:
    """The families counted where things happen."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.received = Counter(
            "brain_slack_requests_received", "Slack requests received", ["kind"], registry=r
        )
        self.acked = Counter(
            "brain_slack_requests_acked", "Slack requests answered, by status", ["status"],
            registry=r,
        )  # fmt: skip
        self.ack_seconds = Histogram(
            "brain_slack_ack_seconds", "Time to answer a Slack request", buckets=LATENCY_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.claim_seconds = Histogram(
            "brain_slack_claim_seconds",
            "Time an acknowledgement waits for its event's claim (the shared store's round trip)",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.loop_lag_seconds = Histogram(
            "brain_event_loop_lag_seconds",
            "How late the event loop ran a timer (CPU work or the GIL holding it up delays "
            "every acknowledgement by as much)",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.decisions = Counter(
            "brain_decisions", "Decisions made", ["controller", "tier", "outcome"], registry=r
        )
        self.confidence = Histogram(
            "brain_decision_confidence", "Confidence of each decision",
            buckets=CONFIDENCE_BUCKETS, registry=r,
        )  # fmt: skip
        self.decision_seconds = Histogram(
            "brain_decision_seconds", "Time to decide one message", buckets=LATENCY_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.feedback = Counter("brain_feedback", "Feedback recorded", ["kind"], registry=r)
        self.slack_errors = Counter(
            "brain_slack_api_errors", "Slack Web API calls that failed", ["method", "error"],
            registry=r,
        )  # fmt: skip
        self.slack_rate_limited = Counter(
            "brain_slack_api_rate_limited", "Slack Web API 429 answers", ["method"], registry=r
        )

    def observe_decision(self, decision: Decision) -> None:
        self.decisions.labels(
            controller=decision.controller or "none", tier=decision.tier, outcome=decision.outcome
        ).inc()
        self.confidence.observe(decision.confidence)
        self.decision_seconds.observe(decision.latency_ms / 1000.0)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    async def watch_loop(self, period_s: float = LOOP_LAG_PERIOD_S) -> None:
        """Sample the running loop's lag forever (cancelled at shutdown): how much later than
        asked a timer fired."""
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + period_s
            await asyncio.sleep(period_s)
            self.loop_lag_seconds.observe(max(0.0, loop.time() - asked))


#: What one metered call of the brain counts: the bot's families, the call's arguments bound
#: to `BrainAPI`'s signature (so positional and keyword calls count alike), and its result.
Meter = Callable[[BotMetrics, inspect.BoundArguments, Any], None]


def _decided(metrics: BotMetrics, _: inspect.BoundArguments, decision: Decision) -> None:
    metrics.observe_decision(decision)


def _fed_back(metrics: BotMetrics, call: inspect.BoundArguments, _: object) -> None:
    metrics.feedback.labels(kind=call.arguments["kind"]).inc()


#: The brain's calls that are counted, by name; every other member passes through untouched.
#: A decision is counted when it is complete: `ask`, or `execute` after the conversation's own
#: `decide` (the inner brain's `ask` runs its own `execute`, not this one: counted once).
METERED: dict[str, Meter] = {"ask": _decided, "execute": _decided, "feedback": _fed_back}


@functools.cache
def _signature(name: str) -> inspect.Signature:
    return inspect.signature(getattr(BrainAPI, name))


class MeteredBrain:
    """The brain as the bot uses it, counting the calls named in `METERED` on the way through.

    One forwarder for every member: a method added to `BrainAPI` reaches the bot without an
    edit here, and metering another call is one entry in `METERED`
    (tests/bot/test_metrics.py checks each member)."""

    def __init__(self, inner: BrainAPI, metrics: BotMetrics) -> None:
        self.inner = inner
        self.metrics = metrics

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.inner, name)
        meter = METERED.get(name)
        if meter is None or not callable(attribute):
            return attribute
        metrics = self.metrics

        @functools.wraps(attribute)
        def metered(*args: Any, **kwargs: Any) -> Any:
            result = attribute(*args, **kwargs)
            meter(metrics, _signature(name).bind(None, *args, **kwargs), result)
            return result

        return metered


class SlackCallCounter(AsyncRetryHandler):
    """Counts failed Web API calls and 429s; never asks for a retry (the others do)."""

    def __init__(self, metrics: BotMetrics) -> None:
        super().__init__(max_retry_count=0)
        self.metrics = metrics

    async def can_retry_async(  # sees every answer: the base class skips at the retry limit
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        method = request.url.rstrip("/").rsplit("/", 1)[-1]
        if error is not None:
            self.metrics.slack_errors.labels(method=method, error=type(error).__name__).inc()
        elif response is not None:
            if response.status_code == 429:
                self.metrics.slack_rate_limited.labels(method=method).inc()
            body = response.body if isinstance(response.body, dict) else {}
            if response.status_code >= 400 or body.get("ok") is False:
                error_name = str(body.get("error") or f"http_{response.status_code}")
                self.metrics.slack_errors.labels(method=method, error=error_name).inc()
        return False
