"""A click on one of the bot's messages, as every click listener reads it (the reply buttons in
`bot.listeners.actions`, the ticket buttons in `bot.helpdesk.ticket_actions`)."""

from __future__ import annotations

from typing import Any

from bot.wording import say

#: What a click that is not bound to its message is told.
FOREIGN_NOTE = say("foreign_click", False)


class Click:
    """The parts of a block_actions payload the listeners need."""

    def __init__(self, body: dict[str, Any]) -> None:
        action = body["actions"][0]
        message = body.get("message") or {}
        self.user = str(body["user"]["id"])
        self.channel = str((body.get("channel") or {}).get("id") or body["container"]["channel_id"])
        self.ts = str(message.get("ts") or body["container"]["message_ts"])
        self.thread_ts = str(message.get("thread_ts") or self.ts)
        self.blocks: list[dict[str, Any]] = list(message.get("blocks") or [])
        self.block_id = str(action.get("block_id") or "")
        selected = action.get("selected_option") or {}
        self.value = str(selected.get("value") or action.get("value") or "")
        #: The whole payload, whose installing workspace `BotServices.workspace_of` reads.
        self.body: dict[str, Any] = body

    @classmethod
    def parse(cls, body: Any) -> Click | None:
        """The click in a block_actions payload, or None when it is not one (no actions, an
        action or user that is not an object, no channel or message): signed but malformed
        payloads are dropped, never a traceback."""
        try:
            return cls(body)
        except (KeyError, IndexError, TypeError, AttributeError):
            return None

    def decision_id(self, *prefixes: str) -> str | None:
        """The decision id carried by the clicked block's id."""
        for prefix in prefixes:
            if self.block_id.startswith(prefix):
                return self.block_id[len(prefix) :]
        return None
