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

from controllers.base import ControllerContext, ControllerServices
from controllers.registry import ControllerRegistry
from controllers.services import build_services
from core.config import Settings, load_settings

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


#: A few documents of the shipped sample KB: enough for runbooks, policies, glossary and IDs.
SAMPLE_FILES = (
    "runbooks/api-error-rate-latency.md",
    "runbooks/failed-batch-job.md",
    "runbooks/vpn-error-691.md",
    "policies/change-management.md",
    "policies/capacity-change.md",
    "policies/access-request-approval.md",
    "coding/sql-review-guidelines.md",
    "glossary",
)


@pytest.fixture(scope="session")
def knowledge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The real KnowledgeSkill on local Qdrant, sparse channel only (fast), a few sample docs.

    Shared read-only by this worker's tests; each test still has its own BRAIN_HOME.
    """
    from core.config import KnowledgeConfig
    from knowledge import SAMPLE_DIR, open_knowledge

    home = tmp_path_factory.mktemp("kb-home")
    settings = Settings(home=home, knowledge=KnowledgeConfig(embedder="none", ingest_sample=False))
    skill = open_knowledge(settings)
    skill.ingest([SAMPLE_DIR / name for name in SAMPLE_FILES], progress=False)
    yield skill
    skill.close()


@pytest.fixture
def kb_services(settings: Settings, knowledge: Any) -> ControllerServices:
    """Ticket store of the test's home plus the shared knowledge base; no LLM."""
    return build_services(settings, knowledge, None)


def anthropic_message(text: str) -> dict[str, Any]:
    """A Messages API response body with one text block."""
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


@pytest.fixture
def fake_llm(endpoint: Endpoint) -> Any:
    """The real LLMClient talking to the local endpoint as if it were the Messages API."""
    from pydantic import SecretStr

    from core.config import LLMConfig
    from core.llm import LLMClient

    endpoint.reply = anthropic_message("(unset)")
    config = LLMConfig(
        api_key=SecretStr("sk-test"), base_url=endpoint.url.removesuffix("/hook"), timeout_s=3
    )
    return LLMClient.from_settings(config)
