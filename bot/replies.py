"""Turning a Slack message into a brain turn and posting the reply in its thread.

Shared by the message, mention, action and reaction listeners. One Slack message is one trip
into the brain (`BotServices.trip`, a worker thread, never the event loop): the turn returns a
`Reply` complete with its labels, choices and rationale, so drawing it needs nothing else;
file writes are batched.
"""

from __future__ import annotations

import asyncio
import logging

from slack_sdk.web.async_client import AsyncWebClient

from bot import passed_notes, teams
from bot.blocks import escape, fallback_text, message_blocks
from bot.escalation import Alert, follow_up_alert_id
from bot.services import BotServices
from bot.state import MessageLink
from bot.tracing import DECISION_ID, EVENT_ID
from bot.wording import say
from brain import Reply
from core.errors import UnknownDecision
from core.logs import bind, current_fields
from core.records import Decision, Message

log = logging.getLogger(__name__)


async def post_reply(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    channel: str,
    thread_ts: str,
    asker: str,
    role: str = "reply",
) -> str:
    """Post `reply` in the thread and remember which decision the new message shows."""
    posted = await client.chat_postMessage(
        channel=channel,
        thread_ts=thread_ts,
        text=fallback_text(escape(reply.text)),
        blocks=teams.reply_blocks(services, reply, message_blocks(reply)),
    )
    ts = str(posted["ts"])
    if reply.decision is not None:
        link = MessageLink(channel, ts, reply.decision.decision_id, asker, thread_ts, role)
        services.links.add(link)
        await asyncio.to_thread(services.links.flush)
    await teams.notify_team(services, client, reply, channel=channel, thread_ts=thread_ts)
    return ts


async def answer_message(
    services: BotServices,
    client: AsyncWebClient,
    *,
    text: str,
    user: str,
    channel: str,
    ts: str,
    thread_ts: str | None,
    claims: tuple[str, ...] = (),
    team: str | None = None,
) -> None:
    """One user message: ask the brain (via the conversation), reply in thread, escalate;
    `team`: its Slack workspace (`BotServices.workspace_of`).

    `claims`: the ledger keys owed this answer, settled (compare-and-set) just before it is
    sent; when another replica took them over meanwhile (this one was thought dead), it
    answers and this one stays silent."""
    root = thread_ts or ts
    message = Message(text=text, user=user, channel=channel, thread=root, team=team)
    traced = {EVENT_ID: current_fields().get("event_id")}
    try:
        with services.tracing.span("brain.decide", traced) as span:
            reply = await services.thread_trip(f"{channel}:{root}", _handled, services, message)
            if span is not None and reply.decision is not None:
                span.set_attributes(decided(reply.decision))
    except Exception:
        log.exception("the brain failed on a message in %s", channel)
        if not await services.events.settle(*claims):
            return
        await client.chat_postMessage(
            channel=channel,
            thread_ts=root,
            text="Sorry, I could not process this message (an internal error was logged).",
        )
        await services.events.confirm(*claims)
        return
    if reply.decision is not None:
        bind(decision_id=reply.decision.decision_id)  # this task's later log lines carry it
        question = MessageLink(channel, ts, reply.decision.decision_id, user, root, "question")
        services.links.add(question)
    #: The decision on-call is paged for after the reply (None: no page).
    pages = reply.decision if reply.fresh and reply.escalate else None
    if pages is not None:  # stored before the answer: a taker finds what the alert is for
        await asyncio.to_thread(services.links.flush)
    if not await services.events.settle(*claims):
        log.warning("another replica took this message over; it answers, not this one")
        return
    await post_reply(services, client, reply, channel=channel, thread_ts=root, asker=user)
    try:
        if pages is not None:
            # Still owed until the alert is recorded: if this process dies first, the
            # replica taking the message over sends it (`owed_escalation`).
            await escalate(
                services,
                client,
                reply,
                channel=channel,
                thread_ts=root,
                asker=user,
                alert_id=follow_up_alert_id(pages.decision_id),
            )
        elif reply.fresh:
            await teams.notify_priority(
                services, client, reply, channel=channel, thread_ts=root, asker=user
            )
        await passed_notes.pass_on(
            services, client, reply, channel=channel, thread_ts=root, asker=user
        )
    finally:
        await services.events.confirm(*claims)


def _handled(services: BotServices, message: Message) -> Reply:
    """In the brain worker: the message's turn, its ticket queued for its team (one trip)."""
    reply = services.conversation.handle(message, source="slack")
    return teams.queue_in_trip(services, reply)


def decided(decision: Decision) -> dict[str, str | bool]:
    """A decision's span attributes (its identity and outcome, never its text)."""
    return {
        DECISION_ID: decision.decision_id,
        "brain.controller": decision.controller or "none",
        "brain.tier": decision.tier,
        "brain.outcome": decision.outcome,
        "brain.escalate": decision.escalate,
    }


async def owed_escalation(
    services: BotServices, client: AsyncWebClient, *, channel: str, ts: str
) -> bool:
    """Send the alert that was to follow the reply to the message (`channel`, `ts`) when its
    first owner died between the reply and the alert: the message's decision escalates and
    no alert was recorded for it. Whether an alert was sent now."""
    link = await asyncio.to_thread(services.links.get, channel, ts)
    if link is None or link.role != "question":
        return False
    alert_id = follow_up_alert_id(link.decision_id)

    def owed() -> Reply | None:
        try:
            decision = services.brain.get_decision(link.decision_id)
        except UnknownDecision:
            return None
        if not decision.escalate or services.escalations.get(alert_id) is not None:
            return None
        return services.conversation.render(decision)

    reply = await services.in_brain(owed)
    if reply is None:
        return False
    log.info("sending the escalation the first owner of this message did not send")
    await escalate(
        services,
        client,
        reply,
        channel=channel,
        thread_ts=link.thread_ts,
        asker=link.asker,
        alert_id=alert_id,
    )
    return True


async def escalate(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    channel: str,
    thread_ts: str,
    asker: str,
    lead: str = "urgent",
    alert_id: str | None = None,
) -> Alert | None:
    """Page on-call for an escalated decision and tell the asker what happened (`lead`: why,
    the key of a `bot.wording` phrase, said in the asker's language; `alert_id`: the id to
    record the alert under); the alert (None: no on-call channel is configured, or the owning
    team was told instead). The source channel's
    `[helpdesk.paging]` may name another on-call channel, or tell the owning team instead."""
    decision = reply.decision
    assert decision is not None
    paging = services.settings.helpdesk.paging_for(channel)
    if paging.p1 == "notify" and await teams.notify_priority(
        services,
        client,
        reply,
        channel=channel,
        thread_ts=thread_ts,
        asker=asker,
        instead_of_page=True,
    ):
        return None
    alert = await services.escalations.escalate(
        client,
        decision_id=decision.decision_id,
        asker=asker,
        text=decision.text,
        urgency=decision.urgency,
        summary=reply.summary,
        channel=channel,
        thread_ts=thread_ts,
        alert_id=alert_id,
        team=decision.team,
        oncall_channel=paging.oncall_channel,
        mention=paging.oncall_mention,
    )
    zh = decision.in_chinese
    why = say(lead, zh)
    if alert is None:
        note = say("not_paged", zh, lead=why)
    else:
        note = say("paged", zh, lead=why, channel=alert.oncall_channel)
    await client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=note)
    return alert
