"""Degradation that tells the truth (seed 002): a controller that fails makes the
outcome "failed", the next plausible controller or a person takes over, and the reply says so."""

from __future__ import annotations

import json
import socket

import pytest

from brain.conversation.turns import Conversation
from brain.engine import Brain
from cli import main
from controllers.base import ControllerContext, ControllerResult
from controllers.builtin.incident import IncidentController
from controllers.declarative import DeclarativeController
from core.records import Message


def _broken(self: IncidentController, context: ControllerContext) -> ControllerResult:
    raise ConnectionError("the ITSM backend is down")


@pytest.mark.usefixtures("home")
def test_a_controller_that_raises_is_failed_not_routed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(IncidentController, "handle", _broken)
    assert main(["ask", "my laptop screen is broken", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert decision["controller"] == "incident"
    assert decision["outcome"] == "failed"
    assert decision["result"]["ok"] is False
    assert "ConnectionError" in decision["result"]["error"]
    assert "ask a person" in decision["result"]["summary"]
    assert any(step.startswith("failed: incident") for step in decision["tier_path"])
    assert "failed" in decision["rationale"]


def test_the_reply_shows_the_failure(brain: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IncidentController, "handle", _broken)
    reply = Conversation(brain).handle(Message("my laptop screen is broken", "u1", "C1"))
    assert reply.headline.endswith("failed to handle this message.")
    assert any("ask a person" in line for line in reply.result_lines)


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"  # nothing listens there any more


def test_a_dead_webhook_fails_its_dry_run_and_its_result_carries_the_error() -> None:
    url = _dead_url()
    hook = DeclarativeController(
        name="payroll", description="Payroll desk", handler="webhook", options={"url": url}
    )
    context = ControllerContext(
        text="resend my payslip",
        user="u1",
        channel="C1",
        thread=None,
        decision_id="d-000000000000",
        intent="other",
        urgency="low",
        entities={},
    )
    dry = hook.dry_run(context)
    assert not dry.ok and "unreachable" in dry.reason
    result = hook.handle(context)
    assert not result.ok
    assert result.error == "ConnectError"  # what failed, for the decision log and the console
    assert result.summary == "The webhook could not be reached (ConnectError)."
    # the address shown without its path (webhook paths often hold a secret)
    shown = url.removesuffix("/hook") + "/…"
    assert result.data == {"url": shown, "error": "ConnectError"}
