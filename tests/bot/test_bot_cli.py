"""`brain chat` (terminal conversation) and `brain run` (the bot as a process)."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from brain.engine import Brain
from cli import main
from core.config import load_settings
from tests.bot import brain_run
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, FORCE_CLARIFY, ROUTED_TEXT
from tests.fakes.slack_api import FakeSlackAPI
from tests.fakes.socket_mode import FakeSocketMode
from tests.http_client import client_session


def _chat(monkeypatch: pytest.MonkeyPatch, capsys: Any, *lines: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    assert main(["chat", "--user", "UCHAT"]) == 0
    return str(capsys.readouterr().out)


def _decision_ids(output: str) -> list[str]:
    return [word.rstrip(":") for word in output.split() if word.startswith("d-")]


def test_chat_routes_confirms_explains_and_corrects(
    brain_factory: Callable[[], Brain], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    brain_factory().close()  # prepares this test's home from the template
    out = _chat(
        monkeypatch,
        capsys,
        ROUTED_TEXT,
        "/right",
        "/why",
        "/wrong access",
        "/bogus",
        "/quit",
        "never read",
    )
    assert "Routed to" in out
    assert "Thanks, recorded that" in out
    assert "Signals" in out and "Feedback:" in out and "confirm" in out
    assert "Rerouted to" in out
    assert "Unknown command /bogus" in out
    assert out.rstrip().endswith("bye")
    decision_id = _decision_ids(out)[0]
    with Brain.open(load_settings()) as brain:
        feedback = brain.get_decision(decision_id).feedback
    assert [(f.kind, f.controller, f.user, f.source) for f in feedback] == [
        ("confirm", None, "UCHAT", "chat"),
        ("correct", "access", "UCHAT", "chat"),  # a correction, not a clarification answer
    ]


def test_chat_wrong_without_controller_offers_numbered_choices(
    brain_factory: Callable[[], Brain], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    brain_factory().close()
    out = _chat(monkeypatch, capsys, ROUTED_TEXT, "/wrong", "1")
    assert "was wrong. Where should it go?" in out
    assert "  1. " in out
    assert "Rerouted to" in out
    decision_id = _decision_ids(out)[0]
    with Brain.open(load_settings()) as brain:
        kinds = [f.kind for f in brain.get_decision(decision_id).feedback]
    assert kinds == ["reject", "correct"]


def test_chat_clarification_answered_by_number(
    brain_factory: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    home = load_settings().home
    brain_factory.prepare(home)
    (home / "brain.toml").write_text(FORCE_CLARIFY, encoding="utf-8")
    out = _chat(monkeypatch, capsys, ROUTED_TEXT, "1", "")
    assert "  1. " in out and "None of these" in out
    assert "Rerouted to" in out


def test_chat_survives_empty_and_binary_input(
    brain_factory: Callable[[], Brain], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    brain_factory().close()
    out = _chat(monkeypatch, capsys, "   ", "\x00\x01\x02", "/why", "/right")
    assert "cannot route this message" in out
    assert "no decision" in out.lower()


def test_run_refuses_without_credentials_and_never_prints_tokens(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "SLACK_BOT_TOKEN" in err and "SLACK_SIGNING_SECRET" in err
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-secret-value-123")
    assert main(["run", "--http"]) == 2
    captured = capsys.readouterr()
    assert "SLACK_SIGNING_SECRET" in captured.err
    assert "xoxb-secret-value-123" not in captured.err + captured.out
    monkeypatch.setenv("SLACK_APP_TOKEN", "xapp-secret")
    monkeypatch.delenv("SLACK_BOT_TOKEN")
    assert main(["run"]) == 2
    assert "Socket Mode" in capsys.readouterr().err


async def test_brain_run_serves_http_until_terminated(
    brain_factory: Callable[[], Brain], fake_slack: FakeSlackAPI, tmp_path: Path
) -> None:
    brain_factory().close()
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": "xoxb-process-token-9",
        "SLACK_SIGNING_SECRET": p.SIGNING_SECRET,
        "SLACK_API_URL": fake_slack.url,
    }
    process = await brain_run.start(env, *brain_run.HTTP)
    try:
        url = (await brain_run.first_line(process, 60)).rsplit(" ", 1)[-1]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/slack/events")
        event = p.message(ROUTED_TEXT)
        body = json.dumps(p.envelope(event))
        headers = {"Content-Type": "application/json", **p.sign(body)}
        async with client_session() as session:
            async with session.post(url, data=body, headers=headers) as response:
                assert response.status == 200
            health = url.replace("/slack/events", "/healthz")
            async with session.get(health) as response:
                assert (await response.json())["ok"] is True
        posts = await fake_slack.wait_for("chat.postMessage", timeout=90)
        assert posts[0].params["thread_ts"] == event["ts"]
    finally:
        err = await brain_run.stop(process)
    assert process.returncode == 0
    assert b"xoxb-process-token-9" not in err


async def test_brain_run_uses_socket_mode_when_an_app_token_is_set(
    brain_factory: Callable[[], Brain], fake_slack: FakeSlackAPI
) -> None:
    brain_factory().close()
    socket = await FakeSocketMode().start()
    fake_slack.socket_url = socket.url
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": "xoxb-process-token-9",
        "SLACK_APP_TOKEN": "xapp-process-token-7",
        "SLACK_API_URL": fake_slack.url,
    }
    process = await brain_run.start(env)
    try:
        assert "Socket Mode" in await brain_run.first_line(process, 90)
        await socket.wait_connected()
        event = p.message(ROUTED_TEXT)
        envelope_id = await socket.push("events_api", p.envelope(event))
        await socket.wait_ack(envelope_id)
        posts = await fake_slack.wait_for("chat.postMessage", timeout=90)
        assert posts[0].params["thread_ts"] == event["ts"]
    finally:
        err = await brain_run.stop(process)
        await socket.stop()
    assert process.returncode == 0
    assert b"xoxb-process-token-9" not in err and b"xapp-process-token-7" not in err


async def test_brain_run_in_json_mode_writes_only_json_lines_carrying_the_messages_ids(
    fake_slack: FakeSlackAPI, tmp_path: Path
) -> None:
    """With BRAIN_LOG_FORMAT=json every line `brain run` writes on standard error is one JSON
    object, the first-use progress of a fresh home included (it was printed as plain
    "brain: ..." lines), and a line written while a message is handled carries its event id
    and decision id."""
    fake_slack.fail("chat.getPermalink", error="channel_not_found")  # a warning on the way
    env = brain_run.json_logging_env(
        tmp_path / "fresh-home", fake_slack.url, "xoxb-json-log-token"
    )  # first use: progress lines at warm-up
    process = await brain_run.start(env, *brain_run.HTTP)
    try:
        url = (await brain_run.first_line(process, 120)).rsplit(" ", 1)[-1]
        body = json.dumps(p.envelope(p.message(ESCALATE_TEXT), "EvJsonLog001"))
        assert await brain_run.post_signed(url, body) == 200
        await fake_slack.wait_for(
            "chat.postMessage", timeout=90, where=lambda c: c.params["channel"] == "CONCALL01"
        )
    finally:
        err = await brain_run.stop(process)
    written = [line for line in err.decode().splitlines() if line.strip()]
    plain = [line for line in written if not line.startswith("{")]
    assert plain == [], plain
    lines = [json.loads(line) for line in written]
    assert any("ingesting the sample knowledge base" in line["message"] for line in lines)
    warned = [line for line in lines if "no permalink" in line["message"]]
    assert warned, lines
    assert all(line.get("event_id") == "EvJsonLog001" for line in warned), warned
    assert all(str(line.get("decision_id", "")).startswith("d-") for line in warned), warned
