"""Two workspaces installed through OAuth: a user of one never sees, changes or is told about
the other's records (App Home, /brain-why, clicks on the other's buttons, lessons), and the
requests of every entry point (messages, the "New request" modal, the message shortcut) are
their own workspace's records.

The same user id is used in both workspaces on purpose: scoping by user alone would show
workspace one's records to workspace two's person, so only the team scoping keeps them apart.
"""

from __future__ import annotations

import json
from typing import Any

from bot import ticket_view as view
from bot.blocks import ACTION_CONFIRM, BLOCK_DECISION
from bot.helpdesk.modals import NEW_COMMAND, SHORTCUT
from bot.listeners.commands import COMMAND
from tests.bot import slack_payloads as p
from tests.bot.conftest import (
    ESCALATE_TEXT,
    ONCALL_CHANNEL,
    ONCALL_USER,
    ROUTED_TEXT,
    Harness,
    StartBot,
)
from tests.bot.test_app_home import home_click, texts
from tests.bot.test_bot_interactions import _posted_ts
from tests.bot.test_modals import submission
from tests.bot.test_workspaces import event_of, install, oauth_env

__all__ = ["oauth_env"]  # the fixture, used by name

ONE, TWO = "T0000001", "T0000002"
USER = "USAME001"
DM_ONE, DM_TWO = "DONE0001", "DTWO0001"


async def say(harness: Harness, team: str, channel: str, text: str) -> dict[str, Any]:
    """A DM from USER in `team`; the bot's reply in its thread (as a message dict)."""
    event = p.message(text, user=USER, channel=channel)
    before = len(harness.fake.of("chat.postMessage"))
    await harness.post(event_of(team, event), content_type="application/json")
    await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    index, call = next(
        (i, c)
        for i, c in enumerate(harness.fake.of("chat.postMessage"))
        if c.params.get("thread_ts") == event["ts"]
    )
    return {"type": "message", "ts": harness.fake.posted_ts[index],
            "thread_ts": event["ts"], "blocks": call.params.get("blocks") or []}  # fmt: skip


async def home_of(harness: Harness, team: str) -> str:
    before = len(harness.fake.of("views.publish"))
    opened = {"type": "app_home_opened", "user": USER, "tab": "home", "event_ts": p.new_ts()}
    await harness.post(event_of(team, opened), content_type="application/json")
    calls = await harness.fake.wait_for("views.publish", before + 1)
    await harness.idle()
    published = calls[-1].params["view"]
    return texts(published if isinstance(published, dict) else json.loads(published))


def click_from(
    team: str, channel: str, message: dict[str, Any], user: str = USER, **action: str
) -> dict[str, Any]:
    payload = p.block_action(
        user=user,
        channel=channel,
        message=message,
        action_id=action["action_id"],
        block_id=action["block_id"],
        value=action.get("value"),
    )
    payload["team"] = {"id": team}
    payload["user"]["team_id"] = team
    return payload


async def command_from(harness: Harness, team: str, command: str, text: str, channel: str) -> None:
    """USER's slash command `command` in `team`."""
    body = p.command_body(command, text, user=USER, channel=channel,
                          response_url=harness.fake.response_url("why"))  # fmt: skip
    assert f"team_id={ONE}" in body
    status, _ = await harness.post(
        body.replace(f"team_id={ONE}", f"team_id={team}"),
        content_type="application/x-www-form-urlencoded",
    )
    assert status == 200


async def why_from(harness: Harness, team: str, argument: str) -> str:
    await command_from(harness, team, COMMAND, argument, DM_TWO)
    await harness.fake.wait_for("response_url")
    await harness.idle()
    return json.dumps([c.params for c in harness.fake.of("response_url")])


