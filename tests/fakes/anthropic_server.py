"""A fake Anthropic Messages API on 127.0.0.1 (ephemeral port), scriptable per test.

Start it with `FakeAnthropic()` as a context manager (or `.start()` / `.close()`), point the
client at `.url` (``LLMConfig(api_key=..., base_url=fake.url)`` or ``ANTHROPIC_BASE_URL``), queue
replies with `.push(...)` and assert on `.requests`. When the queue is empty the `default`
reply is served (a plain text "ok" unless set). A `responder` callable can compute replies from
the request body instead (e.g. classify by the text inside the data markers).

Reply builders: `FakeReply.json(obj)`, `FakeReply.text(str)`, `FakeReply.status(code)`
(500, 429, 529 ... with the Anthropic error body), `FakeReply.raw(body, content_type)` (the
whole HTTP body as given, not a Messages envelope: a proxy's HTML page, truncated or
wrong-shaped JSON), `FakeReply.slow(seconds, then=...)` and
`FakeReply.held(then=...)`: a stall that lasts until the test calls `.release()` (no clock in
it; `.wait_holding(n)` waits until n requests are stalled).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

__all__ = ["FakeAnthropic", "FakeReply", "RecordedRequest", "brain_llm"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class FakeReply:
    """One scripted reply: an assistant text (status 200) or an HTTP error, maybe delayed."""

    status_code: int = 200
    body_text: str = "ok"
    delay_s: float = 0.0
    headers: tuple[tuple[str, str], ...] = ()
    hold: bool = False
    #: Set: `body_text` is the whole HTTP body, sent with this content type.
    raw_content_type: str | None = None

    @classmethod
    def text(cls, text: str) -> FakeReply:
        """The assistant answers with ``text``."""
        return cls(200, text)

    @classmethod
    def json(cls, obj: Any) -> FakeReply:
        """The assistant answers with ``obj`` as JSON text."""
        return cls(200, json.dumps(obj, ensure_ascii=False))

    @classmethod
    def raw(cls, body: str, content_type: str = "application/json", status: int = 200) -> FakeReply:
        """The HTTP body ``body`` exactly, as a gateway or a broken proxy may answer."""
        return cls(status, body, raw_content_type=content_type)

    @classmethod
    def status(cls, code: int, message: str = "scripted failure") -> FakeReply:
        """An HTTP error in Anthropic's error format; retries are told to wait 1 ms."""
        return cls(code, message, headers=(("retry-after-ms", "1"),))

    @classmethod
    def slow(cls, seconds: float, then: FakeReply | None = None) -> FakeReply:
        """``then`` (default a text reply), sent only after ``seconds``."""
        base = then or cls.text("slow ok")
        return cls(
            base.status_code, base.body_text, seconds, base.headers, False, base.raw_content_type
        )

    @classmethod
    def held(cls, then: FakeReply | None = None) -> FakeReply:
        """``then`` (default a text reply), sent only after `FakeAnthropic.release()`."""
        base = then or cls.text("held ok")
        return cls(base.status_code, base.body_text, 0.0, base.headers, True, base.raw_content_type)


