"""People teach the brain in Slack, over signed HTTP against the fake Web API: an
unknown request sent to a person and resolved by them in the alert's thread three times the
same way becomes an evolved controller that takes the fourth wording on the fast path (with
approval required, not before approval); a team resolves from its channel with the select
(and nobody else may); three users' Route elsewhere on their own similar messages moves a
fourth user's differently worded one; the learned note is carried out (the request posted in
the channel it names)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, ONCALL_USER, Harness, StartBot
from tests.bot.test_bot_interactions import _as_message, _ask, _block, _posted_ts
from tests.fakes.slack_api import Call

ASKED = [
    ("UROOM001", "book the large meeting room on floor 5 for Friday 3pm"),
    ("UROOM002", "reserve the big conference room on the 5th floor friday at 15:00"),
    ("UROOM003", "I need the big meeting room, 5th floor, Friday 3 pm"),
]
FOURTH = "can I get the large room on level five this Friday afternoon at 3"
PLAN = "ask facilities in #facilities"
TEAMS = """
[helpdesk.teams.facilities]
channel = "CFACIL001"
members = ["UFACIL001"]
"""


async def _boundary(harness: Harness, text: str, user: str) -> tuple[dict[str, Any], Call, str]:
    """Ask in a DM; (the event, the reply, its decision id), the reply a boundary."""
    event, reply = await _ask(harness, text, user=user, channel=f"D{user[1:]}")
    actions = _block(reply, "brain_decision:")
    decision_id = actions["block_id"].split(":", 1)[1]
    assert harness.brain.get_decision(decision_id).controller is None, reply.params["text"]
    return event, reply, decision_id


def _click(
    harness: Harness, reply: Call, user: str, channel: str, action: str, **how: str
) -> dict[str, Any]:
    """A click on one of `reply`'s buttons (its block found by the action)."""
    block = next(
        b
        for b in reply.params["blocks"]
        if b["type"] == "actions" and any(e["action_id"] == action for e in b["elements"])
    )
    return p.block_action(
        user=user,
        channel=channel,
        message=_as_message(reply, _posted_ts(harness, reply)),
        action_id=action,
        block_id=block["block_id"],
        **how,
    )


def _posts(harness: Harness, channel: str, marker: str) -> list[Call]:
    return [
        c
        for c in harness.fake.of("chat.postMessage")
        if c.params["channel"] == channel and marker in str(c.params.get("blocks"))
    ]


async def _resolve_through_oncall(harness: Harness, user: str, text: str) -> str:
    """The asker sends it to a person; on-call resolves it in the alert's thread; the asker
    says it solved it. The on-call note of the resolution."""
    event, reply, decision_id = await _boundary(harness, text, user)
    prompts = len(_posts(harness, ONCALL_CHANNEL, "brain_resolve:"))
    handoff = _click(harness, reply, user, event["channel"], "brain_handoff", value=decision_id)
    assert (await harness.click(handoff))[0] == 200
    await harness.fake.wait_for(
        "chat.postMessage",
        where=lambda c: "brain_resolve:" in str(c.params.get("blocks")),
        count=prompts + 1,
    )
    await harness.idle()
    prompt = _posts(harness, ONCALL_CHANNEL, "brain_resolve:")[-1]
    alert_ts = prompt.params["thread_ts"]  # in the on-call alert's thread
    assert decision_id in str(prompt.params["blocks"])

    said = p.message(
        PLAN, user=ONCALL_USER, channel=ONCALL_CHANNEL, channel_type="channel", thread_ts=alert_ts
    )
    solved = len(_posts(harness, event["channel"], "brain_solved"))
    await harness.event(said)
    await harness.fake.wait_for(
        "chat.postMessage",
        where=lambda c: "brain_solved" in str(c.params.get("blocks")),
        count=solved + 1,
    )
    await harness.idle()
    told = _posts(harness, event["channel"], "brain_solved")[-1]
    assert told.params["thread_ts"] == event["ts"] and PLAN in told.params["text"]
    click = _click(harness, told, user, event["channel"], "brain_solved", value=decision_id)
    assert (await harness.click(click))[0] == 200
    await harness.idle()
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [(f.kind, f.user) for f in feedback] == [("confirm", user)]
    notes = [
        c.params["text"]
        for c in harness.fake.of("chat.postMessage")
        if c.params["channel"] == ONCALL_CHANNEL and c.params.get("thread_ts") == alert_ts
    ]
    return notes[-1]


