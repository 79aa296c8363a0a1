"""Answers owed by a dead process: a heartbeat while alive, and a sweep that answers the
messages other replicas (or a crashed earlier run) acknowledged and never answered.

Every replica renews its heartbeat every third of `[slack] claim_lease_s`; a claim whose
owner's heartbeat lapsed and that was not answered is taken over by the first live replica
to sweep (`EventLedger.orphans`, `FOR UPDATE SKIP LOCKED`: one taker each) and answered from
the event body kept with the claim, through the same listener code as a fresh delivery. The
answer is settled with a compare-and-set just before it is sent (`EventLedger.settle`), so a
replica that was only slow, not dead, stays silent when its claim was taken over; a claim
whose owner died between that settle and Slack's answer (`confirm`) is answered again only
if the reply is not in the Slack thread (`conversations.replies`); when it is, the on-call
alert that was to follow it is sent if its decision escalates and no alert was recorded for
it (the owner confirms the claim only once that alert is recorded).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.listeners import mentions, messages
from bot.replies import owed_escalation
from bot.services import BotServices

log = logging.getLogger(__name__)


def bot_user_of(body: dict[str, Any]) -> str | None:
    """The bot's own user id, from the event's authorizations."""
    for grant in body.get("authorizations") or []:
        if grant.get("is_bot") and grant.get("user_id"):
            return str(grant["user_id"])
    return None


async def already_replied(
    client: AsyncWebClient, event: dict[str, Any], bot_user: str | None
) -> bool:
    """Whether the bot's reply to `event` is in its Slack thread (its dead owner was sending
    it when it died): a reply in the thread of a root message, or one after it in a thread.
    When Slack cannot tell (an error), False: answering twice beats never answering."""
    ts = str(event.get("ts") or "")
    root = str(event.get("thread_ts") or ts)
    try:
        found = await client.conversations_replies(channel=str(event["channel"]), ts=root)
    except Exception as exc:
        log.warning("could not read the thread of event to check for a reply: %s", exc)
        return False
    for message in found.get("messages") or []:
        mine = message.get("bot_id") or (bot_user and message.get("user") == bot_user)
        if mine and message.get("ts") != ts and (root == ts or float(message["ts"]) > float(ts)):
            return True
    return False


async def answer_again(
    services: BotServices, client: AsyncWebClient, body: dict[str, Any], maybe_sent: bool = False
) -> None:
    """Answer one taken-over event as its listener would have (unless the dead owner's
    reply, being sent when it died, did reach Slack)."""
    event = body.get("event") or {}
    claim = messages.event_key(body)
    bot_user = bot_user_of(body)
    if maybe_sent and await already_replied(client, event, bot_user):
        log.info("event %s: the dead owner's reply did reach Slack", body.get("event_id"))
        channel, ts = str(event.get("channel") or ""), str(event.get("ts") or "")
        await owed_escalation(services, client, channel=channel, ts=ts)  # and its alert?
        await services.events.release(claim, messages.message_key(event))
        return
    log.info("answering event %s: its first owner died before answering", body.get("event_id"))
    team = services.workspace_of(body)
    if event.get("type") == "app_mention":
        await mentions.handle(services, client, event, claim, bot_user, team=team, again=True)
    elif event.get("type") == "message":
        await messages.handle(services, client, event, claim, bot_user, team=team, again=True)
    else:
        await services.events.release(claim)


async def sweep(services: BotServices, client: AsyncWebClient) -> int:
    """Take over and start answering every orphaned claim now; how many."""
    taken = await asyncio.to_thread(services.events.orphans)
    for body, maybe_sent in taken:
        work = answer_again(services, client, body, maybe_sent)
        services.work.spawn(work, name="bot-answer-again")
    return len(taken)


async def run(services: BotServices, client: AsyncWebClient) -> None:
    """Heartbeat and sweep forever (cancelled at shutdown). The first heartbeat is written
    by the caller before events are taken (`SlackBot.start`)."""
    lease = services.settings.slack.claim_lease_s
    while True:
        try:
            await asyncio.to_thread(services.events.heartbeat, lease)
            await sweep(services, client)
        except Exception:  # a database blip must not end the loop: the next pass retries
            log.exception("heartbeat or sweep of orphaned claims failed")
        await asyncio.sleep(lease / 3)