@dataclass
class RecordedRequest:
    """One request the fake received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: str
    at: float = field(default_factory=time.monotonic)

    @property
    def user_text(self) -> str:
        """The text of all user messages, joined."""
        parts: list[str] = []
        for message in self.body.get("messages", []):
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(block.get("text", "") for block in content if isinstance(block, dict))
        return "\n".join(parts)

    @property
    def system(self) -> str:
        """The system prompt (string or text blocks)."""
        system = self.body.get("system", "")
        if isinstance(system, list):
            return "\n".join(block.get("text", "") for block in system)
        return str(system)


class FakeAnthropic:
    """The fake server. Thread-safe; every test gets its own instance and port."""

    def __init__(self, default: FakeReply | None = None) -> None:
        self.default = default or FakeReply.text("ok")
        self.requests: list[RecordedRequest] = []
        self.responder: Callable[[RecordedRequest], FakeReply] | None = None
        self._queue: deque[FakeReply] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._released = threading.Event()
        self._holding = threading.Condition()
        #: Requests stalled on a held reply right now.
        self.holding = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL for the SDK (``base_url``)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def push(self, *replies: FakeReply) -> None:
        """Queue replies, served in order before falling back to ``default``."""
        with self._lock:
            self._queue.extend(replies)

    def release(self) -> None:
        """Let every held reply (now and later) go."""
        self._released.set()

    def wait_holding(self, count: int, timeout: float = 60.0) -> None:
        """Wait until `count` requests are stalled on held replies."""
        with self._holding:
            if not self._holding.wait_for(lambda: self.holding >= count, timeout):
                raise AssertionError(f"{self.holding} requests held, expected {count}")

    def _hold(self) -> bool:
        """Stall until released; False when the server closes meanwhile."""
        with self._holding:
            self.holding += 1
            self._holding.notify_all()
        try:
            while not self._released.wait(0.05):
                if self._closing.is_set():
                    return False
            return True
        finally:
            with self._holding:
                self.holding -= 1
                self._holding.notify_all()

    def start(self) -> FakeAnthropic:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and release any reply still sleeping."""
        self._closing.set()
        self._released.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next_reply(self, request: RecordedRequest) -> FakeReply:
        with self._lock:
            self.requests.append(request)
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(request)
        return self.default

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return  # keep test output quiet

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length).decode("utf-8", errors="replace")
                try:
                    body = json.loads(raw) if raw else {}
                except json.JSONDecodeError:
                    body = {}
                headers = {name.lower(): value for name, value in self.headers.items()}
                request = RecordedRequest(self.path, headers, body, raw)
                reply = fake._next_reply(request)
                if reply.delay_s and fake._closing.wait(reply.delay_s):
                    return
                if reply.hold and not fake._hold():
                    return
                self._send(reply, body)

            def _send(self, reply: FakeReply, body: dict[str, Any]) -> None:
                if reply.raw_content_type is not None:
                    self._write(reply, reply.body_text.encode("utf-8"), reply.raw_content_type)
                    return
                if reply.status_code == 200:
                    payload: dict[str, Any] = {
                        "id": f"msg_fake_{len(fake.requests)}",
                        "type": "message",
                        "role": "assistant",
                        "model": body.get("model", "fake-model"),
                        "content": [{"type": "text", "text": reply.body_text}],
                        "stop_reason": "end_turn",
                        "stop_sequence": None,
                        "usage": {"input_tokens": len(str(body)) // 4, "output_tokens": 8},
                    }
                else:
                    error_type = _ERROR_TYPES.get(reply.status_code, "api_error")
                    payload = {
                        "type": "error",
                        "error": {"type": error_type, "message": reply.body_text},
                    }
                self._write(reply, json.dumps(payload).encode("utf-8"), "application/json")

            def _write(self, reply: FakeReply, data: bytes, content_type: str) -> None:
                try:
                    self.send_response(reply.status_code)
                    self.send_header("content-type", content_type)
                    self.send_header("content-length", str(len(data)))
                    self.send_header("request-id", f"req_fake_{len(fake.requests)}")
                    for name, value in reply.headers:
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to deliver

        return Handler


@contextmanager
def brain_llm(
    monkeypatch: pytest.MonkeyPatch,
    *,
    timeout_s: float | None = None,
    default: FakeReply | None = None,
    dcr: bool = False,
    key: str = "sk-test-not-a-real-key",
) -> Iterator[FakeAnthropic]:
    """A started fake API with the brain's environment pointed at it, as every LLM test sets
    it up: a key (recognisably fake, so tests can grep logs for it), the base URL, the
    per-call timeout and, with `dcr`, the dynamic tier's LLM drafting switched on."""
    with FakeAnthropic(default=default) as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", key)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
        if timeout_s is not None:
            monkeypatch.setenv("BRAIN_LLM_TIMEOUT", str(timeout_s))
        if dcr:
            monkeypatch.setenv("BRAIN_DCR_LLM", "1")
        yield fake
