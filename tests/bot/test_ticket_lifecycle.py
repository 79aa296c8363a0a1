"""The ticket lifecycle over HTTP against the fake Slack: Resolve asks the requester,
👍 closes and confirms, 👎 opens the "what was wrong?" modal and reopens; Reopen reopens;
a routed request notifies its team's channel, the first Claim assigns and a second is
refused politely; a stale ticket is nudged then closed, and an SLA breach warns then
escalates, on a simulated clock."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest

from bot import ticket_view as view
from bot.helpdesk import sweep
from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, ROUTED_TEXT, Harness, StartBot
from tests.fakes.slack_api import TEAM_ID, Call

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


TEAM_CHANNEL = "CNETOPS01"
TEAM_CONFIG = f"""
[helpdesk]
nudge_after_s = 3600
close_after_s = 7200
[helpdesk.teams.netops]
channel = "{TEAM_CHANNEL}"
members = ["UHELPER1", "UHELPER2"]
controllers = ["incident"]
sla_s = {{P1 = 600, P2 = 600, P3 = 600, P4 = 600}}
"""


class SimClock:
    """The ticket store's clock, moved by the test."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def as_message(harness: Harness, call: Call) -> dict[str, Any]:
    index = harness.fake.of("chat.postMessage").index(call)
    ts = harness.fake.posted_ts[index]
    return {"type": "message", "ts": ts, "thread_ts": call.params.get("thread_ts"),
            "text": call.params.get("text"), "blocks": call.params["blocks"]}  # fmt: skip


def ticket_block(call: Call) -> dict[str, Any]:
    return next(
        b
        for b in call.params.get("blocks") or []
        if b.get("block_id", "").startswith(view.BLOCK_TICKET)
    )


async def file_ticket(harness: Harness) -> tuple[dict[str, Any], Call, str]:
    """A DM that files a ticket: (the event, the bot's reply, the ticket id)."""
    event = p.message(ROUTED_TEXT)
    await harness.event(event)
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    reply = next(
        c for c in harness.fake.of("chat.postMessage") if c.params.get("thread_ts") == event["ts"]
    )
    block = ticket_block(reply)
    return event, reply, block["block_id"].removeprefix(view.BLOCK_TICKET)


async def click(harness: Harness, user: str, message: dict[str, Any], channel: str, action: str,
                block: str, **kwargs: Any) -> None:  # fmt: skip
    payload = p.block_action(user=user, channel=channel, message=message, action_id=action,
                             block_id=block, **kwargs)  # fmt: skip
    assert (await harness.click(payload))[0] == 200
    await harness.idle()


def posts_after(harness: Harness, count: int) -> list[Call]:
    return harness.fake.of("chat.postMessage")[count:]


async def test_resolve_asks_the_requester_and_reopen_reopens(harness: Harness) -> None:
    event, reply, ticket_id = await file_ticket(harness)
    store = harness.brain.services.tickets
    message = as_message(harness, reply)
    block = view.BLOCK_TICKET + ticket_id
    before = len(harness.fake.of("chat.postMessage"))
    await click(
        harness, p.asker(), message, event["channel"], view.ACTION_RESOLVE, block, value=ticket_id
    )
    assert store.get(ticket_id).status == "resolved"
    new = posts_after(harness, before)
    assert "*resolved*" in new[0].params["text"] and new[0].params["thread_ts"] == event["ts"]
    question = new[1]
    assert "Did this solve it?" in json.dumps(question.params["blocks"])
    updated = harness.fake.of("chat.update")[-1].params["blocks"]
    assert any(
        e["action_id"] == view.ACTION_REOPEN
        for b in updated
        if b.get("block_id") == block
        for e in b["elements"]
    )

    # Reopen (on the redrawn reply) reopens it, said in the thread, kept in the history.
    redrawn = {**message, "blocks": updated}
    await click(
        harness, p.asker(), redrawn, event["channel"], view.ACTION_REOPEN, block, value=ticket_id
    )
    ticket = store.get(ticket_id)
    assert ticket.status == "open"
    assert [h["event"] for h in ticket.history][-3:] == ["resolved", "asked", "reopened"]
    assert "*new*" in harness.fake.of("chat.postMessage")[-1].params["text"]


