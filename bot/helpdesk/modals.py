"""`/brain` opens a "New request" modal; its submission, and the message shortcut "Send to
the brain", become requests decided by the same chain as a typed message.

The modal's request is posted in the channel `/brain` was typed in (the bot's own message,
quoting the requester) and answered in that message's thread; a shortcut's request is
answered in the thread of the message it was used on. Text is data: it is escaped where shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import _select, escape, fallback_text
from bot.replies import answer_message
from bot.services import BotServices
from brain import Choice
from core.text.shortening import shorten

NEW_COMMAND = "/brain"
SHORTCUT = "brain_send_to_brain"
VIEW_NEW = "brain_new_request"
PRIORITIES = ("P1", "P2", "P3", "P4")


def _input(block_id: str, label: str, element: dict[str, Any], optional: bool = False) -> dict:
    return {
        "type": "input",
        "block_id": block_id,
        "optional": optional,
        "label": {"type": "plain_text", "text": label},
        "element": element,
    }


def new_request_view(
    channel: str, text: str = "", categories: Sequence[Choice] = ()
) -> dict[str, Any]:
    """The "New request" modal (`channel`: where the request is posted). `categories`: the
    home's controllers (`Conversation.controller_choices`), its own and the evolved ones
    included, not a list of the built-in pack's names."""
    description: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": "value",
        "multiline": True,
        "max_length": 3000,
    }
    if text:
        description["initial_value"] = shorten(text, 3000)
    return {
        "type": "modal",
        "callback_id": VIEW_NEW,
        "private_metadata": channel,
        "title": {"type": "plain_text", "text": "New request"},
        "submit": {"type": "plain_text", "text": "Send"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            *(
                [
                    _input(
                        "category",
                        "Category",
                        _select(None, "value", categories).to_dict(),
                        optional=True,
                    )
                ]
                if categories
                else []
            ),
            _input("description", "What do you need?", description),
            _input(
                "priority",
                "Priority",
                _select(None, "value", [Choice(value=p, label=p) for p in PRIORITIES]).to_dict(),
                optional=True,
            ),
            _input(
                "links",
                "Links to attachments",
                {"type": "plain_text_input", "action_id": "value"},
                optional=True,
            ),
        ],
    }


def submitted_text(values: dict[str, Any]) -> str:
    """The request's text from the modal's state: description, then the hints given."""

    def value(block: str) -> str:
        field = (values.get(block) or {}).get("value") or {}
        chosen = field.get("selected_option") or {}
        return str(chosen.get("value") or field.get("value") or "").strip()

    parts = [value("description")]
    if value("category"):
        parts.append(f"(category: {value('category')})")
    if value("priority"):
        parts.append(f"(priority: {value('priority')})")
    if value("links"):
        parts.append(f"links: {value('links')}")
    return " ".join(p for p in parts if p)


def register(app: AsyncApp, services: BotServices) -> None:
    """`/brain`, the modal's submission and the message shortcut."""

    @app.command(NEW_COMMAND)
    async def on_brain(ack: AsyncAck, command: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        view = new_request_view(
            str(command.get("channel_id") or ""),
            str(command.get("text") or ""),
            services.conversation.controller_choices(),
        )
        services.work.spawn(client.views_open(trigger_id=command["trigger_id"], view=view))

    @app.view(VIEW_NEW)
    async def on_submit(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        text = submitted_text(body["view"]["state"]["values"])
        if not text:
            await ack(response_action="errors", errors={"description": "Describe your request."})
            return
        await ack()
        user = str(body["user"]["id"])
        channel = str(body["view"].get("private_metadata") or "") or user
        team = services.workspace_of(body)
        services.work.spawn(_new_request(services, client, user, channel, text, team))

    @app.shortcut(SHORTCUT)
    async def on_shortcut(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        message = body.get("message") or {}
        text = str(message.get("text") or "").strip()
        if not text:
            return
        ts = str(message["ts"])
        work = answer_message(
            services,
            client,
            text=text,
            user=str(body["user"]["id"]),
            channel=str(body["channel"]["id"]),
            ts=ts,
            thread_ts=str(message.get("thread_ts") or ts),
            team=services.workspace_of(body),
        )
        services.work.spawn(work, name="shortcut")


async def _new_request(
    services: BotServices,
    client: AsyncWebClient,
    user: str,
    channel: str,
    text: str,
    team: str | None,
) -> None:
    """Post the request where it was asked, then decide and answer it in that thread (`team`:
    the asker's workspace, whose records it is)."""
    posted = await client.chat_postMessage(
        channel=channel, text=fallback_text(f"New request from <@{user}>: {escape(text)}")
    )
    root = str(posted["ts"])
    await answer_message(
        services,
        client,
        text=text,
        user=user,
        channel=str(posted.get("channel") or channel),
        ts=root,
        thread_ts=None,
        team=team,
    )
