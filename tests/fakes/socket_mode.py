"""A fake Slack Socket Mode endpoint: a websocket server on 127.0.0.1 (ephemeral port).

Point the fake Web API's `apps.connections.open` at `url`; push envelopes with `push` and
wait for the client's acknowledgement (by envelope_id) with `wait_ack`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from typing import Any

from aiohttp import WSMsgType, web


class FakeSocketMode:
    """Accepts Socket Mode clients, sends `hello`, records acks."""

    def __init__(self) -> None:
        self.url = ""
        self.acks: dict[str, dict[str, Any]] = {}
        self.connections = 0
        self._sockets: list[web.WebSocketResponse] = []
        self._connected = asyncio.Event()
        self._acked = asyncio.Event()
        self._runner: web.AppRunner | None = None

    async def start(self) -> FakeSocketMode:
        """Listen on an ephemeral port."""
        app = web.Application()
        app.router.add_get("/link", self._socket)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"ws://127.0.0.1:{port}/link"
        return self

    async def stop(self) -> None:
        """Close every socket and stop listening."""
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        self._sockets.append(socket)
        self.connections += 1
        await socket.send_json({"type": "hello", "num_connections": 1, "debug_info": {}})
        self._connected.set()
        async for message in socket:
            if message.type == WSMsgType.TEXT:
                data = json.loads(message.data)
                if "envelope_id" in data:
                    self.acks[data["envelope_id"]] = data
                    self._acked.set()
        self._sockets.remove(socket)
        return socket

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait for a client."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def push(self, kind: str, payload: dict[str, Any], retry_attempt: int = 0) -> str:
        """Send one envelope (`events_api`, `interactive`, `slash_commands`); returns its id."""
        envelope_id = str(uuid.uuid4())
        envelope = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": kind != "events_api",
            "retry_attempt": retry_attempt,
            "retry_reason": "timeout" if retry_attempt else "",
        }
        await self._sockets[-1].send_json(envelope)
        return envelope_id

    async def wait_ack(self, envelope_id: str, timeout: float = 10.0) -> dict[str, Any]:
        """The acknowledgement the client sent for one envelope."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while envelope_id not in self.acks:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"no ack for envelope {envelope_id}")
            self._acked.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._acked.wait(), min(remaining, 0.2))
        return self.acks[envelope_id]
