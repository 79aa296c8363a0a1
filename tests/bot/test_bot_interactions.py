"""Clicks, reactions, clarification, /brain-why and on-call escalation over signed HTTP."""

from __future__ import annotations

import html
import time
from typing import Any, cast

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from tests.bot import slack_payloads as p
from tests.bot.conftest import (
    ENTITY_TEXT,
    ESCALATE_TEXT,
    FORCE_CLARIFY,
    ONCALL_CHANNEL,
    ONCALL_GROUP,
    ROUTED_TEXT,
    Harness,
    StartBot,
)
from tests.fakes.slack_api import Call

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


async def _ask(harness: Harness, text: str, **kwargs: Any) -> tuple[dict[str, Any], Call]:
    """Send a DM and return (the event, the bot's first reply in its thread)."""
    event = p.message(text, **kwargs)
    before = len(harness.fake.of("chat.postMessage"))
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    replies = [c for c in posts if c.params.get("thread_ts") == event["ts"]]
    return event, replies[0]


def _as_message(call: Call, ts: str | None = None) -> dict[str, Any]:
    """The message Slack would show for a recorded post (blocks, ts, thread)."""
    found = ts or call.params.get("ts")
    return {
        "type": "message",
        "ts": found,
        "thread_ts": call.params.get("thread_ts"),
        "text": call.params.get("text"),
        "blocks": call.params["blocks"],
    }


def _posted_ts(harness: Harness, call: Call) -> str:
    index = harness.fake.of("chat.postMessage").index(call)
    return harness.fake.posted_ts[index]


def _block(call: Call, prefix: str) -> dict[str, Any]:
    return next(b for b in call.params["blocks"] if b.get("block_id", "").startswith(prefix))


async def test_right_click_records_feedback_and_removes_the_buttons(harness: Harness) -> None:
    event, reply = await _ask(harness, ROUTED_TEXT)
    actions = _block(reply, "brain_decision:")
    decision_id = actions["block_id"].split(":", 1)[1]
    assert harness.brain.get_decision(decision_id).outcome == "routed"  # precondition
    message = _as_message(reply, _posted_ts(harness, reply))
    click = p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=message,
        action_id="brain_confirm",
        block_id=actions["block_id"],
        value=decision_id,
    )
    assert (await harness.click(click))[0] == 200
    assert (await harness.click(click))[0] == 200  # double click
    updates = await harness.fake.wait_for("chat.update")
    await harness.idle()
    assert len(harness.fake.of("chat.update")) == 1
    update = updates[0].params
    assert update["ts"] == message["ts"]
    # The decision's buttons are gone; the filed ticket's (Resolve, Claim...) stay.
    kept = [b["block_id"] for b in update["blocks"] if b["type"] == "actions"]
    assert all(block.startswith("brain_ticket:") for block in kept)
    assert f"confirmed by <@{p.asker()}>" in update["blocks"][-1]["elements"][0]["text"]
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [f.kind for f in feedback] == ["confirm"]
    assert feedback[0].user == p.asker()


def _reroute_click(
    harness: Harness, event: dict[str, Any], reply: dict[str, Any], to: str
) -> dict[str, Any]:
    """The asker's "Route elsewhere" choice of `to` on the bot's reply."""
    actions = _block(reply, "brain_decision:")
    return p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=_as_message(reply, _posted_ts(harness, reply)),
        action_id="brain_reroute",
        block_id=actions["block_id"],
        selected=to,
    )


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: a correction (below)
async def test_route_elsewhere_reroutes_and_posts_the_result(start_bot: StartBot) -> None:
    harness = await start_bot()
    event, reply = await _ask(harness, ROUTED_TEXT)
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]
    assert (await harness.click(_reroute_click(harness, event, reply, "access")))[0] == 200
    update = (await harness.fake.wait_for("chat.update"))[0].params
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    label = harness.bot.services.conversation.label("access")
    assert f"rerouted to {label} by <@{p.asker()}>" in update["blocks"][-1]["elements"][0]["text"]
    assert posts[1].params["thread_ts"] == event["ts"]
    assert "Rerouted to" in posts[1].params["blocks"][0]["text"]["text"]
    decision = harness.brain.get_decision(decision_id)
    assert decision.result is not None and decision.result.controller == "access"
    assert [(f.kind, f.controller, f.user, f.source) for f in decision.feedback] == [
        ("correct", "access", p.asker(), "slack-reroute")
    ]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: a correction (below)