async def test_a_workspace_never_sees_changes_or_learns_from_the_other(
    oauth_env: None, start_bot: StartBot
) -> None:
    harness = await start_bot()
    await install(harness, ONE, "xoxb-one")
    await install(harness, TWO, "xoxb-two")
    brain = harness.brain

    # Workspace one: a routed request that files a ticket, then a correction (a lesson).
    reply = await say(harness, ONE, DM_ONE, ROUTED_TEXT)
    first = brain.last_decision(USER, DM_ONE)
    assert first is not None and first.team == ONE
    await say(harness, ONE, DM_ONE, "/wrong change")
    taught = [e for e in brain.memory.entries() if e.decision_id == first.decision_id]
    assert taught and {e.team for e in taught} == {ONE}
    # The correction moved the message to change: its record is the one still open.
    first = brain.get_decision(first.decision_id)
    ticket = (first.result.data.get("ticket") or {}) if first.result else {}
    ticket_id = str(ticket["id"])
    assert brain.services.tickets.get(ticket_id).slack_team == ONE
    assert brain.services.tickets.get(ticket_id).is_open

    # Workspace one's Home shows its records (so the next check can fail).
    own = await home_of(harness, ONE)
    assert "VPN keeps dropping" in own and ticket_id in own

    # Workspace two's Home (same user id) shows none of them.
    other = await home_of(harness, TWO)
    assert "VPN keeps dropping" not in other
    assert ticket_id not in other and first.decision_id not in other

    # /brain-why from workspace two on workspace one's decision tells nothing of it.
    said = await why_from(harness, TWO, first.decision_id)
    assert "I know no decision" in said
    # The reply names the id it was asked about; a random hex id may itself hold "691".
    told = said.replace(first.decision_id, "")
    assert "VPN" not in told and "691" not in told

    # Clicks from workspace two on workspace one's buttons change nothing.
    feedback_before = len(brain.get_decision(first.decision_id).feedback)
    confirm = click_from(TWO, DM_TWO, reply, action_id=ACTION_CONFIRM,
                         block_id=BLOCK_DECISION + first.decision_id, value="confirm")  # fmt: skip
    assert (await harness.click(confirm))[0] == 200
    resolve = click_from(TWO, DM_TWO, reply, action_id=view.ACTION_RESOLVE,
                         block_id=view.BLOCK_TICKET + ticket_id, value=ticket_id)  # fmt: skip
    assert (await harness.click(resolve))[0] == 200
    home_confirm = home_click(USER, {"type": "button", "action_id": "brain_home_right",
                                     "value": first.decision_id})  # fmt: skip
    home_confirm["team"] = {"id": TWO}
    assert (await harness.click(home_confirm))[0] == 200
    await harness.idle()
    assert len(brain.get_decision(first.decision_id).feedback) == feedback_before
    assert brain.services.tickets.get(ticket_id).status != "resolved"
    notes = json.dumps([c.params for c in harness.fake.of("chat.postEphemeral")])
    assert "VPN" not in notes and ticket_id not in notes

    # Workspace one's lesson never routes workspace two's message.
    await say(harness, TWO, DM_TWO, ROUTED_TEXT)
    second = brain.last_decision(USER, DM_TWO)
    assert second is not None and second.team == TWO
    assert second.preference == ""
    assert not any(first.decision_id in note for note in second.memory_influences)
    assert second.controller == first.controller  # decided as before the lesson


def from_team(payload: dict[str, Any], team: str) -> dict[str, Any]:
    """An interactivity payload sent by USER in `team`."""
    return {**payload, "team": {"id": team}, "user": {"id": USER, "team_id": team}}


async def test_modal_and_shortcut_requests_are_their_workspaces_records(
    oauth_env: None, start_bot: StartBot
) -> None:
    harness = await start_bot()
    await install(harness, ONE, "xoxb-one")
    await install(harness, TWO, "xoxb-two")

    # `/brain` in workspace one, then the "New request" modal's submission.
    await command_from(harness, ONE, NEW_COMMAND, "", DM_ONE)
    opened = (await harness.fake.wait_for("views.open"))[0].params["view"]
    view = opened if isinstance(opened, dict) else json.loads(opened)
    assert (await harness.click(from_team(submission(USER, view, ROUTED_TEXT), ONE)))[0] == 200
    await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    modal = harness.bot.services.links.get(DM_ONE, harness.fake.posted_ts[0])

    # "Send to the brain" on an alert message in workspace one.
    alert = {"type": "message", "ts": p.new_ts(), "bot_id": "BALERTS", "text": "ALERT: disk 97%"}
    shortcut = {"type": "message_action", "callback_id": SHORTCUT, "channel": {"id": DM_ONE},
                "message": alert, "trigger_id": "trigger",
                "response_url": harness.fake.response_url("shortcut")}  # fmt: skip
    assert (await harness.click(from_team(shortcut, ONE)))[0] == 200
    await harness.fake.wait_for("chat.postMessage", 3)
    await harness.idle()
    asked = harness.bot.services.links.get(DM_ONE, alert["ts"])

    assert modal is not None and asked is not None
    for link in (modal, asked):
        assert harness.brain.get_decision(link.decision_id).team == ONE
    own = await home_of(harness, ONE)
    assert "VPN keeps dropping" in own and "disk 97%" in own
    other = await home_of(harness, TWO)
    assert "VPN keeps dropping" not in other and "disk 97%" not in other


