"""Learning people can feel, through the Slack app: a Route elsewhere click changes the
clicker's next answer, and feedback given by another process reaches the running bot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness
from tests.bot.test_bot_interactions import _as_message, _ask, _block, _posted_ts

ORIGINAL = "the money for order 88231 has still not arrived"
PARAPHRASE = "payment for order 40211 not arrived yet"


async def test_route_elsewhere_becomes_the_clickers_preference(harness: Harness) -> None:
    event, reply = await _ask(harness, ORIGINAL, user="UONE0001", channel="DONE0001")
    actions = _block(reply, "brain_decision:")
    decision_id = actions["block_id"].split(":", 1)[1]
    assert harness.brain.get_decision(decision_id).controller == "ticket"  # precondition
    click = p.block_action(
        user="UONE0001",
        channel=event["channel"],
        message=_as_message(reply, _posted_ts(harness, reply)),
        action_id="brain_reroute",
        block_id=actions["block_id"],
        selected="consultation",
    )
    assert (await harness.click(click))[0] == 200
    await harness.fake.wait_for("chat.update")
    await harness.idle()

    _, mine = await _ask(harness, PARAPHRASE, user="UONE0001", channel="DONE0002")
    _, theirs = await _ask(harness, PARAPHRASE, user="UNINE009", channel="DNINE0001")

    assert mine and theirs
    decided = {
        "mine": harness.brain.last_decision("UONE0001", "DONE0002"),
        "theirs": harness.brain.last_decision("UNINE009", "DNINE0001"),
    }
    assert decided["mine"] is not None and decided["theirs"] is not None
    assert decided["mine"].controller == "consultation", decided["mine"].tier_path
    assert "you moved a message like this" in decided["mine"].rationale
    assert decided["theirs"].controller != "consultation"
    assert not decided["theirs"].preference

    status, _ = await harness.command(
        "/brain-why", decided["mine"].decision_id, user="UONE0001", channel="DONE0002"
    )
    assert status == 200
    answer = (await harness.fake.wait_for("response_url"))[-1]
    await harness.idle()
    assert "you moved a message like this" in str(answer.params)


async def test_feedback_from_another_process_reaches_the_running_bot(harness: Harness) -> None:
    _, reply = await _ask(harness, ORIGINAL, user="UTWO0002", channel="DTWO0001")
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "brain",
            "feedback",
            decision_id,
            "--correct",
            "consultation",
            "--user",
            "UTWO0002",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr

    await _ask(harness, PARAPHRASE, user="UTWO0002", channel="DTWO0002")
    decision = harness.brain.last_decision("UTWO0002", "DTWO0002")
    assert decision is not None
    assert decision.controller == "consultation", decision.tier_path


async def test_forget_what_you_learned_from_me_in_a_dm_and_brain_forget(harness: Harness) -> None:
    event, reply = await _ask(harness, ORIGINAL, user="UTHREE03", channel="DTHREE01")
    actions = _block(reply, "brain_decision:")
    click = p.block_action(
        user="UTHREE03",
        channel=event["channel"],
        message=_as_message(reply, _posted_ts(harness, reply)),
        action_id="brain_reroute",
        block_id=actions["block_id"],
        selected="consultation",
    )
    assert (await harness.click(click))[0] == 200
    await harness.fake.wait_for("chat.update")
    await harness.idle()
    assert [e.user for e in harness.brain.memory.entries()] == ["UTHREE03", "UTHREE03"]

    _, answer = await _ask(
        harness, "forget what you learned from me", user="UTHREE03", channel="DTHREE01"
    )
    assert "I forgot what I learned from you (2 lesson(s) removed)" in str(answer.params)
    assert harness.brain.memory.entries() == []
    assert harness.brain.get_decision(actions["block_id"].split(":", 1)[1]).text == "[forgotten]"

    await _ask(harness, PARAPHRASE, user="UTHREE03", channel="DTHREE02")
    after = harness.brain.last_decision("UTHREE03", "DTHREE02")
    assert after is not None and after.controller != "consultation" and not after.preference

    status, _ = await harness.command("/brain-forget", "", user="UTHREE03", channel="DTHREE02")
    assert status == 200
    answered = (await harness.fake.wait_for("response_url"))[-1]
    await harness.idle()
    assert answered.params["response_type"] == "ephemeral"
    assert "I forgot what I learned from you (0 lesson(s) removed)" in answered.params["text"]
    assert harness.brain.get_decision(after.decision_id).text == "[forgotten]"


#: A message that escalates, written for this test (its words are searched for afterwards).
ALARMING = "security incident: ransomware encrypted the share finance-q3-ledger"


async def test_forget_also_redacts_the_users_on_call_alerts(harness: Harness) -> None:
    home = harness.brain.settings.home
    await harness.event(p.message(ALARMING, user="UFOUR004", channel="DFOUR001"))
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    pending = harness.bot.services.escalations.pending()
    assert [alert.asker for alert in pending] == ["UFOUR004"]  # precondition: stored
    assert "finance-q3-ledger" in pending[0].text
    assert _files_holding(home, "finance-q3-ledger")

    _, answer = await _ask(
        harness, "forget what you learned from me", user="UFOUR004", channel="DFOUR001"
    )
    assert "I forgot what I learned from you" in str(answer.params)

    assert _files_holding(home, "finance-q3-ledger") == []
    alert = harness.bot.services.escalations.get(pending[0].alert_id)
    assert alert is not None and alert.text == "[forgotten]"
    assert alert.asker == "UFOUR004" and alert.acknowledged_by is None  # the alert stays


def _files_holding(home: Path, word: str) -> list[str]:
    """Files under the brain home whose bytes hold `word` (as written or JSON-escaped)."""
    forms = {word.encode(), json.dumps(word).strip('"').encode()}
    return sorted(
        str(path.relative_to(home))
        for path in home.rglob("*")
        if path.is_file() and any(form in path.read_bytes() for form in forms)
    )