async def test_route_elsewhere_after_a_ticket_was_filed_leaves_one_open_ticket(
    start_bot: StartBot,
) -> None:
    """The misfiled record is closed as moved when the message goes to another queue (before:
    the incident stayed open beside the access request, two tickets for one message)."""
    harness = await start_bot()
    event, reply = await _ask(harness, ROUTED_TEXT)
    store = harness.brain.services.tickets
    assert store is not None
    [filed] = [t for t in store.all() if t.requester == p.asker()]
    assert (await harness.click(_reroute_click(harness, event, reply, "access")))[0] == 200
    await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    mine = [t for t in store.all() if t.requester == p.asker()]
    assert [t.kind for t in mine if t.is_open] == ["access"], [(t.id, t.status) for t in mine]
    moved = store.find(filed.id)
    assert moved.status == "closed" and "moved" in moved.history[-1]["reason"]
    assert moved.history[-1]["by"] == p.asker()


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: a correction (below)
async def test_route_elsewhere_on_a_follow_up_moves_the_threads_record(start_bot: StartBot) -> None:
    """The follow-up's own "Route elsewhere" moves the record the thread is about (before:
    "still broken" alone was filed as an access request and the incident stayed open)."""
    harness = await start_bot()
    event, _ = await _ask(harness, "my laptop keeps losing the VPN, error 809")
    before = len(harness.fake.of("chat.postMessage"))
    await harness.event(p.message("still broken", thread_ts=event["ts"]))
    posts = await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    reply = [c for c in posts if c.params.get("thread_ts") == event["ts"]][-1]
    assert (await harness.click(_reroute_click(harness, event, reply, "access")))[0] == 200
    await harness.fake.wait_for("chat.postMessage", before + 2)
    await harness.idle()
    store = harness.brain.services.tickets
    assert store is not None
    mine = sorted(
        (t.kind, t.is_open, t.fields.get("description"))
        for t in store.all()
        if t.requester == p.asker()
    )
    text = "my laptop keeps losing the VPN, error 809"
    assert mine == [("access", True, text), ("incident", False, text)]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_clarification_buttons_route_and_keep_entities(start_bot: StartBot) -> None:
    harness = await start_bot(FORCE_CLARIFY)
    event, reply = await _ask(harness, ENTITY_TEXT)
    block = _block(reply, "brain_clarify:")
    decision_id = block["block_id"].split(":", 1)[1]
    buttons = block["elements"]
    assert buttons[-1]["text"]["text"] == "None of these"
    first = buttons[0]
    message = _as_message(reply, _posted_ts(harness, reply))
    click = p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=message,
        action_id=first["action_id"],
        block_id=block["block_id"],
        value=first["value"],
    )
    await harness.click(click)
    update = (await harness.fake.wait_for("chat.update"))[0].params
    await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert "routed to" in update["blocks"][-1]["elements"][0]["text"]
    decision = harness.brain.get_decision(decision_id)
    assert decision.outcome == "clarify"
    assert decision.result is not None and decision.result.controller == first["value"]
    assert decision.entities["asset_tag"] == ["LT-0042"]
    assert decision.entities["error_code"] == ["691"]
    assert [(f.kind, f.controller) for f in decision.feedback] == [("correct", first["value"])]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_none_of_these_records_a_rejection_honestly(start_bot: StartBot) -> None:
    harness = await start_bot(FORCE_CLARIFY)
    event, reply = await _ask(harness, ROUTED_TEXT)
    block = _block(reply, "brain_clarify:")
    decision_id = block["block_id"].split(":", 1)[1]
    none = block["elements"][-1]
    message = _as_message(reply, _posted_ts(harness, reply))
    click = p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=message,
        action_id=none["action_id"],
        block_id=block["block_id"],
        value=none["value"],
    )
    await harness.click(click)
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert "did not route" in posts[1].params["text"]
    decision = harness.brain.get_decision(decision_id)
    assert [f.kind for f in decision.feedback] == ["reject"]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_thread_answer_by_number_resolves_the_clarification(start_bot: StartBot) -> None:
    harness = await start_bot(FORCE_CLARIFY)
    event, reply = await _ask(harness, ROUTED_TEXT)
    decision_id = _block(reply, "brain_clarify:")["block_id"].split(":", 1)[1]
    await harness.event(p.message("1", thread_ts=event["ts"]))
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    decision = harness.brain.get_decision(decision_id)
    assert decision.result is not None
    assert decision.result.controller == decision.candidates[0]
    assert posts[1].params["thread_ts"] == event["ts"]
    assert posts[1].params["text"].startswith("Rerouted to")