@pytest.mark.slow
async def test_three_people_resolving_alike_in_threads_evolve_a_controller(
    start_bot: StartBot,
) -> None:
    harness = await start_bot("[evolution]\nrequire_approval = true\n" + TEAMS)
    notes = [await _resolve_through_oncall(harness, user, text) for user, text in ASKED]

    assert all(note.startswith("✅ Recorded your resolution") for note in notes)
    assert "evolved controller" not in " ".join(notes[:2])
    assert "waits for approval" in notes[2], notes[2]
    name = notes[2].split("evolved controller ", 1)[1].split()[0]
    assert name not in harness.brain.registry.names()

    await _ask(harness, FOURTH, user="UROOM004", channel="DROOM0004")
    waiting = harness.brain.last_decision("UROOM004", "DROOM0004")
    assert waiting is not None and waiting.controller != name  # not before approval

    harness.brain.evolution.approve(name, by="admin")  # what `brain controllers approve` does
    # The next decision refits the semantic model for the new controller (slow on a busy
    # machine), so its reply is waited for longer than the fake's default.
    asked = p.message(FOURTH, user="UROOM005", channel="DROOM0005")
    await harness.event(asked)
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params.get("thread_ts") == asked["ts"], timeout=600
    )
    await harness.idle()
    fourth = harness.brain.last_decision("UROOM005", "DROOM0005")
    assert fourth is not None and fourth.controller == name and fourth.tier == "fast", (
        fourth.tier_path
    )
    # The note is carried out: the request is posted in the channel it names (the team's of
    # that name), once, and the asker is told in their thread where it went.
    passed = [c for c in harness.fake.of("chat.postMessage") if FOURTH in c.params["text"]]
    assert [c.params["channel"] for c in passed] == ["CFACIL001"], passed
    assert "<@UROOM005>" in passed[0].params["text"] and PLAN in passed[0].params["text"]
    told = [
        c.params["text"]
        for c in harness.fake.of("chat.postMessage")
        if c.params.get("thread_ts") == asked["ts"]
    ]
    assert any("passed your message on to <#CFACIL001>" in line for line in told), told


async def test_a_team_resolves_with_the_select_and_nobody_else_may(start_bot: StartBot) -> None:
    harness = await start_bot(TEAMS)
    event, reply, decision_id = await _boundary(harness, ASKED[0][1], "UASKER01")
    send = _click(
        harness, reply, "UASKER01", event["channel"], "brain_send_team_0", selected="facilities"
    )
    assert (await harness.click(send))[0] == 200
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == "CFACIL001"
    )
    await harness.idle()
    prompt = _posts(harness, "CFACIL001", "brain_resolve:")[0]
    assert "for team *facilities*" in str(prompt.params["blocks"])

    stranger = _click(harness, prompt, "USTRANGE1", "CFACIL001", "brain_resolve", selected="ticket")
    assert (await harness.click(stranger))[0] == 200
    refused = await harness.fake.wait_for("chat.postEphemeral")
    await harness.idle()
    assert "Only on-call, the team" in refused[-1].params["text"]
    assert harness.brain.get_decision(decision_id).feedback == []  # nothing recorded
    # A forged Route elsewhere on the prompt (it is shown outside the decision's channel, but
    # only a resolution by someone who may resolve is bound to it there).
    forged = p.block_action(
        user="USTRANGE1",
        channel="CFACIL001",
        message=_as_message(prompt, _posted_ts(harness, prompt)),
        action_id="brain_reroute",
        block_id=f"brain_decision:{decision_id}",
        selected="coding",
    )
    assert (await harness.click(forged))[0] == 200
    await harness.fake.wait_for("chat.postEphemeral", 2)
    await harness.idle()
    assert harness.brain.get_decision(decision_id).feedback == []

    member = _click(harness, prompt, "UFACIL001", "CFACIL001", "brain_resolve", selected="ticket")
    assert (await harness.click(member))[0] == 200
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: "brain_solved" in str(c.params.get("blocks"))
    )
    await harness.idle()
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [(f.kind, f.controller, f.user, f.source) for f in feedback] == [
        ("correct", "ticket", "UFACIL001", "resolve")
    ]
    case = harness.brain.cases.store.get(decision_id)
    assert case is not None and case["signature"] == "ticket"


TAUGHT = [
    ("UDOCK001", "how do I install Docker on my laptop"),
    ("UDOCK002", "setting up docker desktop on my macbook"),
    ("UDOCK003", "docker installation keeps failing on my workstation"),
]


async def route_elsewhere(harness: Harness, user: str, text: str, controller: str) -> None:
    """`user` asks `text` in their DM and, the brain having sent it elsewhere, picks
    `controller` in the reply's Route elsewhere menu."""
    event, reply = await _ask(harness, text, user=user, channel=f"D{user[1:]}")
    decision_id = _block(reply, "brain_decision:")["block_id"].split(":", 1)[1]
    assert harness.brain.get_decision(decision_id).controller != controller  # the mistake
    click = _click(harness, reply, user, event["channel"], "brain_reroute", selected=controller)
    updates = len(harness.fake.of("chat.update"))
    assert (await harness.click(click))[0] == 200
    await harness.fake.wait_for("chat.update", updates + 1)
    await harness.idle()


async def test_three_users_routing_elsewhere_move_a_fourth_users_message(
    harness: Harness,
) -> None:
    for user, text in TAUGHT:
        await route_elsewhere(harness, user, text, "coding")

    await _ask(harness, "can you help me get docker running locally", user="UDOCK004")
    fourth = harness.brain.last_decision("UDOCK004", "DCHAT001")
    assert fourth is not None and fourth.controller == "coding", fourth.tier_path
    assert "3 people moved messages like this to coding" in fourth.rationale