async def test_reactions_from_another_workspace_change_nothing(
    oauth_env: None, start_bot: StartBot
) -> None:
    harness = await start_bot()
    await install(harness, ONE, "xoxb-one")
    await install(harness, TWO, "xoxb-two")
    reply = await say(harness, ONE, DM_ONE, ROUTED_TEXT)
    first = harness.brain.last_decision(USER, DM_ONE)
    assert first is not None

    def reaction(name: str) -> dict[str, Any]:
        item = {"type": "message", "channel": DM_ONE, "ts": reply["ts"]}
        return {"type": "reaction_added", "user": USER, "reaction": name, "item": item}

    posts = len(harness.fake.of("chat.postMessage"))
    for name in ("-1", "+1"):  # workspace two's 👎 and 👍 on workspace one's reply
        await harness.post(event_of(TWO, reaction(name)), content_type="application/json")
    await harness.idle()
    assert harness.brain.get_decision(first.decision_id).feedback == []
    assert len(harness.fake.of("chat.postMessage")) == posts  # no "Route elsewhere" offered

    # The asker's own 👍 in workspace one does count.
    await harness.post(event_of(ONE, reaction("+1")), content_type="application/json")
    await harness.idle()
    feedback = harness.brain.get_decision(first.decision_id).feedback
    assert [(f.kind, f.user) for f in feedback] == [("confirm", USER)]


async def test_slack_connect_events_are_the_installing_workspaces_records(
    oauth_env: None, start_bot: StartBot
) -> None:
    """In a Slack Connect channel an event's own `team` (and a modal's payload `team`) is the
    sender's workspace: the records are the installing workspace's (the envelope's
    `authorizations[0].team_id`, the view's `app_installed_team_id`), as Bolt reads it."""
    harness = await start_bot()
    await install(harness, ONE, "xoxb-one")
    await install(harness, TWO, "xoxb-two")
    guest = "TGUEST01"  # the sender's workspace, which never installed the bot
    message = p.message(ROUTED_TEXT, user=USER, channel=DM_ONE)
    mention = p.mention("the printer on floor 3 is jammed", user=USER, channel="CSHARED01")
    for n, event in enumerate((message, mention), start=1):
        envelope = json.loads(event_of(ONE, event))
        envelope["event"]["team"] = guest
        await harness.post(json.dumps(envelope), content_type="application/json")
        await harness.fake.wait_for("chat.postMessage", n)
        await harness.idle()
    # A modal opened in a Slack Connect channel: its payload's team is the guest's too.
    await command_from(harness, ONE, NEW_COMMAND, "", "CSHARED02")
    opened = (await harness.fake.wait_for("views.open"))[0].params["view"]
    view = {**(opened if isinstance(opened, dict) else json.loads(opened)),
            "app_installed_team_id": ONE}  # fmt: skip
    submitted = from_team(submission(USER, view, "the projector in room 5 is dead"), guest)
    assert (await harness.click(submitted))[0] == 200
    await harness.fake.wait_for("chat.postMessage", 4)
    await harness.idle()
    for channel in (DM_ONE, "CSHARED01", "CSHARED02"):
        decision = harness.brain.last_decision(USER, channel)
        assert decision is not None and decision.team == ONE
    own = await home_of(harness, ONE)
    assert "VPN keeps dropping" in own and "printer" in own and "projector" in own


async def test_another_workspaces_on_call_cannot_acknowledge_an_alert(
    oauth_env: None, start_bot: StartBot
) -> None:
    """Acknowledging stops re-escalation: an alert of workspace one is acknowledged only from
    workspace one. A click from workspace two carrying its id changes nothing (and does not
    use up the button: workspace one's on-call still acknowledges it)."""
    harness = await start_bot()
    await install(harness, ONE, "xoxb-one")
    await install(harness, TWO, "xoxb-two")
    await say(harness, ONE, DM_ONE, ESCALATE_TEXT)
    posted = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    alert = posted[0]
    block = next(
        b for b in alert.params["blocks"] if b.get("block_id", "").startswith("brain_alert:")
    )
    alert_id = block["elements"][0]["value"]
    message = {
        "type": "message",
        "ts": _posted_ts(harness, alert),
        "blocks": alert.params["blocks"],
    }
    escalations = harness.bot.services.escalations

    def ack_from(team: str) -> dict[str, Any]:
        return click_from(
            team,
            ONCALL_CHANNEL,
            message,
            user=ONCALL_USER,
            action_id="brain_oncall_ack",
            block_id=block["block_id"],
            value=alert_id,
        )

    assert (await harness.click(ack_from(TWO)))[0] == 200
    await harness.fake.wait_for("chat.postEphemeral")
    await harness.idle()
    stored = escalations.get(alert_id)
    assert stored is not None and stored.acknowledged_by is None
    assert harness.fake.of("chat.update") == []

    assert (await harness.click(ack_from(ONE)))[0] == 200
    await harness.fake.wait_for("chat.update")
    await harness.idle()
    stored = escalations.get(alert_id)
    assert stored is not None and stored.acknowledged_by == ONCALL_USER