async def test_the_requesters_thumbs_are_feedback(harness: Harness) -> None:
    event, reply, ticket_id = await file_ticket(harness)
    store = harness.brain.services.tickets
    decision_id = store.get(ticket_id).fields["decision_id"]
    block = view.BLOCK_TICKET + ticket_id
    await click(
        harness,
        p.asker(),
        as_message(harness, reply),
        event["channel"],
        view.ACTION_RESOLVE,
        block,
        value=ticket_id,
    )
    question = as_message(harness, harness.fake.of("chat.postMessage")[-1])
    rate = view.BLOCK_RATE + ticket_id
    # Someone else's 👍 changes nothing.
    await click(
        harness, "USTRANGER", question, event["channel"], view.ACTION_RATE_UP, rate, value=ticket_id
    )
    assert store.get(ticket_id).status == "resolved"
    # 👎 opens the "what was wrong?" modal with the click's trigger id; its submission
    # reopens the ticket, keeps the reason (redacted) and rejects the route.
    await click(
        harness,
        p.asker(),
        question,
        event["channel"],
        view.ACTION_RATE_DOWN,
        rate,
        value=ticket_id,
    )
    opened = harness.fake.of("views.open")[-1].params
    assert opened["trigger_id"] == "trigger" and opened["view"]["callback_id"] == view.VIEW_REASON
    values = {
        "reason": {"value": {"type": "plain_text_input", "value": "still drops, password hunter2"}}
    }
    submission = {
        "type": "view_submission",
        "team": {"id": TEAM_ID},
        "user": {"id": p.asker(), "team_id": TEAM_ID},
        "api_app_id": "AAPP0001",
        "view": {**opened["view"], "id": "V1", "state": {"values": values}},
    }
    assert (await harness.click(submission))[0] == 200
    await harness.idle()
    ticket = store.get(ticket_id)
    rated = [h for h in ticket.history if h["event"] == "rated"]
    assert (
        ticket.status == "open"
        and rated[0]["answer"] == "no"
        and "still drops" in rated[0]["reason"]
    )
    assert "hunter2" not in json.dumps(ticket.to_dict())
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [(f.kind, f.source) for f in feedback] == [("reject", "slack-satisfaction")]
    assert feedback[0].reason.startswith("still drops") and "hunter2" not in feedback[0].reason


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_a_teams_channel_is_told_and_the_first_claim_assigns(start_bot: StartBot) -> None:
    harness = await start_bot(TEAM_CONFIG)
    event, _, ticket_id = await file_ticket(harness)
    store = harness.brain.services.tickets
    assert store.get(ticket_id).kind == "incident"  # precondition: the team owns incident
    notice = next(
        c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == TEAM_CHANNEL
    )
    text = json.dumps(notice.params["blocks"])
    assert ticket_id in text and "Open the thread" in text
    assert store.get(ticket_id).team == "netops"
    message = as_message(harness, notice)
    block = view.BLOCK_TICKET + ticket_id
    # The requester is not on the team: their Claim is refused, privately.
    await click(
        harness, p.asker(), message, TEAM_CHANNEL, view.ACTION_CLAIM, block, value=ticket_id
    )
    assert store.get(ticket_id).assignee is None
    await click(
        harness, "UHELPER1", message, TEAM_CHANNEL, view.ACTION_CLAIM, block, value=ticket_id
    )
    ticket = store.get(ticket_id)
    assert (ticket.assignee, view.status_label(ticket)) == ("UHELPER1", "assigned")
    said = harness.fake.of("chat.postMessage")[-1].params
    assert said["thread_ts"] == event["ts"] and "<@UHELPER1>" in said["text"]
    await click(
        harness, "UHELPER2", message, TEAM_CHANNEL, view.ACTION_CLAIM, block, value=ticket_id
    )
    refused = harness.fake.of("chat.postEphemeral")[-1].params
    assert refused["user"] == "UHELPER2" and "already claimed by <@UHELPER1>" in refused["text"]
    assert store.get(ticket_id).assignee == "UHELPER1"


async def test_a_button_of_another_ticket_changes_nothing(harness: Harness) -> None:
    event, reply, ticket_id = await file_ticket(harness)
    _, _, other_id = await file_ticket(harness)
    assert other_id != ticket_id
    forged = view.BLOCK_TICKET + other_id  # the other ticket's id on this ticket's message
    await click(
        harness,
        p.asker(),
        as_message(harness, reply),
        event["channel"],
        view.ACTION_RESOLVE,
        forged,
        value=other_id,
    )
    store = harness.brain.services.tickets
    assert store.get(other_id).status == "open" and store.get(ticket_id).status == "open"


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_a_stale_ticket_is_nudged_then_closed_on_a_simulated_clock(
    start_bot: StartBot,
) -> None:
    harness = await start_bot(TEAM_CONFIG)
    event, _, ticket_id = await file_ticket(harness)
    store = harness.brain.services.tickets
    clock = SimClock(datetime.fromisoformat(store.get(ticket_id).updated_at))
    store.clock = clock
    store.update_fields(ticket_id, by="UHELPER1", fields={}, status="awaiting_info")
    services, client = harness.bot.services, harness.bot.client
    clock.now += timedelta(seconds=1800)
    assert [s.kind for s in await sweep.sweep(services, client)] == []
    clock.now += timedelta(seconds=1800)
    assert [s.kind for s in await sweep.sweep(services, client)] == ["nudged"]
    nudge = harness.fake.of("chat.postMessage")[-1].params
    assert nudge["thread_ts"] == event["ts"] and "<@UASKER01>" in nudge["text"]
    clock.now += timedelta(seconds=3600)
    assert [s.kind for s in await sweep.sweep(services, client)] == []
    clock.now += timedelta(seconds=3600)
    assert [s.kind for s in await sweep.sweep(services, client)] == ["closed"]
    assert store.get(ticket_id).status == "closed"
    assert "was closed" in harness.fake.of("chat.postMessage")[-1].params["text"]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_an_sla_breach_warns_the_team_then_escalates(start_bot: StartBot) -> None:
    harness = await start_bot(TEAM_CONFIG)
    _, _, ticket_id = await file_ticket(harness)
    store = harness.brain.services.tickets
    clock = SimClock(datetime.fromisoformat(store.get(ticket_id).created_at))
    store.clock = clock
    services, client = harness.bot.services, harness.bot.client
    clock.now += timedelta(seconds=601)
    assert [s.kind for s in await sweep.sweep(services, client)] == ["sla_warned"]
    warning = harness.fake.of("chat.postMessage")[-1].params
    assert warning["channel"] == TEAM_CHANNEL and "past its SLA" in warning["text"]
    clock.now += timedelta(seconds=600)
    assert [s.kind for s in await sweep.sweep(services, client)] == ["sla_escalated"]
    assert any(c.params["channel"] == ONCALL_CHANNEL for c in harness.fake.of("chat.postMessage"))
    assert [s.kind for s in await sweep.sweep(services, client)] == []