async def test_reactions_of_the_asker_count_and_others_are_ignored(harness: Harness) -> None:
    event, reply = await _ask(harness, ROUTED_TEXT)
    ts = _posted_ts(harness, reply)
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]
    item = {"type": "message", "channel": event["channel"], "ts": ts}
    other = {"type": "reaction_added", "user": "UOTHER01", "reaction": "-1", "item": item}
    mine = {
        "type": "reaction_added",
        "user": p.asker(),
        "reaction": "+1::skin-tone-2",
        "item": item,
    }
    assert (await harness.event(other))[0] == 200
    assert (await harness.event(mine))[0] == 200
    await harness.idle()
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [(f.kind, f.user) for f in feedback] == [("confirm", p.asker())]
    assert len(harness.fake.of("chat.postMessage")) == 1


async def test_thumbs_down_rejects_and_offers_route_elsewhere(harness: Harness) -> None:
    event, reply = await _ask(harness, ROUTED_TEXT)
    ts = _posted_ts(harness, reply)
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]
    item = {"type": "message", "channel": event["channel"], "ts": ts}
    await harness.event(
        {"type": "reaction_added", "user": p.asker(), "reaction": "-1", "item": item}
    )
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    prompt = posts[1].params
    assert prompt["thread_ts"] == event["ts"]
    select = _block(posts[1], "brain_reroute:")["elements"][0]
    assert select["type"] == "static_select" and select["action_id"] == "brain_reroute"
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [f.kind for f in feedback] == ["reject"]


async def test_brain_why_explains_last_decision_link_and_id(harness: Harness) -> None:
    _, reply = await _ask(harness, ROUTED_TEXT, channel="DCHAT002")
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]
    status, _ = await harness.command("/brain-why", "", user=p.asker(), channel="DCHAT002")
    assert status == 200
    link = (
        f"https://fake.slack.com/archives/DCHAT002/p{_posted_ts(harness, reply).replace('.', '')}"
    )
    await harness.command("/brain-why", f"<{link}>", user=p.asker(), channel="DCHAT002")
    await harness.command("/brain-why", decision_id, user=p.asker(), channel="DCHAT002")
    await harness.command("/brain-why", "nonexistent-id", user=p.asker(), channel="DCHAT002")
    answers = await harness.fake.wait_for("response_url", 4)
    await harness.idle()
    for answer in answers[:3]:
        assert answer.params["response_type"] == "ephemeral"
        text = "\n".join(b["text"]["text"] for b in answer.params["blocks"])
        assert decision_id in text
        for signal in ("keyword", "semantic", "knowledge", "session", "memory", "total"):
            assert signal in text
    assert "nonexistent-id" in answers[3].params["text"]
    assert answers[3].params.get("blocks") in (None, [])


def _oncall_posts(harness: Harness) -> list[Call]:
    return [c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == ONCALL_CHANNEL]


