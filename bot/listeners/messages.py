"""`message` events: DMs always, brain channels always, the asker's replies in bot threads, and
a person's replies in a resolution prompt's thread (their resolution, `bot.helpdesk.resolutions`).

Edits, deletions, joins and other subtypes, bot messages and the bot's own messages are
acknowledged (Bolt acks every event before this listener runs) and ignored.
"""

from __future__ import annotations

import html
import re
from typing import Any, Protocol

from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.helpdesk import resolutions
from bot.replies import answer_message
from bot.services import BotServices

#: Message subtypes that carry a new user message; every other subtype is ignored.
USER_SUBTYPES = frozenset({None, "file_share", "thread_broadcast", "me_message"})


def user_message(event: dict[str, Any], bot_user_id: str | None) -> bool:
    """True when the event is a fresh message written by a person (not a bot, not an edit)."""
    if event.get("subtype") not in USER_SUBTYPES:
        return False
    if event.get("bot_id") or event.get("bot_profile"):
        return False
    user = event.get("user")
    if not user or user == bot_user_id:
        return False
    return bool(str(event.get("text") or "").strip())


def message_key(event: dict[str, Any]) -> str:
    """Identifies one Slack message (a mention arrives both as app_mention and message)."""
    return f"message:{event.get('channel')}:{event.get('ts')}"


_MARKUP = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")


def _plain(match: re.Match[str]) -> str:
    target, label = match.group(1), match.group(2)
    if target.startswith(("@", "#")):
        return f"{target[0]}{label or target[1:]}"
    if target.startswith("!"):
        return "@" + (label or target[1:].split("^")[0])
    if label and label not in target:
        # A link whose label hides its target ("Click here" -> a phishing page): the
        # target is the evidence (for on-call, the security cues, the record). Target
        # first: "password (https://...)" would read as a typed password and be redacted.
        return f"{target} ({label})"
    return label or target


def plain_text(text: str, bot_user_id: str | None) -> str:
    """Slack markup to the plain text the brain reads: the bot's mention removed, mentions as
    words, links as their target (and their label when it does not show the target);
    `&lt;`-style escapes undone."""
    if bot_user_id:
        text = text.replace(f"<@{bot_user_id}>", " ")
    text = html.unescape(_MARKUP.sub(_plain, text))
    return " ".join(text.split()) if "\n" not in text else text.strip()


def event_key(body: dict[str, Any]) -> str:
    """The ledger key of one Events API delivery ("" when it has no event id)."""
    event_id = body.get("event_id")
    return f"event:{event_id}" if event_id else ""


class Answer(Protocol):
    """Answers one user's event in the background (`team`: its installing workspace,
    `BotServices.workspace_of` of the whole envelope)."""

    async def __call__(
        self,
        services: BotServices,
        client: AsyncWebClient,
        event: dict[str, Any],
        claim: str,
        bot_user_id: str | None,
        *,
        team: str | None = None,
    ) -> None: ...


def listen(app: AsyncApp, services: BotServices, event_type: str, answer: Answer) -> None:
    """Register a listener that hands a person's event of `event_type` to `answer`, in the
    background (the event is acknowledged at once)."""

    async def listener(
        event: dict[str, Any],
        body: dict[str, Any],
        context: AsyncBoltContext,
        client: AsyncWebClient,
    ) -> None:
        if not user_message(event, context.bot_user_id):
            return  # nothing was owed (the ledger's claim of it is settled already)
        team = services.workspace_of(body)  # the installer, not a Slack Connect sender
        work = answer(services, client, event, event_key(body), context.bot_user_id, team=team)
        services.work.spawn(work)

    app.event(event_type)(listener)


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the `message` listener."""
    listen(app, services, "message", handle)


async def handle(
    services: BotServices,
    client: AsyncWebClient,
    event: dict[str, Any],
    claim: str,
    bot_user_id: str | None,
    *,
    team: str | None = None,
    again: bool = False,
) -> None:
    """Answer one message event of workspace `team`, or settle its claim when it is not the
    bot's to answer. `again`: its first owner died before answering (`bot.recovery`)."""
    if not await _answered(services, client, event, claim, bot_user_id, team=team, again=again):
        await services.events.release(claim)


async def _answered(
    services: BotServices,
    client: AsyncWebClient,
    event: dict[str, Any],
    claim: str,
    bot_user_id: str | None,
    *,
    team: str | None,
    again: bool,
) -> bool:
    if not user_message(event, bot_user_id):
        return False
    text = str(event.get("text") or "")
    if bot_user_id and f"<@{bot_user_id}>" in text and event.get("channel_type") != "im":
        return False  # the app_mention listener takes it
    key = message_key(event)
    if services.events.seen(key) and not again:
        return False
    channel = str(event["channel"])
    thread_ts = event.get("thread_ts")
    user = str(event["user"])
    root = services.links.get(channel, str(thread_ts)) if thread_ts else None
    if root is not None and root.role == resolutions.ROLE:
        # A person's reply in a resolution prompt's thread (`bot.helpdesk.resolutions`).
        if not await services.events.take(key, again=again):
            return False
        await resolutions.resolve_in_thread(
            services,
            client,
            text=plain_text(text, bot_user_id),
            user=user,
            channel=channel,
            thread_ts=str(thread_ts),
            link=root,
            team=team,
        )
        await services.events.release(claim)
        return True
    wanted = event.get("channel_type") == "im" or channel in services.settings.slack.brain_channels
    if not wanted and thread_ts:
        # In other channels only the asker's own replies in a thread the bot answered continue.
        wanted = root is not None and root.asker == user
    if not wanted or not await services.events.take(key, owed=True, again=again):
        return False
    await answer_message(
        services,
        client,
        text=plain_text(text, bot_user_id),
        user=user,
        channel=channel,
        ts=str(event["ts"]),
        thread_ts=str(thread_ts) if thread_ts else None,
        claims=(claim, key),
        team=team,
    )
    return True
