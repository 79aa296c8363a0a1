"""Saying why an answer was wrong: "Say why" under the reply to a thumbs-down opens a modal, and its
text is recorded with the rejection (`Brain.feedback(..., reason=...)`), redacted like every
text a person types, shown by `brain why` and the console.

Only the asker may say why (as only the asker's thumbs-down counts): a click on someone else's
prompt, or on a message that is not the prompt of that decision, opens nothing and is told so
privately. The modal opens straight from the click, since Slack's trigger id lives three
seconds; the submission is checked again (the decision must be the submitter's, in their
workspace) before anything is stored, and the thank-you is posted in the thread.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import ACTION_REASON, reason_modal, submitted_reason
from bot.clicks import FOREIGN_NOTE, Click
from bot.helpdesk.rights import decision_in
from bot.services import BotServices
from bot.wording import in_chinese, say
from core.text.language import is_chinese

log = logging.getLogger(__name__)

#: The modal's callback id.
VIEW_REASON = "brain_reason_view"
#: Link roles of the message a "Say why" may be on: the reply to a thumbs-down.
PROMPT_ROLES = frozenset({"reroute"})


def register(app: AsyncApp, services: BotServices) -> None:
    """The "Say why" button and the modal's submission."""

    @app.action(ACTION_REASON)
    async def on_say_why(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click.parse(body)
        trigger = body.get("trigger_id") if isinstance(body, dict) else None
        if click is None or not isinstance(trigger, str):
            log.info("dropped a 'Say why' payload that is not a click with a trigger")
            return
        link = services.links.get(click.channel, click.ts)
        if (
            link is None
            or link.role not in PROMPT_ROLES
            or link.decision_id != click.value
            or link.asker != click.user
        ):
            await client.chat_postEphemeral(
                channel=click.channel, user=click.user, thread_ts=click.thread_ts, text=FOREIGN_NOTE
            )
            return
        metadata = {
            "decision_id": link.decision_id,
            "channel": click.channel,
            "thread_ts": link.thread_ts,
        }
        view = reason_modal(VIEW_REASON, metadata, _in_chinese(click), optional=False)
        await client.views_open(trigger_id=trigger, view=view)

    @app.view(VIEW_REASON)
    async def on_reason(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        submitted = _submitted(body)
        if submitted is None:
            log.info("dropped a reason submission without its decision or text")
            return
        user, decision_id, channel, thread_ts, reason = submitted
        team = services.workspace_of(body)

        def record() -> bool | None:
            decision = decision_in(services, decision_id, team)
            if decision is None or decision.user != user:
                return None
            services.conversation.brain.feedback(
                decision_id, "reject", user=user, source="slack-reason", reason=reason
            )
            return in_chinese(decision)

        zh = await services.trip(record)
        if zh is None:
            log.info("refused a reason by %s on decision %s: not theirs", user, decision_id)
            return
        await client.chat_postMessage(
            channel=channel, thread_ts=thread_ts, text=say("why_noted", zh)
        )


def _in_chinese(click: Click) -> bool:
    """Is the prompt the asker clicked in Chinese? (Its words are in the asker's language; the
    decision itself is not read here, the trigger id would expire meanwhile.)"""
    texts = [
        str((block.get("text") or {}).get("text") or "")
        for block in click.blocks
        if block.get("type") == "section"
    ]
    return is_chinese(" ".join(texts))


def _submitted(body: Any) -> tuple[str, str, str, str, str] | None:
    """(user, decision id, channel, thread ts, reason) of a submission, or None when any is
    missing (a malformed payload is dropped, never a traceback)."""
    try:
        view = body["view"]
        meta = json.loads(view.get("private_metadata") or "{}")
        found = (
            str(body["user"]["id"]),
            str(meta["decision_id"]),
            str(meta["channel"]),
            str(meta["thread_ts"]),
            submitted_reason(view["state"]["values"]),
        )
    except (KeyError, TypeError, AttributeError, ValueError):
        return None
    return found if all(found) else None
