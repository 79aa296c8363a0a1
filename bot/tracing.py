"""Optional OpenTelemetry tracing: a server span for each Slack request, a span for each brain
decision, carrying the Slack event id and the decision id (never the message text).

Off unless an OTLP exporter is configured: `OTEL_EXPORTER_OTLP_ENDPOINT` or
`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set (the exporter reads its other standard `OTEL_*`
settings itself) and the `[tracing]` extra installed; `BRAIN_TRACING=off` keeps it off even
then. Off, every span is a no-op and nothing of OpenTelemetry is imported, so the bot carries
no cost and no dependency for it. A W3C `traceparent` header on a request (a proxy or load
balancer that traces) makes the request's span a child of the caller's.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from aiohttp import web

from core.logs import current_fields

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.trace import Span

log = logging.getLogger(__name__)

#: The exporter endpoints that turn tracing on (OpenTelemetry's own variables).
ENDPOINT_ENVS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
#: `off` (or 0, false, no) keeps tracing off although an endpoint is set.
SWITCH_ENV = "BRAIN_TRACING"
SERVICE_NAME = "digital-employee-brain"

#: Span attributes (OpenTelemetry's semantic conventions where one exists).
EVENT_ID = "slack.event_id"
DECISION_ID = "brain.decision_id"


class Tracing:
    """The bot's spans, exported through `provider`; without one every span is a no-op."""

    def __init__(self, provider: TracerProvider | None = None) -> None:
        self._provider = provider
        self._tracer = provider.get_tracer("bot") if provider is not None else None

    @classmethod
    def exporting_to(cls, exporter: SpanExporter) -> Tracing:
        """Tracing that hands each finished span to `exporter` at once (tests; an exporter
        other than OTLP)."""
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor

        provider = TracerProvider(resource=_resource())
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        return cls(provider)

    @property
    def enabled(self) -> bool:
        """Spans are recorded and exported."""
        return self._tracer is not None

    @contextmanager
    def span(
        self,
        name: str,
        attributes: Mapping[str, str | bool | int | float | None] | None = None,
        *,
        server: bool = False,
        carrier: Mapping[str, str] | None = None,
    ) -> Iterator[Span | None]:
        """A span around the block, current inside it (None when tracing is off).
        `server`: a request's span, continuing the trace in `carrier`'s headers."""
        if self._tracer is None:
            yield None
            return
        from opentelemetry import propagate
        from opentelemetry.trace import SpanKind

        parent = propagate.extract(carrier) if carrier is not None else None
        kept = {key: value for key, value in (attributes or {}).items() if value is not None}
        kind = SpanKind.SERVER if server else SpanKind.INTERNAL
        with self._tracer.start_as_current_span(
            name, context=parent, kind=kind, attributes=kept
        ) as span:
            yield span

    def shutdown(self) -> None:
        """Export what is pending and stop (at the bot's shutdown)."""
        if self._provider is not None:
            self._provider.shutdown()


def _resource() -> Any:
    from opentelemetry.sdk.resources import Resource

    return Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME") or SERVICE_NAME})


def from_env(environ: Mapping[str, str] | None = None) -> Tracing:
    """Tracing as the environment configures it: OTLP over HTTP when an endpoint is set (and
    the `[tracing]` extra installed), else off."""
    env = os.environ if environ is None else environ
    if env.get(SWITCH_ENV, "").strip().lower() in ("0", "off", "false", "no"):
        return Tracing()
    if not any(env.get(name) for name in ENDPOINT_ENVS):
        return Tracing()
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning(
            "an OTLP endpoint is set but OpenTelemetry is not installed "
            "(pip install '.[tracing]'); tracing is off"
        )
        return Tracing()
    provider = TracerProvider(resource=_resource())
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    log.info("tracing: spans exported over OTLP")
    return Tracing(provider)


def install(application: web.Application, tracing: Callable[[], Tracing], path: str) -> None:
    """A server span around each request to `path` (`tracing`: the bot's, read per request).
    Installed after `bot.metrics.install`, whose middleware binds the request's event id."""

    @web.middleware
    async def traced(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        current = tracing()
        if not current.enabled or request.path != path:
            return await handler(request)
        attributes = {
            "http.request.method": request.method,
            "http.route": path,
            "url.path": request.path,
            EVENT_ID: current_fields().get("event_id"),
        }
        name = f"{request.method} {path}"
        with current.span(name, attributes, server=True, carrier=request.headers) as span:
            response = await handler(request)
            if span is not None:
                span.set_attribute("http.response.status_code", response.status)
                if response.status >= 500:
                    from opentelemetry.trace import StatusCode

                    span.set_status(StatusCode.ERROR)
            return response

    application.middlewares.append(traced)