def _ack_click(harness: Harness, alert: Call, *, user: str = "UONCALL01") -> dict[str, Any]:
    ack_block = _block(alert, "brain_alert:")
    return p.block_action(
        user=user,
        channel=ONCALL_CHANNEL,
        message=_as_message(alert, _posted_ts(harness, alert)),
        action_id="brain_oncall_ack",
        block_id=ack_block["block_id"],
        value=ack_block["elements"][0]["value"],
    )


async def _escalated(harness: Harness) -> tuple[dict[str, Any], Call]:
    """Send the escalating message; (its event, the first on-call alert)."""
    event = p.message(ESCALATE_TEXT)
    await harness.event(event)
    alerts = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    return event, alerts[0]


#: Far enough ahead that every pending alert is due (the default delay is 900 s).
LATER = 10_000.0


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: counts every pending alert
async def test_escalation_alerts_oncall_resends_and_records_acknowledgement(
    start_bot: StartBot,
) -> None:
    harness = await start_bot()
    escalations = harness.bot.services.escalations
    event, first = await _escalated(harness)
    alert = first.params
    assert f"<!subteam^{ONCALL_GROUP}>" in alert["blocks"][0]["text"]["text"]
    assert "<@UASKER01>" in alert["blocks"][0]["text"]["text"]
    assert "critical" in alert["blocks"][0]["text"]["text"]
    permalink = harness.fake.of("chat.getPermalink")[0].params
    assert permalink["message_ts"] == event["ts"]
    assert f"archives/{event['channel']}/p" in alert["blocks"][2]["elements"][0]["text"]
    ack_block = _block(first, "brain_alert:")
    assert ack_block["elements"][0]["text"]["text"] == "Acknowledge"
    told = [
        c
        for c in harness.fake.of("chat.postMessage")
        if c.params.get("thread_ts") == event["ts"] and "escalated" in c.params["text"]
    ]
    assert told
    # not due yet: nothing is re-sent; due: one re-send (explicit ticks, no sleeping)
    assert await escalations.resend_due(harness.bot.client, now=time.time()) == 0
    assert await escalations.resend_due(harness.bot.client, now=time.time() + LATER) == 1
    assert "re-sent" in _oncall_posts(harness)[1].params["blocks"][0]["text"]["text"]
    await harness.click(_ack_click(harness, first))
    update = (await harness.fake.wait_for("chat.update"))[0].params
    await harness.idle()
    assert "acknowledged by <@UONCALL01>" in update["blocks"][-1]["elements"][0]["text"]
    assert escalations.pending() == []
    sent = len(_oncall_posts(harness))
    assert await escalations.resend_due(harness.bot.client, now=time.time() + 3 * LATER) == 0
    assert len(_oncall_posts(harness)) == sent


