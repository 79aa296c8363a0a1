"""Button and select clicks on the bot's replies: Right, Route elsewhere, clarification answers.

Each click is acknowledged at once; the feedback is recorded through the conversation (the
brain's feedback API) in one trip into the brain, and the clicked message is updated (from the
returned reply alone) so it cannot be clicked twice.
Anyone who can see the message may click; the feedback is recorded with the clicker's id.

A click is bound to its message: it counts only when the clicked message (channel, ts) is the
bot's message of that very decision (or of the multi-intent message it is a part of), in the
decision's own channel. A payload whose block
names another decision (a forged block id, a message from another channel) changes nothing:
no feedback, no controller run, no post, no memory. A click on a decision the brain no longer
knows replaces the buttons with a note instead of leaving them dead.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any, Literal

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import teams
from bot.blocks import (
    ACTION_CLARIFY_PREFIX,
    ACTION_CONFIRM,
    ACTION_HANDOFF,
    ACTION_REROUTE,
    ACTION_RESOLVE,
    ACTION_SEND_TEAM,
    ACTION_SOLVED,
    BLOCK_CLARIFY,
    BLOCK_DECISION,
    BLOCK_REROUTE,
    BLOCK_RESOLVE,
    clarify_note,
    escape,
    fallback_text,
    resolved_blocks,
)
from bot.clicks import FOREIGN_NOTE, Click
from bot.helpdesk import resolutions
from bot.helpdesk.rights import decision_in
from bot.replies import escalate, post_reply
from bot.services import BotServices
from bot.wording import in_chinese, say
from brain import Reply
from core.errors import UnknownDecision

log = logging.getLogger(__name__)

#: Why a click was not applied ("taken": the button's one click was made before).
Refusal = Literal["unknown", "foreign", "unlinked", "taken"]
#: A click can reach the bot before it heard back from Slack that the clicked reply was
#: posted (a quick click, a busy process), so before that message is linked to its decision:
#: the link is looked for again this often, at most this many times, before the click is
#: refused as not this message's.
LINK_WAIT_S, LINK_TRIES = 0.25, 20
UNKNOWN_NOTE = say("unknown_decision", False)


#: What a click does in the brain worker once it is bound: (conversation, click, decision id)
#: -> the reply. Runs inside the binding check's trip, so nothing happens unless it passes.
ClickAct = Callable[[Any, "Click", str], Reply]
#: What the bot does afterwards with the bound click's reply (update the message, post, page).
ClickAfter = Callable[[BotServices, AsyncWebClient, "Click", str, Reply], Coroutine[Any, Any, None]]
#: Whether the clicker has the right at all (checked before the binding; e.g. only on-call
#: or the team may resolve a request sent to a person).
ClickMay = Callable[[BotServices, AsyncWebClient, "Click"], Coroutine[Any, Any, bool]]


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the action listeners: each is an act and an after, never a bare handler, so
    every click passes the one binding check (`_checked`) before anything happens."""
    _on_click(app, services, ACTION_CONFIRM, (BLOCK_DECISION,), "decision", _confirm, _confirmed)
    _on_click(
        app,
        services,
        ACTION_HANDOFF,
        (BLOCK_DECISION,),
        "decision",
        _handoff,
        _handed_off,
        asker_only=True,
    )
    _on_click(
        app,
        services,
        re.compile(f"^{ACTION_SEND_TEAM}"),
        (BLOCK_DECISION,),
        "choice",
        resolutions.send_to_team,
        resolutions.sent_to_team,
        asker_only=True,
    )
    _on_click(
        app,
        services,
        ACTION_RESOLVE,
        (BLOCK_RESOLVE,),
        "choice",
        resolutions.resolve_by_pick,
        resolutions.resolved_by_pick,
        may=resolutions.helper,
        refused=resolutions.NOT_A_HELPER,
    )
    _on_click(
        app,
        services,
        ACTION_SOLVED,
        (BLOCK_DECISION,),
        "decision",
        resolutions.solved,
        resolutions.marked_solved,
        asker_only=True,
    )
    _on_click(
        app, services, ACTION_REROUTE, (BLOCK_DECISION, BLOCK_REROUTE), "choice", _reroute, _posted
    )
    _on_click(
        app,
        services,
        re.compile(f"^{ACTION_CLARIFY_PREFIX}"),
        (BLOCK_CLARIFY,),
        "choice",
        _clarify,
        _posted,
    )


