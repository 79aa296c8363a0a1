"""Following one message through the logs: every JSON line written while the bot
handles it carries the Slack event id, and from the moment the brain names its decision, the
decision id too (`core.logs.ContextFilter`, bound at the HTTP entry and in the chain)."""

from __future__ import annotations

import io
import json

from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ONCALL_CHANNEL, Harness


async def test_every_line_of_one_messages_handling_carries_its_event_and_decision_ids(
    harness: Harness, json_log: io.StringIO
) -> None:
    harness.fake.fail("chat.getPermalink", error="channel_not_found")  # a warning on the way
    json_log.truncate(0)
    json_log.seek(0)
    status, _ = await harness.event(p.message(ESCALATE_TEXT), event_id="EvTRACE0001")
    assert status == 200
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    decision = harness.brain.last_decision("UASKER01", "DCHAT001")
    assert decision is not None and decision.escalate
    lines = [json.loads(line) for line in json_log.getvalue().splitlines() if line.strip()]
    ours = [line for line in lines if "no permalink" in line["message"]]
    assert ours, lines  # the escalation's warning was written
    assert all(line.get("event_id") == "EvTRACE0001" for line in lines), lines
    assert all(line.get("decision_id") == decision.decision_id for line in lines), lines
