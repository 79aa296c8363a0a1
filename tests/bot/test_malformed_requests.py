"""Malformed request bodies at `/slack/events`: refused before parsing, never a traceback.

The signature is checked on the raw bytes first, so unsigned junk costs one hash and gets 401;
a signed body that is not a Slack payload gets 400. Neither leaves a traceback in the logs.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time

import pytest

from bot.helpdesk.modals import SHORTCUT, VIEW_NEW
from bot.ticket_view import VIEW_REASON
from core.limits import MAX_REQUEST_BYTES
from tests.bot import slack_payloads as p
from tests.bot.conftest import Harness
from tests.fakes.slack_api import TEAM_ID

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"

MALFORMED: list[tuple[bytes, str]] = [
    (b"{not json", JSON),
    (b"[]", JSON),
    (b"null", JSON),
    (b'"just a string"', JSON),
    (b"payload={broken", FORM),
    (b"payload=%5B1%2C2%5D", FORM),
    (b"payload=%FF%FE", FORM),
]
#: Slack signs UTF-8 text; bytes that are not UTF-8 cannot carry a valid signature.
NOT_UTF8 = b"\xff\xfe\x00garbage"


def _signature(body: bytes, timestamp: str) -> dict[str, str]:
    base = b"v0:" + timestamp.encode() + b":" + body
    digest = hmac.new(p.SIGNING_SECRET.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": f"v0={digest}"}


async def _post(harness: Harness, body: bytes, content_type: str, **headers: str) -> int:
    sent = {"Content-Type": content_type, **headers}
    async with harness.session.post(harness.url, data=body, headers=sent) as response:
        await response.read()
        return response.status


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.exc_info]


async def test_unsigned_malformed_bodies_get_401_without_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    odd = {"X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0=00"}
    statuses = {}
    with caplog.at_level(logging.DEBUG):
        for body, content_type in [*MALFORMED, (NOT_UTF8, JSON)]:
            statuses[body] = (
                await _post(harness, body, content_type),
                await _post(harness, body, content_type, **odd),
            )
    assert statuses == {body: (401, 401) for body in statuses}
    assert _tracebacks(caplog) == []
    assert [c.method for c in harness.fake.calls if c.method != "auth.test"] == []  # start


async def test_signed_malformed_bodies_get_400_without_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    statuses = {}
    with caplog.at_level(logging.DEBUG):
        for body, content_type in MALFORMED:
            signature = _signature(body, str(int(time.time())))
            statuses[body] = await _post(harness, body, content_type, **signature)
    assert statuses == {body: 400 for body in statuses}
    assert _tracebacks(caplog) == []
    await harness.idle()
    assert [c.method for c in harness.fake.calls if c.method != "auth.test"] == []  # start


async def test_a_body_that_is_not_utf8_is_refused_even_with_a_signature(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        status = await _post(harness, NOT_UTF8, JSON, **_signature(NOT_UTF8, str(int(time.time()))))
    assert status == 401
    assert _tracebacks(caplog) == []


async def test_oversized_body_is_refused_and_the_bot_keeps_answering(harness: Harness) -> None:
    huge = b'{"type": "event_callback", "pad": "' + b"x" * MAX_REQUEST_BYTES + b'"}'
    assert await _post(harness, huge, JSON, **_signature(huge, str(int(time.time())))) == 413
    status, _ = await harness.event(p.message("vpn is broken"))
    assert status == 200
    await harness.fake.wait_for("chat.postMessage")


USER = {"id": "UASKER01", "team_id": TEAM_ID}


def _submission(
    callback_id: str,
    *,
    view_type: object = "modal",
    private_metadata: object = "",
    value: object = "vpn is broken",
    selected_option: object = None,
) -> dict[str, object]:
    """A modal's submission as Slack sends it, with one part changed (`view_type=None`: the
    view's type left out)."""
    inputs: dict[str, object] = {
        "description": {"value": {"type": "plain_text_input", "value": value}},
        "reason": {"value": {"type": "plain_text_input", "value": value}},
        "category": {"value": {"type": "static_select", "selected_option": selected_option}},
    }
    view: dict[str, object] = {
        "id": "VMODAL01",
        "callback_id": callback_id,
        "private_metadata": private_metadata,
        "state": {"values": inputs},
    }
    if view_type is not None:
        view["type"] = view_type
    return {"type": "view_submission", "team": {"id": TEAM_ID}, "user": USER, "view": view}


