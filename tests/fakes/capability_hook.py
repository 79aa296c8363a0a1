"""A fake generic capability hook (a documentation/facilities search webhook) on 127.0.0.1.

It answers `{"found": true, "summary": ...}` when the posted text mentions one of its
`topics`, else `{"found": false}`, and records every request body.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeHook"]


class FakeHook:
    """The fake hook server; use as a context manager."""

    def __init__(self, topics: Sequence[str] = ("room", "会议室")) -> None:
        self.topics = tuple(topics)
        self.requests: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/search"

    def __enter__(self) -> FakeHook:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, body: dict[str, Any]) -> dict[str, Any]:
        text = str(body.get("text", "")).lower()
        topic = next((t for t in self.topics if t in text), None)
        if topic is not None:
            return {"found": True, "summary": f"Facilities: {topic} request handled."}
        return {"found": False}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(body)
                data = json.dumps(fake._answer(body)).encode("utf-8")
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
