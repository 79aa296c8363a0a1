"""No signed payload gives a 500: Hypothesis builds Slack-shaped payloads (events,
block actions, view submissions, shortcuts, options, slash commands) whose fields are right,
missing, of the wrong type, huge, or name decisions that do not exist, signs them, and posts
them to the running app over HTTP. Every answer is below 500 and the log holds no traceback,
including the background work a payload started (waited for before the log is read).

Deterministic: `derandomize=True` and a bounded number of examples per kind.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.blocks import (
    ACTION_ACK,
    ACTION_CLARIFY_PREFIX,
    ACTION_CONFIRM,
    ACTION_HANDOFF,
    ACTION_REROUTE,
    BLOCK_ALERT,
    BLOCK_CLARIFY,
    BLOCK_DECISION,
    BLOCK_REROUTE,
)
from bot.helpdesk.home import (
    ACTION_FORGET,
    ACTION_PAGE,
    ACTION_RIGHT,
    BLOCK_HOME_DECISION,
)
from bot.helpdesk.home import ACTION_REROUTE as HOME_REROUTE
from bot.helpdesk.modals import NEW_COMMAND, SHORTCUT, VIEW_NEW
from bot.listeners.commands import COMMAND, FORGET_COMMAND
from bot.ticket_view import (
    ACTION_CLAIM,
    ACTION_HAND,
    ACTION_RATE_DOWN,
    ACTION_RATE_UP,
    ACTION_REOPEN,
    ACTION_RESOLVE,
    BLOCK_RATE,
    BLOCK_TICKET,
    VIEW_REASON,
)
from tests.bot import slack_payloads as p
from tests.bot.conftest import Harness
from tests.fakes.slack_api import TEAM_ID

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"

_FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

#: A value of any JSON type, or one too big for any field Slack sends.
_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.just("x" * 60_000),
    st.just("滚仓" * 5_000),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=3),
)
_UNKNOWN_IDS = st.sampled_from(["d-0000000000000000", "", "../../etc/passwd", "null", "0"])
_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "my VPN keeps dropping, error 691",
            "process ticket 2025060300011279027",
            "<!channel> <@U123|bob> <https://evil.example/login|login>",
            "password: hunter2!",
            "x" * 25_000,
        ]
    ),
)
_IDS = st.one_of(st.sampled_from(["UASKER01", "UOTHER02", "DCHAT001", "CGENERAL1", ""]), _JUNK)
_TS = st.one_of(st.just("1600000001.000002"), st.builds(lambda: p.new_ts()), _JUNK)


def _maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field that is right, or of any type at all."""
    return st.one_of(value, _JUNK)


_EVENT = st.fixed_dictionaries(
    {
        "type": _maybe(
            st.sampled_from(
                ["message", "app_mention", "reaction_added", "app_home_opened", "team_join", "z"]
            )
        )
    },
    optional={
        "user": _IDS,
        "text": _maybe(_TEXT),
        "channel": _IDS,
        "channel_type": _maybe(st.sampled_from(["im", "channel", "group", "mpim"])),
        "ts": _TS,
        "thread_ts": _TS,
        "subtype": _maybe(st.sampled_from(["bot_message", "message_changed", "file_share"])),
        "bot_id": _JUNK,
        "tab": _maybe(st.just("home")),
        "reaction": _maybe(st.sampled_from(["+1", "-1", "white_check_mark", "x"])),
        "item": _maybe(
            st.fixed_dictionaries({}, optional={"type": _JUNK, "channel": _IDS, "ts": _TS})
        ),
        "message": _maybe(st.fixed_dictionaries({}, optional={"text": _JUNK, "ts": _TS})),
        "blocks": _JUNK,
        "files": _JUNK,
    },
)