def _shortcut(message: dict[str, object]) -> dict[str, object]:
    """The "Send to the brain" message shortcut on `message`."""
    return {
        "type": "message_action",
        "callback_id": SHORTCUT,
        "team": {"id": TEAM_ID},
        "user": USER,
        "channel": {"id": "CGENERAL1"},
        "trigger_id": "trigger",
        "message": message,
    }


#: Signed payloads the fuzz test (tests/fuzz/test_fuzz_slack_payloads.py) found giving a 500
#: or a traceback (and the shapes of every other payload type Bolt dispatches: view submissions
#: and closures, shortcuts, options, with missing or wrong-typed fields), with the status each
#: gets now: 400 for a shape Slack never sends, 200 for a well-shaped payload whose value is a
#: forgery (it is dropped) or that the bot does not act on (it is acknowledged).
FOUND: list[tuple[str, dict[str, object], int]] = [
    ("event", {**p.envelope(p.message("hi")), "authorizations": {"": ""}}, 400),
    ("event", p.envelope({"type": "app_home_opened", "tab": "home"}), 400),
    ("form", {"type": "block_suggestion", "action_id": False, "user": {"id": "U1"}}, 400),
    ("form", {"type": "view_submission", "view": {"callback_id": "brain_new_request"}}, 400),
    ("form", {"type": "block_actions", "actions": [{"action_id": "brain_oncall_ack"}]}, 400),
    ("form", {"type": "block_actions", "actions": [{"action_id": "brain_home_right"}]}, 400),
    (
        "form",
        {
            "type": "block_actions",
            "user": {"id": "UASKER01"},
            "actions": [{"action_id": "brain_home_page", "value": "x"}],
        },
        200,
    ),
    ("form", _submission(VIEW_NEW, view_type=None), 400),
    ("form", _submission(VIEW_REASON, view_type=None), 400),
    ("form", _submission("zzz_unknown", view_type=None), 400),
    ("form", _submission(VIEW_NEW, view_type=["modal"]), 400),
    ("form", _submission(VIEW_NEW, view_type="workflow_step"), 400),
    ("form", _submission(VIEW_NEW, private_metadata=5), 400),
    ("form", _submission(VIEW_NEW, value=["vpn is broken"]), 400),
    ("form", _submission(VIEW_NEW, selected_option="incident"), 400),
    ("form", _submission(VIEW_REASON, private_metadata="[1]"), 200),
    ("form", {"type": "view_closed", "user": USER, "view": {"callback_id": VIEW_NEW}}, 400),
    (
        "form",
        {"type": "view_closed", "user": USER, "view": {"type": "modal", "callback_id": VIEW_NEW}},
        200,
    ),
    ("form", {"type": "workflow_step_edit", "callback_id": "zzz", "user": USER}, 400),
    ("form", _shortcut({"text": "vpn is broken"}), 400),
    ("form", _shortcut({"text": "vpn is broken", "ts": 1.5}), 400),
    ("form", {"type": "shortcut", "callback_id": SHORTCUT, "user": USER}, 200),
    ("form", {"type": "block_suggestion", "action_id": "zzz", "user": USER, "value": 5}, 200),
    ("command", {"command": "/brain", "user_id": "UASKER01", "channel_id": "DCHAT001"}, 400),
    (
        "command",
        {
            "command": "/brain-why",
            "user_id": "UASKER01",
            "channel_id": "DCHAT001",
            "trigger_id": "t",
            "response_url": "not a url",
        },
        400,
    ),
]


@pytest.mark.asyncio(loop_scope="module")  # one bot for all of them: each reads its own status
@pytest.mark.parametrize(("how", "payload", "expected"), FOUND)
async def test_payloads_the_fuzz_found_get_no_500_and_no_traceback(
    module_harness: Harness,
    caplog: pytest.LogCaptureFixture,
    how: str,
    payload: dict[str, object],
    expected: int,
) -> None:
    if how == "event":
        body, content_type = json.dumps(payload), JSON
    elif how == "form":
        body, content_type = p.action_body(payload), FORM
    else:
        body, content_type = p.form({k: str(v) for k, v in payload.items()}), FORM
    with caplog.at_level(logging.DEBUG):
        status, _ = await module_harness.post(body, content_type=content_type)
        await module_harness.idle()
    assert status == expected
    assert _tracebacks(caplog) == []
