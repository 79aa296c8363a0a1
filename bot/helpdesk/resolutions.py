"""A person resolves what the brain could not place, in Slack.

A boundary or a clarification reply offers "Send to a person" (on-call is paged)
and "Send to team ..." (one button a configured team, `[helpdesk.teams]`). Either way a
resolution prompt is posted where the people are: in the on-call alert's thread, or in the
team's channel. There whoever may resolve it (`bot.helpdesk.rights.may_resolve`) picks a
controller from the prompt's select, or replies in its thread with "this is for `ticket`" or
what they did ("ask facilities in #facilities"). The resolution goes through the brain's one
resolution API (`brain.conversation.resolving`, which calls what `brain resolve` calls), and
the asker is told in their own thread, with "This solved it" (a confirmation).

The prompt (and the alert it is in) is linked to its decision with the role `ROLE`: that link
is what binds a click on the prompt, in another channel than the decision's, to the decision
(`bot.listeners.actions`), and what makes a reply in its thread a resolution
(`bot.listeners.messages`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import (
    escape,
    fallback_text,
    resolve_prompt_blocks,
    resolved_blocks,
    solved_blocks,
)
from bot.clicks import Click
from bot.helpdesk.rights import decision_in, may_resolve
from bot.services import BotServices
from bot.state import MessageLink
from bot.wording import in_chinese, say
from brain import Reply, resolving

log = logging.getLogger(__name__)

#: The link role of a resolution prompt and of the thread it is in.
ROLE = "resolve"
NOT_A_HELPER = (
    "Only on-call, the team it was sent to or an admin can resolve this; nothing changed."
)


async def post_prompt(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    asker: str,
    channel: str,
    thread_ts: str | None,
    team: str | None,
) -> str:
    """Post the resolution prompt (in `thread_ts`, e.g. the on-call alert's, or on its own)
    and link it, and its thread's root, to the decision; the prompt's ts."""
    decision = reply.decision
    assert decision is not None
    posted = await client.chat_postMessage(
        channel=channel,
        thread_ts=thread_ts,
        text=fallback_text(f"<@{asker}> needs a person: {escape(decision.text)}"),
        blocks=resolve_prompt_blocks(
            decision.decision_id,
            asker=asker,
            text=decision.text,
            team=team,
            choices=reply.reroute_choices,
        ),
    )
    ts = str(posted["ts"])
    root = thread_ts or ts
    for linked in {ts, root}:
        services.links.add(MessageLink(channel, linked, decision.decision_id, asker, root, ROLE))
    await asyncio.to_thread(services.links.flush)
    return ts


def send_to_team(conversation: Any, click: Click, decision_id: str) -> Reply:
    """In the brain worker: the decision as shown, for the team's prompt."""
    reply: Reply = conversation.render(conversation.brain.get_decision(decision_id))
    return reply


async def sent_to_team(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str, reply: Reply
) -> None:
    """Post the prompt in the chosen team's channel and tell the asker where it went."""
    team = click.value
    zh = in_chinese(reply.decision)
    config = services.settings.helpdesk.teams.get(team)
    if config is None or not config.channel:
        await client.chat_postEphemeral(
            channel=click.channel,
            user=click.user,
            thread_ts=click.thread_ts,
            text=say("no_team_channel", zh, team=escape(team)),
        )
        return
    note = say("sent_team_by", zh, team=escape(team), user=f"<@{click.user}>")
    await client.chat_update(
        channel=click.channel,
        ts=click.ts,
        text=fallback_text(note),
        blocks=resolved_blocks(click.blocks, note, click.block_id),
    )
    await post_prompt(
        services, client, reply, asker=click.user, channel=config.channel, thread_ts=None, team=team
    )
    await client.chat_postMessage(
        channel=click.channel,
        thread_ts=click.thread_ts,
        text=say("sent_team", zh, team=escape(team), channel=config.channel),
    )


async def helper(services: BotServices, client: AsyncWebClient, click: Click) -> bool:
    """The pre-check of a click on a prompt: the clicker may resolve here."""
    return await may_resolve(services, client, click.user, click.channel)


def resolve_by_pick(conversation: Any, click: Click, decision_id: str) -> Reply:
    """In the brain worker: the picked controller is the resolution."""
    return resolving.resolve(
        conversation, decision_id, f"this is for `{click.value}`", user=click.user
    )


async def resolved_by_pick(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str, reply: Reply
) -> None:
    await tell(
        services, client, reply, by=click.user, channel=click.channel, thread=click.thread_ts
    )
    if reply.kind != "error":
        await client.chat_update(
            channel=click.channel,
            ts=click.ts,
            text=fallback_text(f"resolved by {click.user}"),
            blocks=resolved_blocks(
                click.blocks, say("desk.resolved_by", False, user=f"<@{click.user}>")
            ),
        )


async def resolve_in_thread(
    services: BotServices,
    client: AsyncWebClient,
    *,
    text: str,
    user: str,
    channel: str,
    thread_ts: str,
    link: MessageLink,
    team: str | None = None,
) -> None:
    """A reply in a prompt's thread: the person's typed resolution (refused, privately, when
    they may not resolve it, or when the request is not of their workspace `team`: a channel
    shared with another workspace's installation delivers its messages as that workspace's)."""
    if not await may_resolve(services, client, user, channel):
        await client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread_ts, text=NOT_A_HELPER
        )
        return

    def resolve() -> Reply | None:
        if decision_in(services, link.decision_id, team) is None:
            return None  # another workspace's request, refused as a click on it is
        return resolving.resolve(services.conversation, link.decision_id, text, user=user)

    reply = await services.trip(resolve)
    if reply is None:
        await client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread_ts, text=NOT_A_HELPER
        )
        return
    await tell(services, client, reply, by=user, channel=channel, thread=thread_ts)


async def tell(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    by: str,
    channel: str,
    thread: str,
) -> None:
    """The resolution's two notes: to the person in the prompt's thread (or why it was not
    taken), and to the asker in their thread, with "This solved it"."""
    if reply.kind == "error" or reply.decision is None:
        await client.chat_postEphemeral(
            channel=channel, user=by, thread_ts=thread, text=escape(reply.text)
        )
        return
    decision = reply.decision
    lines = [
        say("desk.recorded", False, headline=escape(reply.headline)),
        *map(escape, reply.result_lines),
    ]
    await client.chat_postMessage(channel=channel, thread_ts=thread, text="\n".join(lines))
    told = say(
        "resolved_told", in_chinese(decision), by=f"<@{by}>", headline=escape(reply.headline)
    )
    posted = await client.chat_postMessage(
        channel=decision.channel,
        thread_ts=decision.thread,
        text=fallback_text(told),
        blocks=solved_blocks(decision.decision_id, told),
    )
    link = MessageLink(
        decision.channel,
        str(posted["ts"]),
        decision.decision_id,
        decision.user,
        decision.thread or str(posted["ts"]),
        "resolved",
    )
    services.links.add(link)
    await asyncio.to_thread(services.links.flush)


def solved(conversation: Any, click: Click, decision_id: str) -> Reply:
    """In the brain worker: the asker's "This solved it"."""
    return resolving.solved(conversation, decision_id, user=click.user, source="slack-solved")


async def marked_solved(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str, reply: Reply
) -> None:
    note = say("solved_by", in_chinese(reply.decision), user=f"<@{click.user}>")
    await client.chat_update(
        channel=click.channel,
        ts=click.ts,
        text=fallback_text(note),
        blocks=resolved_blocks(click.blocks, note),
    )
