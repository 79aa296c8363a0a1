"""`GET /metrics`: what the bot is doing, in Prometheus' text format (prometheus-client).

Each bot has its own registry (no process-wide globals, so several bots in one process, as in
the tests, do not mix). Three sources feed it:

- counted where they happen: Slack requests received and acknowledged with their ack latency
  (an aiohttp middleware on `/slack/events`), decisions by controller, tier and outcome with
  their confidence and latency, and feedback by kind (`MeteredBrain`, the brain as the bot's
  listeners see it), Slack Web API errors and 429s (`SlackCallCounter`, a retry handler of
  the Web API client that only counts);
- read when scraped from counters the parts keep anyway (`BotCollector`): events dropped as
  duplicates (the event ledger), escalations sent, re-sent and acknowledged, and the LLM
  client's calls, failures and tokens.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot import tracing
from brain.conversation.turns import BrainAPI
from core.logs import bound
from core.records import Decision, FeedbackKind, Message

if TYPE_CHECKING:
    from bot.app import SlackBot

METRICS_PATH = "/metrics"
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


class MeteredBrain:
    """The brain as the bot uses it, counting decisions and feedback on the way through.

    A forwarder: only the calls it meters (`ask`, `feedback`) are written here; every other
    attribute is the inner brain's own, so a method added to `BrainAPI` reaches the bot
    without an edit here (tests/bot/test_metrics.py checks each one)."""

    def __init__(self, inner: BrainAPI, metrics: BotMetrics) -> None:
        self.inner = inner
        self.metrics = metrics

    def ask(self, message: Message) -> Decision:
        decision = self.inner.ask(message)
        self.metrics.observe_decision(decision)
        return decision

    def feedback(
        self,
        decision_id: str,
        kind: FeedbackKind,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
    ) -> Decision:
        decision = self.inner.feedback(
            decision_id, kind, controller=controller, user=user, source=source
        )
        self.metrics.feedback.labels(kind=kind).inc()
        return decision

    def __getattr__(self, name: str) -> Any:  # every other part of the brain, unchanged
        return getattr(self.inner, name)


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


class BotCollector(Collector):
    """Counters the bot's parts keep anyway, read at scrape time."""

    def __init__(self, bot: SlackBot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Metric]:
        services = self.bot.services
        duplicates = CounterMetricFamily(
            "brain_slack_events_deduplicated",
            "Slack deliveries dropped because their key was taken before (retries)",
            labels=["kind"],
        )
        for kind, count in sorted(services.events.duplicates.items()):
            duplicates.add_metric([kind], count)
        yield duplicates
        recovered = CounterMetricFamily(
            "brain_slack_events_recovered",
            "Acknowledged events taken over from a dead replica (or a crashed run) and answered",
        )
        recovered.add_metric([], services.events.recovered)
        yield recovered
        lost = CounterMetricFamily(
            "brain_slack_claims_lost",
            "Answers not sent because another replica had taken the event over meanwhile",
        )
        lost.add_metric([], services.events.lost_claims)
        yield lost
        escalations = CounterMetricFamily(
            "brain_escalations", "On-call alerts, by what happened", labels=["event"]
        )
        for event, count in services.escalations.counts.items():
            escalations.add_metric([event], count)
        yield escalations
        llm = getattr(services.brain, "llm", None)
        stats = llm.stats() if llm is not None and hasattr(llm, "stats") else None
        calls = CounterMetricFamily("brain_llm_calls", "LLM requests attempted")
        failures = CounterMetricFamily("brain_llm_failures", "LLM requests that failed")
        tokens = CounterMetricFamily("brain_llm_tokens", "LLM tokens", labels=["direction"])
        calls.add_metric([], stats.calls if stats else 0)
        failures.add_metric([], stats.failures if stats else 0)
        for direction in ("input", "output"):
            tokens.add_metric([direction], stats.tokens.get(direction, 0) if stats else 0)
        yield calls
        yield failures
        yield tokens
        pending = GaugeMetricFamily(
            "brain_bot_pending_work", "Replies and other work still running after the ack"
        )
        pending.add_metric([], services.work.pending)
        yield pending


#: Event and payload types counted by name. The kind is read before the signature is checked,
#: so any other type an unsigned body names counts as "other": a label per name sent would let
#: anyone grow the registry (and `/metrics`) without bound.
_KINDS = frozenset(
    {"message", "app_mention", "reaction_added", "url_verification", "app_rate_limited"}
)


def _known(kind: object, default: str) -> str:
    """`kind` when it is counted by name, `default` when there is none, else "other"."""
    if not kind:
        return default
    return kind if isinstance(kind, str) and kind in _KINDS else "other"


def _request_kind(body: bytes, content_type: str) -> tuple[str, str | None]:
    """What a Slack request carries (an event type, "interactive" or "command"), and the
    event id of an Events API callback."""
    if "json" in content_type:
        try:
            parsed = json.loads(body)
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            return "malformed", None
        if isinstance(parsed, dict):
            event = parsed.get("event")
            event_id = parsed.get("event_id")
            found = str(event_id) if isinstance(event_id, str) else None
            if isinstance(event, dict):
                return _known(event.get("type"), "event"), found
            return _known(parsed.get("type"), "unknown"), found
        return "malformed", None
    if b"payload=" in body[:16]:
        return "interactive", None
    return ("command" if b"command=" in body else "unknown"), None


def install(application: web.Application, bot: SlackBot, events_path: str) -> None:
    """Serve `/metrics` and count the Slack requests of `application` (and trace them, when
    tracing is on: `bot.tracing`)."""
    metrics = bot.services.metrics
    metrics.registry.register(BotCollector(bot))

    @web.middleware
    async def count_requests(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path != events_path or request.method != "POST":
            return await handler(request)
        started = time.perf_counter()
        status = 500
        try:
            body = await request.read()  # aiohttp keeps it for the handler
            kind, event_id = _request_kind(body, request.content_type)
            metrics.received.labels(kind=kind).inc()
            with bound(event_id=event_id):  # tasks started for this event keep it in their logs
                response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as exc:  # 413 and the like
            status = exc.status
            raise
        finally:
            metrics.ack_seconds.observe(time.perf_counter() - started)
            metrics.acked.labels(status=str(status)).inc()

    async def scrape(_: web.Request) -> web.Response:
        return web.Response(
            body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    application.middlewares.append(count_requests)
    tracing.install(application, lambda: bot.services.tracing, events_path)
    application.router.add_get(METRICS_PATH, scrape)
