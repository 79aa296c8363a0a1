"""Realistic, signed Slack payloads (Events API, interactivity, slash commands)."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from tests.fakes.slack_api import BOT_USER_ID, TEAM_ID

SIGNING_SECRET = "test-signing-secret-0123456789"
_ids = itertools.count(1)


def sign(
    body: str, *, secret: str = SIGNING_SECRET, timestamp: int | None = None
) -> dict[str, str]:
    """Slack's v0 request signature headers for `body`."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    base = f"v0:{ts}:{body}".encode()
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={digest}"}


def new_ts() -> str:
    """A fresh, unique Slack message ts."""
    return f"{1_600_000_000 + next(_ids)}.{next(_ids):06d}"


@dataclass
class _Asker:
    user: str
    dm: str


#: Who sends a message when a test names no one, and in which DM.
_asker = _Asker(user="UASKER01", dm="DCHAT001")
_askers = itertools.count(1)


def asker() -> str:
    """The user of a message that names none (`message`'s default)."""
    return _asker.user


def dm() -> str:
    """The DM channel of a message that names none (`message`'s default)."""
    return _asker.dm


@contextmanager
def a_new_asker() -> Iterator[str]:
    """Inside, messages that name no user or channel come from a user and a DM of their own,
    never used before in this process: tests sharing one running bot (and its brain) cannot
    see each other's decisions, threads or tickets. Yields the user."""
    number = next(_askers)
    saved = _asker.user, _asker.dm
    _asker.user, _asker.dm = f"UASK{number:05d}", f"DASK{number:05d}"
    try:
        yield _asker.user
    finally:
        _asker.user, _asker.dm = saved


def message(
    text: str,
    *,
    user: str | None = None,
    channel: str | None = None,
    channel_type: str = "im",
    ts: str | None = None,
    thread_ts: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A `message` event (from `asker()` in `dm()` unless named)."""
    event: dict[str, Any] = {
        "type": "message",
        "user": _asker.user if user is None else user,
        "text": text,
        "channel": _asker.dm if channel is None else channel,
        "channel_type": channel_type,
        "ts": ts or new_ts(),
        "team": TEAM_ID,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    event.update(extra)
    return event


def mention(text: str, *, channel: str = "CGENERAL1", **kwargs: Any) -> dict[str, Any]:
    """An `app_mention` event (text starts with the bot's mention)."""
    event = message(f"<@{BOT_USER_ID}> {text}", channel=channel, channel_type="channel", **kwargs)
    event["type"] = "app_mention"
    event.pop("channel_type")
    return event


def envelope(event: dict[str, Any], event_id: str | None = None) -> dict[str, Any]:
    """An Events API `event_callback` body."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "api_app_id": "AAPP0001",
        "event": event,
        "type": "event_callback",
        "event_id": event_id or f"Ev{next(_ids):08d}",
        "event_time": int(time.time()),
        "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}],
    }


def block_action(
    *,
    user: str,
    channel: str,
    message: dict[str, Any],
    action_id: str,
    block_id: str,
    value: str | None = None,
    selected: str | None = None,
    response_url: str = "",
) -> dict[str, Any]:
    """An interactivity `block_actions` payload for a click on `message`."""
    action: dict[str, Any] = {
        "action_id": action_id,
        "block_id": block_id,
        "action_ts": str(time.time()),
    }
    if selected is not None:
        action.update(type="static_select", selected_option={"value": selected})
    else:
        action.update(type="button", value=value)
    return {
        "type": "block_actions",
        "team": {"id": TEAM_ID},
        "user": {"id": user, "team_id": TEAM_ID},
        "api_app_id": "AAPP0001",
        "trigger_id": "trigger",
        "container": {"type": "message", "message_ts": message["ts"], "channel_id": channel},
        "channel": {"id": channel},
        "message": message,
        "response_url": response_url,
        "actions": [action],
    }


def view_submission(user: str, view: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A `view_submission` payload: `user` submits the modal `view` (as the bot opened it)
    with the input `values` (block id -> action id -> element state)."""
    return {
        "type": "view_submission",
        "team": {"id": TEAM_ID},
        "user": {"id": user, "team_id": TEAM_ID},
        "api_app_id": "AAPP0001",
        "trigger_id": "trigger-2",
        "view": {**view, "id": "VMODAL01", "state": {"values": values}},
    }


def form(fields: dict[str, str]) -> str:
    """x-www-form-urlencoded body."""
    return urlencode(fields)


def action_body(payload: dict[str, Any]) -> str:
    """Interactivity payloads arrive as `payload=<json>` forms."""
    return form({"payload": json.dumps(payload)})


def command_body(command: str, text: str, *, user: str, channel: str, response_url: str) -> str:
    """A slash command form body."""
    return form(
        {
            "token": "legacy",
            "team_id": TEAM_ID,
            "channel_id": channel,
            "user_id": user,
            "command": command,
            "text": text,
            "response_url": response_url,
            "trigger_id": "trigger",
            "api_app_id": "AAPP0001",
        }
    )
