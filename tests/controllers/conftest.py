"""Fixtures of the controller tests: a home's services, contexts, and local HTTP endpoints."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from brain.config import Settings, load_settings
from controllers.base import ControllerContext, ControllerServices
from controllers.registry import ControllerRegistry
from controllers.services import build_services

ContextFactory = Callable[..., ControllerContext]


@pytest.fixture
def settings() -> Settings:
    """Settings of this test's own BRAIN_HOME (set by the suite's autouse fixture)."""
    return load_settings()


@pytest.fixture
def services(settings: Settings) -> ControllerServices:
    """Ticket store of the home; no knowledge base, no LLM."""
    return build_services(settings, None, None)


@pytest.fixture
def registry(settings: Settings) -> ControllerRegistry:
    """The registry as the brain loads it."""
    return ControllerRegistry.load(settings)


@pytest.fixture
def make_context(services: ControllerServices) -> ContextFactory:
    """Build a realistic context; keyword arguments override any field."""

    def build(text: str, **overrides: Any) -> ControllerContext:
        values: dict[str, Any] = {
            "text": text,
            "user": "U024BE7LH",
            "channel": "C0OPS",
            "thread": None,
            "decision_id": "dec-test",
            "intent": "other",
            "urgency": "medium",
            "entities": {},
            "services": services,
        }
        values.update(overrides)
        return ControllerContext(**values)

    return build


@dataclass
class Endpoint:
    """A local HTTP endpoint that records what it was sent."""

    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    reply: dict[str, Any] = field(default_factory=dict)
    delay_s: float = 0.0


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """An HTTP server on 127.0.0.1 at an ephemeral port; stopped after the test."""
    state = Endpoint(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            state.requests.append(
                {
                    "path": self.path,
                    "headers": dict(self.headers),
                    "json": json.loads(body or b"null"),
                }
            )
            if state.delay_s:
                time.sleep(state.delay_s)
            payload = json.dumps(state.reply).encode()
            self.send_response(state.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
