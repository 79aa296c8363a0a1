"""Bounded fuzzing of the two ways text gets in: `brain ask --json -` (the CLI's `main`, in
process) and the HTTP endpoint. Whatever the bytes, no traceback, one valid JSON object per
input line, and the endpoint answers 2xx/4xx."""

from __future__ import annotations

import io
import json
import logging
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from tests.bot import slack_payloads as p
from tests.bot.conftest import Harness

#: Characters attackers and bad luck send: controls, NUL, bidi overrides, zero-width marks,
#: surrogate-looking text, CJK, emoji, Slack markup.
_NASTY = st.sampled_from(
    [
        *"\x00\x01\x1b\x7f\u202a\u202e\u2066\u2069\u200b\ufeff\u2028<>&*_`|\\\"'",
        *("滚仓", "工单", "😀", "<@U123>", "<!channel>", "password: x1!", "(a+)+x", "\r"),
    ]
)
_LINE_TEXT = st.lists(st.one_of(st.text(max_size=20), _NASTY), max_size=12).map("".join)
_LINE = st.one_of(
    _LINE_TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.binary(max_size=60).filter(lambda raw: b"\n" not in raw),
    st.just(b"x" * 30_000),
)
_FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class _Stdin(io.TextIOWrapper):
    """A strict-UTF-8 stdin over raw bytes (as under `PYTHONIOENCODING=utf-8`)."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8", errors="strict")


@pytest.mark.slow
@pytest.mark.usefixtures("home")
@_FUZZ
@given(lines=st.lists(_LINE, min_size=1, max_size=6))
def test_ask_batch_answers_every_line_with_valid_json(
    lines: list[bytes],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n"
    expected = data.count(b"\n")
    monkeypatch.setattr(sys, "stdin", _Stdin(data))

    code = main(["ask", "--json", "-"])

    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [row["line"] for row in rows] == list(range(1, expected + 1))
    assert all(("decision_id" in row) != ("error" in row) for row in rows)
    assert "Traceback" not in captured.err
    assert code == 0


_CONTENT_TYPES = st.sampled_from(
    ["application/json", "application/x-www-form-urlencoded", "text/plain", ""]
)
_BODIES = st.one_of(
    st.binary(max_size=300),
    st.builds(
        lambda text: json.dumps(p.envelope(p.message(text))).encode(),
        _LINE_TEXT,
    ),
    st.builds(lambda raw: b"payload=" + raw, st.binary(max_size=100)),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=8,
    ).map(lambda value: json.dumps(value).encode()),
)


@_FUZZ
@given(body=_BODIES, content_type=_CONTENT_TYPES, signed=st.booleans())
async def test_http_endpoint_never_fails_with_a_traceback(
    harness: Harness,
    caplog: pytest.LogCaptureFixture,
    body: bytes,
    content_type: str,
    signed: bool,
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    if signed:
        try:
            headers.update(p.sign(body.decode("utf-8"), timestamp=int(time.time())))
        except UnicodeDecodeError:
            headers.update({"X-Slack-Request-Timestamp": str(int(time.time()))})
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        async with harness.session.post(harness.url, data=body, headers=headers) as response:
            await response.read()
            status = response.status
        await harness.idle()
    assert status < 500
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