_ACTION_IDS = st.sampled_from(
    [
        ACTION_CONFIRM,
        ACTION_REROUTE,
        ACTION_HANDOFF,
        f"{ACTION_CLARIFY_PREFIX}0",
        ACTION_ACK,
        ACTION_RIGHT,
        HOME_REROUTE,
        ACTION_FORGET,
        ACTION_PAGE,
        ACTION_RESOLVE,
        ACTION_REOPEN,
        ACTION_CLAIM,
        ACTION_HAND,
        ACTION_RATE_UP,
        ACTION_RATE_DOWN,
        "zzz_unknown",
    ]
)
_BLOCK_PREFIXES = [
    BLOCK_DECISION,
    BLOCK_CLARIFY,
    BLOCK_REROUTE,
    BLOCK_ALERT,
    BLOCK_HOME_DECISION,
    BLOCK_TICKET,
    BLOCK_RATE,
]
_BLOCK_ID = st.one_of(
    st.builds(lambda prefix, ident: prefix + ident, st.sampled_from(_BLOCK_PREFIXES), _UNKNOWN_IDS),
    _JUNK,
)
_VALUE = st.one_of(
    _UNKNOWN_IDS,
    st.sampled_from(["incident", "access", "nobody", "T-000001", "2", "-1"]),
    st.builds(json.dumps, st.dictionaries(st.text(max_size=4), _JUNK, max_size=2)),
    _JUNK,
)
_ACTION = st.fixed_dictionaries(
    {"action_id": _ACTION_IDS},
    optional={
        "block_id": _BLOCK_ID,
        "value": _VALUE,
        "type": _maybe(st.sampled_from(["button", "static_select", "overflow"])),
        "selected_option": _maybe(st.fixed_dictionaries({"value": _VALUE})),
        "action_ts": _JUNK,
    },
)
_USER = _maybe(st.fixed_dictionaries({"id": _IDS}, optional={"team_id": _JUNK}))
_CHANNEL = _maybe(st.fixed_dictionaries({"id": _IDS}))
_MESSAGE = _maybe(
    st.fixed_dictionaries(
        {"ts": _TS},
        optional={
            "thread_ts": _TS,
            "text": _JUNK,
            "user": _IDS,
            "blocks": _maybe(
                st.lists(
                    st.fixed_dictionaries(
                        {"type": _maybe(st.sampled_from(["actions", "section", "context"]))},
                        optional={"block_id": _BLOCK_ID, "elements": _JUNK, "text": _JUNK},
                    ),
                    max_size=3,
                )
            ),
        },
    )
)
_CONTAINER = _maybe(
    st.fixed_dictionaries(
        {"type": _maybe(st.sampled_from(["message", "view"]))},
        optional={"message_ts": _TS, "channel_id": _IDS, "thread_ts": _TS, "view_id": _JUNK},
    )
)
_BLOCK_ACTIONS = st.fixed_dictionaries(
    {"type": st.just("block_actions"), "actions": st.lists(_ACTION, min_size=1, max_size=2)},
    optional={
        "user": _USER,
        "channel": _CHANNEL,
        "message": _MESSAGE,
        "container": _CONTAINER,
        "team": _maybe(st.just({"id": TEAM_ID})),
        "response_url": _maybe(st.just("")),
        "trigger_id": _JUNK,
        "view": _maybe(st.fixed_dictionaries({}, optional={"id": _JUNK, "type": _JUNK})),
    },
)
_STATE = _maybe(
    st.fixed_dictionaries(
        {
            "values": _maybe(
                st.dictionaries(
                    st.sampled_from(["text", "reason", "controller", "x"]),
                    st.dictionaries(
                        st.sampled_from(["text", "reason", "controller", "x"]),
                        _maybe(
                            st.fixed_dictionaries(
                                {},
                                optional={
                                    "type": _JUNK,
                                    "value": _maybe(_TEXT),
                                    "selected_option": _maybe(
                                        st.fixed_dictionaries({"value": _VALUE})
                                    ),
                                },
                            )
                        ),
                        max_size=2,
                    ),
                    max_size=3,
                )
            )
        }
    )
)
_VIEW_SUBMISSION = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["view_submission", "view_closed"]),
        "view": st.fixed_dictionaries(
            {"callback_id": _maybe(st.sampled_from([VIEW_NEW, VIEW_REASON, "zzz"]))},
            optional={
                "type": _maybe(st.sampled_from(["modal", "home", "workflow_step"])),
                "private_metadata": _maybe(
                    st.one_of(_VALUE, st.builds(json.dumps, st.dictionaries(st.text(), _JUNK)))
                ),
                "state": _STATE,
                "id": _JUNK,
                "hash": _JUNK,
            },
        ),
    },
    optional={"user": _USER, "team": _maybe(st.just({"id": TEAM_ID})), "trigger_id": _JUNK},
)
_SHORTCUT = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["message_action", "shortcut", "workflow_step_edit"]),
        "callback_id": _maybe(st.sampled_from([SHORTCUT, "zzz"])),
    },
    optional={
        "user": _USER,
        "channel": _CHANNEL,
        "message": _MESSAGE,
        "trigger_id": _JUNK,
        "team": _maybe(st.just({"id": TEAM_ID})),
        "response_url": _maybe(st.just("")),
    },
)
_OPTIONS = st.fixed_dictionaries(
    {"type": st.just("block_suggestion"), "action_id": _maybe(_ACTION_IDS)},
    optional={"value": _JUNK, "user": _USER, "block_id": _BLOCK_ID},
)


