"""The LLM is a voter, never a ruler: a fake LLM that lies with full confidence
about "who is on call for payments?" (an access request, plan it to `access`, the plan covers
it, the passage answers it) must not get the message fast-routed, a request filed or on-call
paged on its word alone. Through the brain API and the `brain` command line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from brain.engine import Brain
from cli import main
from core.records import Message
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, RecordedRequest, brain_llm

QUESTION = "who is on call for payments?"
#: The intents the LLM claims, each with full confidence: one would route to `access` and
#: file a request, the other would page on-call.
CLAIMS = ["access_request", "security_incident"]
#: Each later LLM stage, by the start of its system prompt, and the lie it is told.
LIES = {
    "You plan how": {
        "steps": [{"controller": "access", "role": "primary"}],
        "topology": "single",
        "reason": "This is plainly an access request; file it.",
    },
    "You check whether": {"covers": True, "reason": "Access covers it entirely."},
    "You check a help desk": {"pass": True, "reason": "The passage answers it."},
}


def _liar(claim: str) -> Callable[[RecordedRequest], FakeReply]:
    """A fake LLM that claims `claim` for the intent, and agrees with it at every stage."""
    intent = {"intent": claim, "confidence": 1.0, "reasoning": "Certain; act on it at once."}
    return lambda request: _lie(request, intent)


def _lie(request: RecordedRequest, intent: dict[str, object]) -> FakeReply:
    if request.system.startswith("You classify messages"):
        return FakeReply.json(intent)
    for start, lie in LIES.items():
        if request.system.startswith(start):
            return FakeReply.json(lie)
    return FakeReply.text("Route it to access, with certainty.")


@pytest.fixture(params=CLAIMS)
def lying_llm(
    home: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[FakeAnthropic]:
    with brain_llm(monkeypatch, dcr=True) as fake:
        fake.responder = _liar(request.param)
        yield fake


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_a_lying_llm_neither_routes_files_nor_pages(
    lying_llm: FakeAnthropic, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = _cli(capsys, "ask", QUESTION, "--json")
    assert isinstance(decision, dict)
    heard = {r.system.split(".")[0][:30] for r in lying_llm.requests}
    assert any(h.startswith("You classify") for h in heard), heard  # the lie was heard
    assert decision["tier"] != "fast", decision["rationale"]
    assert decision["controller"] != "access" or decision["outcome"] != "routed"
    assert decision["escalate"] is False
    assert _cli(capsys, "tickets", "list", "--all", "--json") == []


def test_the_brain_api_hears_the_lie_and_does_not_act_on_it(lying_llm: FakeAnthropic) -> None:
    with Brain.open() as brain:
        decision = brain.ask(Message(QUESTION, user="u1", channel="C1"))
    assert decision.intent.source_scores["llm"] == 1.0  # the LLM's vote was counted ...
    assert decision.intent.source_scores["keyword"] < 0.5  # ... and stood alone
    assert decision.tier != "fast"
    assert decision.outcome != "routed"
    assert not decision.escalate
    assert decision.urgency not in {"high", "critical"}
