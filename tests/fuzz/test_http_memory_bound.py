"""The worst requests known, sent to a real `brain run --http` process: each gets a 4xx (or,
sent slowly, costs a socket and nothing more), the process's peak memory stays within 1 GB of
its peak after a harmless signed event (its warm size), it keeps answering `/healthz`, stops
cleanly and logs no traceback.

The body cap (`MAX_REQUEST_BYTES`) is enforced on the bytes read, so a 50 MB body, a lying
`Content-Length`, a chunked or a gzip-compressed body stops at the cap; a body under the cap is
checked for its signature before anything parses it.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
import zlib
from collections.abc import Iterable
from pathlib import Path

import aiohttp
import pytest

from core.limits import MAX_REQUEST_BYTES
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT
from tests.bot.test_malformed_requests import _signature
from tests.fakes.slack_api import FakeSlackAPI
from tests.fuzz.test_memory_bound import BOUND_KB
from tests.replicas import Replica, replica_env, send_event, start_replica, stop, wait_idle
from tests.replicas import wait_ready as wait_warm

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"
MB = 1024 * 1024
#: Connections held open, each with a request that never finishes (slowloris): each is dropped
#: after `MAX_REQUEST_SECONDS`.
SLOW_CONNECTIONS = 200
#: Seconds any one hostile request may take before the test calls it a hang.
HANG_S = 120
#: An event type no Slack sends (a metric label per name sent would grow without bound).
NAMED = "hostile-type-"


def _peak_kb(replica: Replica) -> int:
    """The process's peak resident size so far (VmHWM, kilobytes, as ru_maxrss)."""
    status = Path(f"/proc/{replica.process.pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1])


def _head(content_type: str, length: int | None, **headers: str) -> bytes:
    """A request line and headers for POST /slack/events (chunked when `length` is None)."""
    fields = {"Host": "127.0.0.1", "Content-Type": content_type, **headers}
    if length is None:
        fields["Transfer-Encoding"] = "chunked"
    else:
        fields["Content-Length"] = str(length)
    lines = [f"{name}: {value}" for name, value in fields.items()]
    return ("POST /slack/events HTTP/1.1\r\n" + "\r\n".join(lines) + "\r\n\r\n").encode()


def _signed_head(body: bytes, content_type: str, **headers: str) -> bytes:
    """Headers carrying a valid signature of `body` (Slack signs the bytes as sent)."""
    return _head(content_type, len(body), **_signature(body, str(int(time.time()))), **headers)


def _chunked(data: bytes, size: int = 64 * 1024) -> Iterable[bytes]:
    for start in range(0, len(data), size):
        piece = data[start : start + size]
        yield f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    yield b"0\r\n\r\n"


def _pieces(data: bytes, size: int = 256 * 1024) -> Iterable[bytes]:
    return (data[start : start + size] for start in range(0, len(data), size))


async def _exchange(port: int, head: bytes, body: Iterable[bytes] = ()) -> int | None:
    """The status of one raw HTTP/1.1 request on a new connection, or None when the server
    closed it unanswered (it may stop reading a body over the cap and answer early)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        try:
            writer.write(head)
            for piece in body:
                writer.write(piece)
                await writer.drain()
        except ConnectionError:
            pass  # refused mid-body: the answer, if any, is already on its way
        try:
            line = await reader.readline()
        except ConnectionError:
            return None
        return int(line.split()[1]) if line.startswith(b"HTTP/1.1 ") else None
    finally:
        writer.close()


def _nested(depth: int) -> bytes:
    return b'{"type": "event_callback", "event": ' + b"[" * depth + b"]" * depth + b"}"


def _hostile() -> list[tuple[str, bytes, Iterable[bytes], set[int | None]]]:
    """(what, head, body pieces, statuses allowed) of every hostile request."""
    big = b'{"type": "event_callback", "pad": "' + b"x" * (50 * MB) + b'"}'
    five_mb_text = json.dumps(p.envelope(p.message("a" * (5 * MB)))).encode()
    cjk = p.message("工单 " * (MAX_REQUEST_BYTES // 8))  # 7 bytes each: under the cap
    near_cap_text = json.dumps(p.envelope(cjk), ensure_ascii=False).encode()
    not_utf8 = b"\xff\xfe" * (MB // 4)
    bomb = gzip.compress(b"\x00" * (200 * MB), compresslevel=9)  # ~200 KB on the wire
    deflate_bomb = zlib.compress(b"{" * (200 * MB), 9)
    form = b"payload=" + b"%7B" * (20 * MB)
    many_keys = b"&".join([b"a=1"] * (MAX_REQUEST_BYTES // 5))
    nested = _nested(MAX_REQUEST_BYTES // 4)
    named = json.dumps({"type": "event_callback", "event": {"type": NAMED * 50_000}}).encode()
    refused = {413, None}
    return [
        ("50 MB body", _head(JSON, len(big)), _pieces(big), refused),
        ("50 MB body, Content-Length says 10", _head(JSON, 10), _pieces(big), {400, 401, None}),
        ("50 MB chunked body", _head(JSON, None), _chunked(big), refused),
        ("5 MB text, signed", _signed_head(five_mb_text, JSON), _pieces(five_mb_text), refused),
        ("gzip bomb", _head(JSON, len(bomb), **{"Content-Encoding": "gzip"}), [bomb], refused),
        (
            "deflate bomb",
            _head(JSON, len(deflate_bomb), **{"Content-Encoding": "deflate"}),
            [deflate_bomb],
            refused,
        ),
        ("20 MB form", _head(FORM, len(form)), _pieces(form), refused),
        ("1 MB of form keys, signed", _signed_head(many_keys, FORM), [many_keys], {400, 404}),
        ("1 MB of form keys", _head(FORM, len(many_keys)), [many_keys], {401}),
        ("nested JSON", _head(JSON, len(nested)), [nested], {401}),
        ("nested JSON, signed", _signed_head(nested, JSON), [nested], {400}),
        ("nested form payload, signed", *_signed_form(b"[" * 200_000), {400}),
        ("1 MB of CJK text, signed", _signed_head(near_cap_text, JSON), [near_cap_text], {200}),
        ("invalid UTF-8, signed", _signed_head(not_utf8, JSON), [not_utf8], {401}),
        ("a new event type per request", _head(JSON, len(named)), [named], {401}),
        ("unsigned garbage", _head(JSON, MB), [bytes(range(256)) * (MB // 256)], {401}),
    ]


def _signed_form(payload: bytes) -> tuple[bytes, list[bytes]]:
    body = b"payload=" + payload
    return _signed_head(body, FORM), [body]


async def _hold_slow_requests(port: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """Connections that each send part of a request and then nothing (slowloris): half stop
    inside the headers, half inside a body that says it is 1 MB."""
    held = []
    for i in range(SLOW_CONNECTIONS):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        if i % 2:
            writer.write(b"POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        else:
            writer.write(_head(JSON, MB) + b'{"type": "event_callback", ')
        await writer.drain()
        held.append((reader, writer))
    return held


async def _dropped(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> int | None:
    """How the server ends a slow request: its status, or None when it closes the connection
    unanswered."""
    try:
        line = await reader.readline()
    except ConnectionError:
        line = b""
    writer.close()
    return int(line.split()[1]) if line.startswith(b"HTTP/1.1 ") else None


async def _health(session: aiohttp.ClientSession, replica: Replica) -> int:
    async with session.get(f"{replica.base}/healthz") as response:
        await response.read()
        return response.status


@pytest.mark.slow
async def test_no_request_takes_the_http_server_a_gigabyte_above_its_warm_size(
    brain_template: Path, fake_slack: FakeSlackAPI, tmp_path: Path
) -> None:
    env = replica_env(
        home=tmp_path / "unused", slack_url=fake_slack.url, database_url=None, schema=None
    )
    replica = start_replica("hostile", brain_template, tmp_path, env)
    try:
        async with aiohttp.ClientSession() as session:
            await wait_warm(session, replica, timeout=600)
            event = p.message(ROUTED_TEXT, user="UWARM01", channel="DWARM01")
            assert await send_event(session, replica, event, "EvWARM01") == 200
            await fake_slack.wait_for("chat.postMessage")
            await wait_idle(session, [replica])
            warm = _peak_kb(replica)

            statuses = {}
            for what, head, body, allowed in _hostile():
                status = await asyncio.wait_for(_exchange(replica.port, head, body), HANG_S)
                statuses[what] = status if status in allowed else (status, "not", allowed)
            held = await _hold_slow_requests(replica.port)
            assert await _health(session, replica) == 200  # served beside them
            slow = await asyncio.wait_for(asyncio.gather(*(_dropped(*c) for c in held)), HANG_S)
            statuses["slow headers"] = set(slow[1::2])
            statuses["slow body"] = set(slow[0::2])
            await wait_idle(session, [replica])
            peak = _peak_kb(replica)
            assert await _health(session, replica) == 200
            async with session.get(f"{replica.base}/metrics") as response:
                assert NAMED not in await response.text()
    finally:
        stop([replica])
    log = replica.log_tail(size=10**6)
    print(f"warm {warm} KB, after hostile requests {peak} KB; statuses {statuses}")
    assert {what: s for what, s in statuses.items() if isinstance(s, tuple)} == {}
    assert statuses["slow headers"] == {None}
    assert statuses["slow body"] == {408}
    assert replica.process.returncode == 0, log
    assert "Traceback" not in log
    assert peak - warm < BOUND_KB, f"peaked {peak - warm} KB above its warm {warm} KB"