def _interactive(payload: Any) -> str:
    return p.form({"payload": json.dumps(payload)})


async def _posts(harness: Harness, caplog: pytest.LogCaptureFixture, body: str, kind: str) -> None:
    """Post one signed body; no 5xx, and no traceback once its background work is done."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        status, text = await harness.post(body, content_type=kind)
        await harness.idle()
    assert status < 500, text
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info or r.exc_text]
    assert tracebacks == []
    assert not any("Traceback" in r.getMessage() for r in caplog.records)


@_FUZZ
@given(
    event=_maybe(_EVENT),
    top=st.fixed_dictionaries(
        {}, optional={"event_id": _JUNK, "authorizations": _JUNK, "team_id": _JUNK}
    ),
)
async def test_signed_events_never_give_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture, event: Any, top: dict[str, Any]
) -> None:
    body = {**p.envelope({}), "event": event, **top}
    await _posts(harness, caplog, json.dumps(body), JSON)


@_FUZZ
@given(payload=_BLOCK_ACTIONS)
async def test_signed_clicks_never_give_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture, payload: dict[str, Any]
) -> None:
    await _posts(harness, caplog, _interactive(payload), FORM)


@_FUZZ
@given(payload=st.one_of(_VIEW_SUBMISSION, _SHORTCUT, _OPTIONS))
async def test_signed_views_shortcuts_and_options_never_give_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture, payload: dict[str, Any]
) -> None:
    await _posts(harness, caplog, _interactive(payload), FORM)


_COMMAND = st.fixed_dictionaries(
    {"command": st.sampled_from([COMMAND, FORGET_COMMAND, NEW_COMMAND, "/zzz"])},
    optional={
        "text": st.one_of(_TEXT, _UNKNOWN_IDS, st.just("x" * 60_000)),
        "user_id": st.sampled_from(["UASKER01", "", "U" * 300]),
        "channel_id": st.sampled_from(["DCHAT001", "CGENERAL1", ""]),
        "team_id": st.sampled_from([TEAM_ID, ""]),
        "trigger_id": st.sampled_from(["trigger", ""]),
        "response_url": st.sampled_from(["", "not a url"]),
    },
)


@_FUZZ
@given(fields=_COMMAND)
async def test_signed_slash_commands_never_give_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture, fields: dict[str, str]
) -> None:
    await _posts(harness, caplog, p.form(fields), FORM)


@_FUZZ
@given(
    raw=st.one_of(
        st.text(max_size=60),
        st.builds(lambda payload: "payload=" + payload, st.text(max_size=60)),
        st.builds(lambda value: "payload=" + json.dumps(value), _JUNK),
        st.builds(lambda value: json.dumps({"type": value}), _JUNK),
    ),
    kind=st.sampled_from([JSON, FORM]),
)
async def test_signed_malformed_bodies_never_give_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture, raw: str, kind: str
) -> None:
    await _posts(harness, caplog, raw, kind)
