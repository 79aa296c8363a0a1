"""Webhook controllers within the admin's bounds: no stray secrets in headers, no metadata or
link-local destinations, an optional host allow-list, redacted text, bounded answers."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest

from controllers.base import ControllerContext
from controllers.declarative import DeclarativeController
from controllers.services import build_services
from core.config import load_settings
from core.limits import WEBHOOK_MAX_RESPONSE_BYTES

if TYPE_CHECKING:
    from tests.controllers.conftest import Endpoint

ContextFactory = Callable[..., ControllerContext]


def _hook(url: str, **options: Any) -> DeclarativeController:
    """A webhook controller; its default timeout is long enough for a loaded machine (a test
    about the timeout sets its own)."""
    return DeclarativeController(
        name="payroll",
        description="Payroll desk",
        handler="webhook",
        options={"url": url, "timeout_s": 15, **options},
    )


def _context(make_context: ContextFactory, text: str = "resend my payslip") -> ControllerContext:
    """A context whose services carry this test's configuration (set in the environment)."""
    return make_context(text, services=build_services(load_settings()))


def test_headers_expand_only_allow_listed_variables(
    endpoint: Endpoint, make_context: ContextFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-the-bots-own-token")
    monkeypatch.setenv("PAYROLL_TOKEN", "payroll-secret")
    leaky = _hook(endpoint.url, headers={"Authorization": "Bearer ${SLACK_BOT_TOKEN}"})

    refused = leaky.handle(_context(make_context))

    assert not refused.ok and refused.data["error"] == "refused"
    assert "SLACK_BOT_TOKEN" in refused.summary and "header_env" in refused.summary
    assert "xoxb" not in str(refused.to_dict())
    assert endpoint.requests == []  # nothing was sent

    monkeypatch.setenv("BRAIN_WEBHOOK_HEADER_ENV", "PAYROLL_TOKEN")
    allowed = _hook(endpoint.url, headers={"Authorization": "Bearer $PAYROLL_TOKEN"})
    assert allowed.handle(_context(make_context)).ok
    assert endpoint.requests[0]["headers"]["Authorization"] == "Bearer payroll-secret"


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://[fe80::1]:8080/hook",
        "http://[::ffff:169.254.169.254]/",
    ],
)
def test_metadata_and_link_local_destinations_are_refused(
    make_context: ContextFactory, url: str
) -> None:
    result = _hook(url, timeout_s=0.5).handle(_context(make_context))
    assert not result.ok
    assert result.data["error"] == "refused"
    assert "metadata" in result.summary or "link-local" in result.summary


def test_host_allow_list(
    endpoint: Endpoint, make_context: ContextFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_WEBHOOK_HOSTS", "hooks.example.com")
    result = _hook(endpoint.url).handle(_context(make_context))
    assert not result.ok and "allowed_hosts" in result.summary
    assert endpoint.requests == []

    monkeypatch.setenv("BRAIN_WEBHOOK_HOSTS", "hooks.example.com,127.0.0.1")
    assert _hook(endpoint.url).handle(_context(make_context)).ok


def test_the_text_sent_out_is_redacted(endpoint: Endpoint, make_context: ContextFactory) -> None:
    text = "payslip please, my password is Hunter2! and call me at 13812345678"
    assert _hook(endpoint.url).handle(_context(make_context, text)).ok
    sent = endpoint.requests[0]["json"]["text"]
    assert "Hunter2" not in sent and "13812345678" not in sent
    assert sent.startswith("payslip please")


@contextmanager
def _streaming_endpoint(chunk: bytes, pause_s: float) -> Iterator[str]:
    """An endpoint that answers 200 and then streams `chunk` every `pause_s` seconds until
    the client goes away."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(chunk)
                    self.wfile.flush()
                    if pause_s:
                        time.sleep(pause_s)
            except (BrokenPipeError, ConnectionResetError):
                return

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def endless_endpoint() -> Iterator[str]:
    """An endpoint that streams bytes as fast as it can, without end."""
    with _streaming_endpoint(b"x" * 65536, 0.0) as url:
        yield url


def test_an_endless_answer_is_cut_at_the_size_limit(
    endless_endpoint: str, make_context: ContextFactory
) -> None:
    result = _hook(endless_endpoint, timeout_s=30).handle(_context(make_context))
    assert result.ok
    assert result.data["truncated_at_bytes"] == WEBHOOK_MAX_RESPONSE_BYTES
    assert len(result.data["response"]) <= WEBHOOK_MAX_RESPONSE_BYTES


def test_a_closed_port_fails_cleanly(make_context: ContextFactory) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = _hook(f"http://127.0.0.1:{port}/hook").handle(_context(make_context))
    assert not result.ok and result.data["error"] == "ConnectError"


def test_a_trickling_answer_is_cut_at_the_timeout(make_context: ContextFactory) -> None:
    # Each chunk arrives well within httpx's per-read timeout, so only the call's own deadline
    # ("webhook time" in core.limits) stops an answer that never ends. Reaching the
    # size limit at this pace takes 128 pauses of 10 ms, four times the timeout.
    with _streaming_endpoint(b"x" * 512, 0.01) as url:
        result = _hook(url, timeout_s=0.3).handle(_context(make_context))
    assert not result.ok
    assert result.data["error"] == "timeout"
    assert "within 0.3 s" in result.summary
