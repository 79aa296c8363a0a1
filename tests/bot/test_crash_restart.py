"""The embedded default (one process, TinyDB + embedded Qdrant) killed with `kill -9` after it
acknowledged messages and before it answered them: the next start of the same home answers
each of them once, and does not answer again what was answered before the crash.

The process is stopped at a known point without a clock: the fake LLM holds the requests of
the vague messages (their decisions wait on it) until the process is killed.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, RecordedRequest
from tests.fakes.slack_api import FakeSlackAPI
from tests.http_client import client_session
from tests.replicas import (
    metrics,
    replica_env,
    send_event,
    start_replica,
    stop,
    wait_idle,
    wait_ready,
)

VAGUE = ["help me, it's stuck", "it does not work, please help"]
#: Typed into the second vague message: kept owed across the crash, never on disk verbatim.
#: (Not "password: ...": a message naming a password is an access request on the fast path,
#: whose only LLM calls verify runbook passages against the controller's query, not the text.)
SECRET = "secret: Tr0ub4dor&3x!"


def files_holding(home: Path, needle: str) -> list[Path]:
    """Files under `home` whose bytes contain `needle`."""
    data = needle.encode("utf-8")
    return [path for path in home.rglob("*") if path.is_file() and data in path.read_bytes()]


@pytest.fixture
def llm() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake
        fake.release()


@pytest.mark.slow
async def test_a_crash_after_the_ack_is_answered_by_the_next_start(
    brain_template: Path, fake_slack: FakeSlackAPI, llm: FakeAnthropic, tmp_path: Path
) -> None:
    def stall_vague(request: RecordedRequest) -> FakeReply:
        vague = any(text in request.user_text for text in VAGUE)
        return FakeReply.held() if vague else FakeReply.text("ok")

    llm.responder = stall_vague
    env = replica_env(
        home=tmp_path / "unused",
        slack_url=fake_slack.url,
        database_url=None,
        schema=None,
        ANTHROPIC_API_KEY="sk-ant-test-crash",
        ANTHROPIC_BASE_URL=llm.url,
        BRAIN_LLM_TIMEOUT="120",
    )
    replica = start_replica("embedded", brain_template, tmp_path, env)
    restarted = None
    try:
        async with client_session() as session:
            await wait_ready(session, replica, timeout=600)
            texts = [VAGUE[0], f"{VAGUE[1]} ({SECRET})"]
            vague = [
                p.message(text, user=f"UCRASH{i:02d}", channel=f"DCRASH{i:02d}")
                for i, text in enumerate(texts)
            ]
            for i, event in enumerate(vague):
                assert await send_event(session, replica, event, f"EvCRASH{i}") == 200
            fast = p.message(ROUTED_TEXT, user="UCRASHFAST", channel="DCRASHFAST")
            assert await send_event(session, replica, fast, "EvCRASHFAST") == 200
            await fake_slack.wait_for(
                "chat.postMessage", where=lambda c: c.params.get("channel") == "DCRASHFAST"
            )
            await asyncio.to_thread(llm.wait_holding, len(vague))  # acked, being decided
            replica.process.kill()
            replica.process.wait(timeout=30)
            assert not files_holding(replica.home, "Tr0ub4dor"), "an owed event kept its secret"
            llm.responder = lambda request: FakeReply.text("ok")
            llm.release()

            restarted = start_replica("embedded", brain_template, tmp_path, env, fresh=False)
            await wait_ready(session, restarted, timeout=600)
            channels = {"DCRASHFAST", *(str(event["channel"]) for event in vague)}
            await fake_slack.wait_for(
                "chat.postMessage",
                len(channels),
                where=lambda c: c.params.get("channel") in channels,
                timeout=300,
            )
            await wait_idle(session, [restarted])
            answered = Counter(
                str(c.params["channel"])
                for c in fake_slack.of("chat.postMessage")
                if c.params.get("channel") in channels
            )
            assert answered == Counter({channel: 1 for channel in channels})
            found = await metrics(session, restarted)
            # The fast message may be taken over too, when the kill came between its reply
            # and the record that Slack took it: its reply is then found in the thread
            # (`conversations.replies`) and not sent again (the count above).
            assert found.get("brain_slack_events_recovered_total{}", 0) >= len(vague)
            assert not files_holding(restarted.home, "Tr0ub4dor")
    finally:
        stop([replica] if restarted is None else [replica, restarted])