def _on_click(
    app: AsyncApp,
    services: BotServices,
    action: str | re.Pattern[str],
    blocks: tuple[str, ...],
    value: Literal["decision", "choice"],
    act: ClickAct,
    after: ClickAfter,
    *,
    asker_only: bool = False,
    may: ClickMay | None = None,
    refused: str = FOREIGN_NOTE,
) -> None:
    """One listener: acknowledge, read the decision id (the button's value when it carries
    the decision, else the clicked block's id; a "choice" click also needs the chosen
    value), then in the background check the clicker's right (`may`; refused: `refused` is
    told privately), bind it, claim the button's one click and run `act` in the same trip
    (`_checked`), and `after` with its reply. A payload that is not a click (no actions,
    no user) is dropped with one log line."""

    async def work(click: Click, decision_id: str, client: AsyncWebClient) -> None:
        if may is not None and not await may(services, client, click):
            log.info("refused a click by %s in %s: no right to it", click.user, click.channel)
            await _note(client, click, refused)
            return

        def call() -> Reply:
            return act(services.conversation, click, decision_id)

        reply = await _checked(
            services, client, click, decision_id, call, asker_only, prompt=may is not None
        )
        if reply is not None:
            await after(services, client, click, decision_id, reply)

    async def listener(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click.parse(body)
        if click is None:
            log.info("dropped an interactive payload that is not a click on a bot message")
            return
        carried = click.value if value == "decision" else ""
        decision_id = carried or click.decision_id(*blocks)
        chosen = value == "decision" or bool(click.value)
        if decision_id and chosen:
            services.work.spawn(work(click, decision_id, client))

    app.action(action)(listener)


def _first_click(services: BotServices, click: Click) -> bool:
    """One click per actions block (a message has one, a multi-intent reply one per request):
    a double click or a retry is dropped. Claimed (durably, before the click acts) only
    once the click is bound and its clicker has the right, so a refused click (a bystander's
    on an asker-only button, a forged one) never uses up the asker's."""
    if not services.events.claim(f"click:{click.channel}:{click.ts}:{click.block_id}"):
        return False
    services.events.flush()
    return True


async def _resolve(client: AsyncWebClient, click: Click, note: str, *, every: bool = False) -> None:
    """Replace the clicked actions with `note` (`every`: all of the message's actions, its
    ticket's too, as for a decision that no longer exists: no dead buttons are left)."""
    await client.chat_update(
        channel=click.channel,
        ts=click.ts,
        text=fallback_text(note),
        blocks=resolved_blocks(click.blocks, note, None if every else click.block_id),
    )


def _bound_then(
    services: BotServices,
    click: Click,
    decision_id: str,
    call: Callable[[], Reply],
    asker_only: bool = False,
    prompt: bool = False,
) -> Reply | Refusal:
    """In the brain worker: run `call` only when the click is bound to this decision's message
    (its channel, the bot's message of it; for a `prompt` click, whose right was checked, also
    the decision's resolution prompt in the on-call or a team's channel), for `asker_only`
    clicks made by its asker, and the first such click on its button (`_first_click`)."""
    decision = decision_in(services, decision_id, services.workspace_of(click.body))
    if decision is None:
        return "unknown"  # or another workspace's decision: as if it did not exist
    link = services.links.get(click.channel, click.ts)
    if link is None:
        return "unlinked"
    if decision.channel != click.channel and not (prompt and link.role == resolutions.ROLE):
        return "foreign"  # only a resolution prompt is shown outside the decision's channel
    if asker_only and click.user not in {decision.user, link.asker}:
        return "foreign"
    if link.decision_id != decision_id and decision_id not in _part_ids(services, link.decision_id):
        return "foreign"
    if not _first_click(services, click):
        return "taken"
    return teams.queue_in_trip(services, call())


def _part_ids(services: BotServices, decision_id: str) -> set[str]:
    """The decisions of a multi-intent message's parts (each has its own buttons on the
    message of the whole decision)."""
    try:
        return {part.decision_id for part in services.brain.get_decision(decision_id).parts}
    except UnknownDecision:
        return set()


async def _checked(
    services: BotServices,
    client: AsyncWebClient,
    click: Click,
    decision_id: str,
    call: Callable[[], Reply],
    asker_only: bool = False,
    *,
    prompt: bool = False,
) -> Reply | None:
    """One trip: the bound click's reply, or None (refused; the clicker is told, privately)."""
    for attempt in range(LINK_TRIES):
        outcome = await services.trip(
            _bound_then, services, click, decision_id, call, asker_only, prompt
        )
        if outcome != "unlinked":
            break
        if attempt == 0:
            log.info("a click in %s came before its message was linked; waiting", click.channel)
        await asyncio.sleep(LINK_WAIT_S)
    else:
        outcome = "foreign"
    if outcome == "taken":
        return None  # a double click, or another right click was first: it acted already
    if outcome == "unknown":
        log.info("click on unknown decision %s in %s", decision_id, click.channel)
        await _note(client, click, UNKNOWN_NOTE)
        await _resolve(client, click, UNKNOWN_NOTE, every=True)
        return None
    if outcome == "foreign":
        log.warning(
            "refused a click by %s in %s: decision %s is not this message's",
            click.user,
            click.channel,
            decision_id,
        )
        await _note(client, click, FOREIGN_NOTE)
        return None
    assert not isinstance(outcome, str)
    return outcome


async def _note(client: AsyncWebClient, click: Click, text: str) -> None:
    """A note only the clicker sees (why their click did nothing)."""
    await client.chat_postEphemeral(
        channel=click.channel, user=click.user, thread_ts=click.thread_ts, text=text
    )


def _at(click: Click) -> str:
    """The clicker as a Slack mention (for the note that replaces the clicked buttons)."""
    return f"<@{click.user}>"


def _confirm(conversation: Any, click: Click, decision_id: str) -> Reply:
    reply: Reply = conversation.confirm(decision_id, user=click.user, source="slack-button")
    return reply


async def _confirmed(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str, reply: Reply
) -> None:
    await _resolve(client, click, say("confirmed_by", in_chinese(reply.decision), user=_at(click)))


def _handoff(conversation: Any, click: Click, decision_id: str) -> Reply:
    """The asker chose a person over the brain's honest boundary: the decision as shown."""
    reply: Reply = conversation.render(conversation.brain.get_decision(decision_id))
    return reply


async def _handed_off(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str, reply: Reply
) -> None:
    """Page on-call with the (bound) decision the asker handed over."""
    zh = in_chinese(reply.decision)
    await _resolve(client, click, say("handed_by", zh, user=_at(click)))
    alert = await escalate(
        services,
        client,
        reply,
        channel=click.channel,
        thread_ts=click.thread_ts,
        asker=click.user,
        lead="asked_person",
    )
    if alert is not None and alert.messages:  # on-call resolves it in the alert's thread
        await resolutions.post_prompt(
            services,
            client,
            reply,
            asker=click.user,
            channel=alert.oncall_channel,
            thread_ts=alert.messages[0],
            team=None,
        )


def _reroute(conversation: Any, click: Click, decision_id: str) -> Reply:
    reply: Reply = conversation.reroute(
        decision_id,
        click.value,
        user=click.user,
        source="slack-reroute",
        session_key=f"{click.channel}:{click.thread_ts}",
    )
    return reply


def _clarify(conversation: Any, click: Click, decision_id: str) -> Reply:
    reply: Reply = conversation.answer_clarification(
        decision_id,
        click.value,
        user=click.user,
        session_key=f"{click.channel}:{click.thread_ts}",
    )
    return reply


async def _posted(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str, reply: Reply
) -> None:
    """A reroute or a clarification answer: the message resolved, the new reply posted (an
    error reply, e.g. a controller that no longer exists, is posted and the buttons stay)."""
    if reply.kind == "error":
        await _post_error(services, client, click, reply)
        return
    label = reply.controller_label or click.value
    zh = in_chinese(reply.decision)
    answered = click.block_id.startswith(BLOCK_CLARIFY)
    if answered:
        note = clarify_note(click.value, label, click.user, zh)
    else:
        note = say("rerouted_by", zh, label=escape(label), user=_at(click))
    # An answered clarification needs no person any more: its "Send to a person" goes too.
    await _resolve(client, click, note, every=answered)
    await _post(services, client, click, reply, decision_id)


async def _post_error(
    services: BotServices, client: AsyncWebClient, click: Click, reply: Reply
) -> None:
    """An error reply in the clicked message's thread; the message keeps its buttons."""
    await post_reply(
        services,
        client,
        reply,
        channel=click.channel,
        thread_ts=click.thread_ts,
        asker=click.user,
        role="error",
    )


async def _post(
    services: BotServices, client: AsyncWebClient, click: Click, reply: Reply, decision_id: str
) -> None:
    link = services.links.get(click.channel, click.ts)
    asker = link.asker if link else click.user
    await post_reply(
        services,
        client,
        reply,
        channel=click.channel,
        thread_ts=click.thread_ts,
        asker=asker,
        role="rerouted",
    )
