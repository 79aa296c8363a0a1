"""`GET /metrics` and the counting of Slack requests on the HTTP app (bot/metrics.py holds
the families). Above `bot.services`, which it reads at scrape time: the families themselves
stay below the services, so nothing that the listeners import reaches back to the app."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterator

from aiohttp import web
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from bot import access_log, tracing
from bot.services import BotServices
from core.logs import bound

METRICS_PATH = "/metrics"


class BotCollector(Collector):
    """Counters the bot's parts keep anyway, read at scrape time."""

    def __init__(self, services: BotServices) -> None:
        self.services = services

    def collect(self) -> Iterator[Metric]:
        services = self.services
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


def install(application: web.Application, services: BotServices, events_path: str) -> None:
    """Serve `/metrics` and count the Slack requests of `application` (and trace them, when
    tracing is on: `bot.tracing`)."""
    metrics = services.metrics
    metrics.registry.register(BotCollector(services))

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
            if event_id is not None:
                request[access_log.EVENT_ID] = event_id  # for the access line, written later
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
    tracing.install(application, lambda: services.tracing, events_path)
    application.router.add_get(METRICS_PATH, scrape)