class _AckWhileSending:
    """A Web API client whose next on-call post lets an Acknowledge click land first, as when
    the on-call engineer clicks while a re-send is on the wire."""

    def __init__(self, client: AsyncWebClient, harness: Harness, alert: Call) -> None:
        self._client = client
        self._harness = harness
        self._alert = alert

    async def chat_postMessage(self, **kwargs: Any) -> Any:
        if kwargs.get("channel") == ONCALL_CHANNEL:
            await self._harness.click(_ack_click(self._harness, self._alert))
            await self._harness.fake.wait_for("chat.update")
        return await self._client.chat_postMessage(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_an_acknowledgement_during_a_resend_is_kept_and_the_alert_stays_quiet(
    start_bot: StartBot,
) -> None:
    first_bot = await start_bot()
    escalations = first_bot.bot.services.escalations
    _, alert = await _escalated(first_bot)
    racing = cast(AsyncWebClient, _AckWhileSending(first_bot.bot.client, first_bot, alert))
    assert await escalations.resend_due(racing, now=time.time() + LATER) == 1
    await first_bot.idle()
    stored = escalations.pending()
    assert stored == [], "the re-send wrote back the row it read before the Acknowledge"
    # the copy that was on the wire is marked acknowledged too: no live button is left
    updated = {c.params["ts"] for c in first_bot.fake.of("chat.update")}
    assert _posted_ts(first_bot, _oncall_posts(first_bot)[-1]) in updated
    sent = len(_oncall_posts(first_bot))
    assert await escalations.resend_due(first_bot.bot.client, now=time.time() + 3 * LATER) == 0
    await first_bot.close()
    second = await start_bot()
    assert second.bot.services.escalations.pending() == []
    assert (
        await second.bot.services.escalations.resend_due(
            second.bot.client, now=time.time() + 5 * LATER
        )
        == 0
    )
    assert len(_oncall_posts(second)) == sent


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_pending_alert_survives_a_restart_and_is_resent(
    start_bot: StartBot, monkeypatch: Any
) -> None:
    first = await start_bot()
    await first.event(p.message(ESCALATE_TEXT))
    await first.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await first.idle()
    await first.close()
    monkeypatch.setenv("BRAIN_REESCALATE_AFTER", "0.2")
    second = await start_bot()
    await second.bot.start()
    alerts = await second.fake.wait_for(
        "chat.postMessage", 2, where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    assert "re-sent" in alerts[1].params["blocks"][0]["text"]["text"]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_escalation_without_oncall_channel_tells_the_asker(
    start_bot: StartBot, monkeypatch: Any
) -> None:
    monkeypatch.delenv("BRAIN_ONCALL_CHANNEL")
    harness = await start_bot()
    event = p.message(ESCALATE_TEXT)
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert "no on-call channel is configured" in posts[1].params["text"]
    assert posts[1].params["thread_ts"] == event["ts"]


async def test_retried_reaction_event_is_taken_once(harness: Harness) -> None:
    event, reply = await _ask(harness, ROUTED_TEXT)
    item = {"type": "message", "channel": event["channel"], "ts": _posted_ts(harness, reply)}
    thumbs_down = {"type": "reaction_added", "user": p.asker(), "reaction": "-1", "item": item}
    await harness.event(thumbs_down, event_id="EvREACT01")
    await harness.event(thumbs_down, event_id="EvREACT01", retry_num=1)
    await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert len(harness.fake.of("chat.postMessage")) == 2


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings or a restart
async def test_slack_feedback_survives_restart_and_shows_in_brain_why(
    start_bot: StartBot,
) -> None:
    first = await start_bot()
    event, reply = await _ask(first, ROUTED_TEXT, channel="DCHAT003")
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]
    await first.click(_reroute_click(first, event, reply, "access"))
    await first.fake.wait_for("chat.update")
    await first.idle()
    await first.close()
    second = await start_bot()
    assert second.brain.get_decision(decision_id).result.controller == "access"  # type: ignore[union-attr]
    await second.command("/brain-why", decision_id, user=p.asker(), channel="DCHAT003")
    answer = (await second.fake.wait_for("response_url"))[0].params
    text = html.unescape("\n".join(b["text"]["text"] for b in answer["blocks"]))
    assert "correct -> access by UASKER01 via slack-reroute" in text


async def test_an_honest_boundary_offers_a_person_and_the_click_pages_oncall(
    harness: Harness,
) -> None:
    event, reply = await _ask(harness, "book a table for four tonight")
    assert "outside what I can handle" in reply.params["text"]
    assert "Next steps" in reply.params["text"]
    actions = _block(reply, "brain_decision:")
    button = next(e for e in actions["elements"] if e.get("action_id") == "brain_handoff")
    decision_id = button["value"]
    decision = harness.brain.get_decision(decision_id)
    assert decision.controller is None and not decision.escalate  # nobody paged yet

    click = p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=_as_message(reply, _posted_ts(harness, reply)),
        action_id="brain_handoff",
        block_id=actions["block_id"],
        value=decision_id,
    )
    assert (await harness.click(click))[0] == 200
    alerts = await harness.fake.wait_for(
        "chat.postMessage", 1, where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    assert "book a table for four tonight" in str(alerts[0].params["blocks"])
    told = [
        c.params["text"]
        for c in harness.fake.of("chat.postMessage")
        if c.params.get("thread_ts") == event["ts"]
    ]
    assert any("You asked for a person: I escalated it" in text for text in told)
