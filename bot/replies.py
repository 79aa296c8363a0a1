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

from bot.blocks import escape, fallback_text, message_blocks
from bot.services import BotServices
from bot.state import MessageLink
from brain.reply import Reply
from core.logs import bind
from core.records import Message

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
        blocks=message_blocks(reply),
    )
    ts = str(posted["ts"])
    if reply.decision is not None:
        link = MessageLink(channel, ts, reply.decision.decision_id, asker, thread_ts, role)
        services.links.add(link)
        await asyncio.to_thread(services.links.flush)
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
) -> None:
    """One user message: ask the brain (via the conversation), reply in thread, escalate.

    `claims`: the ledger keys owed this answer, settled (compare-and-set) just before it is
    sent; when another replica took them over meanwhile (this one was thought dead), it
    answers and this one stays silent."""
    root = thread_ts or ts
    message = Message(text=text, user=user, channel=channel, thread=root)
    try:
        reply = await services.thread_trip(
            f"{channel}:{root}", services.conversation.handle, message, source="slack"
        )
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
    if not await services.events.settle(*claims):
        log.warning("another replica took this message over; it answers, not this one")
        return
    await post_reply(services, client, reply, channel=channel, thread_ts=root, asker=user)
    await services.events.confirm(*claims)
    if reply.fresh and reply.escalate and reply.decision is not None:
        await escalate(services, client, reply, channel=channel, thread_ts=root, asker=user)


async def escalate(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    channel: str,
    thread_ts: str,
    asker: str,
    lead: str = "This looks urgent",
) -> None:
    """Page on-call for an escalated decision and tell the asker what happened (`lead`: why,
    in the asker's words)."""
    decision = reply.decision
    assert decision is not None
    alert = await services.escalations.escalate(
        client,
        decision_id=decision.decision_id,
        asker=asker,
        text=decision.text,
        urgency=decision.urgency,
        summary=reply.summary,
        channel=channel,
        thread_ts=thread_ts,
    )
    if alert is None:
        note = (
            f"{lead}, but no on-call channel is configured, so nobody was paged. "
            "Please contact on-call directly (admins: set BRAIN_ONCALL_CHANNEL)."
        )
    else:
        note = f"{lead}: I escalated it to on-call in <#{alert.oncall_channel}>."
    await client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=note)
