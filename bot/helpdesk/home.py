"""App Home: what the brain holds for the person opening it, published with `views.publish`.

An employee sees their open tickets, their recent decisions (each with Right / This solved it
/ Route elsewhere) and the lessons the brain learned from them (each with Forget); an admin
(`[access] oncall_users`) also sees today's figures. Each list is paged so the view stays
within Slack's 100 blocks. Every click is checked against the clicker's own right (their
decision, their lesson) before anything changes, then the Home is published again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import _button, _section, _select, escape
from bot.helpdesk.rights import owns_decision
from bot.services import BotServices
from bot.teams import ticket_store
from bot.wording import say
from brain import Choice
from core.access import same_workspace
from core.errors import UnknownDecision
from core.text.shortening import shorten
from core.wording import wording

log = logging.getLogger(__name__)

#: Slack's limit for a Home tab view.
VIEW_BLOCKS = 100
#: Items of each list on one page (decisions take 2 blocks, tickets and lessons 1).
PAGE = 8
ACTION_RIGHT = "brain_home_right"
ACTION_REROUTE = "brain_home_reroute"
ACTION_FORGET = "brain_home_forget"
ACTION_PAGE = "brain_home_page"
BLOCK_HOME_DECISION = "brain_home_decision:"
#: Joins the details of one line (a ticket's id, status and title; the figures).
_DETAILS = wording("en").say("common.detail_separator")


@dataclass(slots=True)
class HomeData:
    """What one person's Home shows (read in one trip into the brain)."""

    tickets: list[tuple[str, str, str]] = field(default_factory=list)  # id, status, title
    decisions: list[tuple[str, str, str, list[Choice]]] = field(default_factory=list)
    lessons: list[tuple[str, str, str]] = field(default_factory=list)  # id, controller, text
    figures: dict[str, int] | None = None


def gather(services: BotServices, user: str, team: str | None = None) -> HomeData:
    """Read the person's tickets, decisions and lessons (blocking: in the brain's worker),
    only those of their Slack workspace `team`."""
    data = HomeData()
    brain = services.brain
    tickets = ticket_store(services).list_by_requester(user, open_only=True, team=team)
    data.tickets = [(t.id, t.status, t.title) for t in tickets]
    seen: set[str] = set()
    for link in services.links.asked_by(user):
        if link.decision_id in seen:
            continue
        seen.add(link.decision_id)
        try:
            decision = services.brain.get_decision(link.decision_id)
        except UnknownDecision:
            continue
        if not same_workspace(decision.team, team):
            continue
        label = services.conversation.label(decision.controller)
        choices = services.conversation.controller_choices(exclude=decision.controller)
        data.decisions.append((decision.decision_id, decision.text, label, choices))
    data.lessons = [
        (e.memory_id, f"{services.conversation.label(e.controller)} ({e.kind})", e.text)
        for e in reversed(brain.memory.entries())
        if e.user == user and same_workspace(e.team, team)
    ]
    if user in services.settings.access.oncall_users:
        data.figures = {
            "lessons": sum(1 for e in brain.memory.entries() if same_workspace(e.team, team)),
            "open tickets": sum(
                1
                for t in ticket_store(services).all()
                if t.is_open and same_workspace(t.slack_team, team)
            ),
        }
    return data


def _page(items: Sequence[Any], page: int) -> Sequence[Any]:
    return items[page * PAGE : (page + 1) * PAGE]


def _say(key: str, **fields: str) -> str:
    """The Home's own wording. The Home is drawn without a message, so in English."""
    return say(f"home.{key}", False, **fields)


def _routed(text: str, length: int, label: str) -> str:
    """A decision or a lesson on the Home: the person's words (shortened) and where they went."""
    return _say("routed", text=escape(shorten(text, length)), label=escape(label))


def home_view(data: HomeData, page: int = 0) -> dict[str, Any]:
    """The Home tab view (at most `VIEW_BLOCKS` blocks)."""
    blocks: list[Block | dict[str, Any]] = [HeaderBlock(text=_say("title"))]
    blocks.append(_section(_say("tickets")))
    for ticket_id, status, title in _page(data.tickets, page) or []:
        blocks.append(_section(_DETAILS.join((f"`{ticket_id}`", escape(status), escape(title)))))
    if not data.tickets:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=_say("no_tickets"))]))
    blocks += [DividerBlock(), _section(_say("decisions"))]
    for decision_id, text, label, choices in _page(data.decisions, page):
        blocks.append(_section(_routed(text, 300, label)))
        elements: list[Any] = [
            _button(say("right", False), ACTION_RIGHT, decision_id, style="primary"),
            _button(say("solved", False), ACTION_RIGHT, f"solved:{decision_id}"),
        ]
        if choices:
            elements.append(
                _select(say("route_elsewhere", False), ACTION_REROUTE, choices).to_dict()
            )
        blocks.append(ActionsBlock(block_id=BLOCK_HOME_DECISION + decision_id, elements=elements))
    blocks += [DividerBlock(), _section(_say("learned"))]
    for memory_id, label, text in _page(data.lessons, page):
        section = _section(_routed(text, 200, label)).to_dict()
        section["accessory"] = _button(_say("forget"), ACTION_FORGET, memory_id).to_dict()
        blocks.append(section)
    if data.figures is not None:
        figures = _DETAILS.join(f"{name}: *{count}*" for name, count in data.figures.items())
        blocks += [DividerBlock(), _section(_say("figures", figures=figures))]
    longest = max(len(data.tickets), len(data.decisions), len(data.lessons))
    pager: list[Any] = []
    if page > 0:
        pager.append(_button(_say("previous"), ACTION_PAGE, str(page - 1)))
    if (page + 1) * PAGE < longest:
        pager.append(_button(_say("next"), ACTION_PAGE, str(page + 1)))
    if pager:
        blocks.append(ActionsBlock(elements=pager))
    dicts = [b if isinstance(b, dict) else b.to_dict() for b in blocks]
    return {"type": "home", "blocks": dicts[:VIEW_BLOCKS]}


async def publish(
    services: BotServices,
    client: AsyncWebClient,
    user: str,
    page: int = 0,
    *,
    team: str | None = None,
) -> None:
    """Read and publish `user`'s Home (`team`: their workspace's records only)."""
    data = await services.trip(gather, services, user, team)
    await client.views_publish(user_id=user, view=home_view(data, page))


def register(app: AsyncApp, services: BotServices) -> None:
    """App Home listeners: opening the tab and the clicks on it."""

    @app.event("app_home_opened")
    async def opened(event: dict[str, Any], body: dict[str, Any], client: AsyncWebClient) -> None:
        if event.get("tab", "home") == "home":
            team = services.workspace_of(body)
            home = publish(services, client, str(event["user"]), team=team)
            services.work.spawn(home, name="home")

    @app.action(ACTION_PAGE)
    async def paged(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        value = str(body["actions"][0].get("value") or "0")
        page = int(value) if value.isdecimal() and len(value) < 9 else 0  # a forged value: page 0
        team = services.workspace_of(body)
        user = str(body["user"]["id"])
        services.work.spawn(publish(services, client, user, page, team=team))

    @app.action(ACTION_FORGET)
    async def forget(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        user, memory_id = str(body["user"]["id"]), str(body["actions"][0].get("value"))
        team = services.workspace_of(body)
        services.work.spawn(_forget(services, client, user, memory_id, team))

    @app.action(ACTION_RIGHT)
    async def right(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        user, value = str(body["user"]["id"]), str(body["actions"][0].get("value"))
        decision_id, team = value.removeprefix("solved:"), services.workspace_of(body)
        services.work.spawn(_feedback(services, client, user, decision_id, team=team))

    @app.action(ACTION_REROUTE)
    async def reroute(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        action = body["actions"][0]
        block = str(action.get("block_id") or "")
        chosen = str((action.get("selected_option") or {}).get("value") or "")
        user = str(body["user"]["id"])
        if block.startswith(BLOCK_HOME_DECISION) and chosen:
            decision_id = block.removeprefix(BLOCK_HOME_DECISION)
            team = services.workspace_of(body)
            services.work.spawn(_feedback(services, client, user, decision_id, chosen, team=team))


async def _forget(
    services: BotServices,
    client: AsyncWebClient,
    user: str,
    memory_id: str,
    team: str | None = None,
) -> None:
    """Forget one lesson, only the clicker's own (learned in their workspace)."""

    def forget() -> int:
        memory = services.brain.memory
        mine = [
            e.memory_id for e in memory.entries() if e.user == user and same_workspace(e.team, team)
        ]
        return int(memory.forget([memory_id])) if memory_id in mine else 0

    if not await services.trip(forget):
        log.warning("refused a Forget by %s of a lesson that is not theirs", user)
    await publish(services, client, user, team=team)


async def _feedback(
    services: BotServices,
    client: AsyncWebClient,
    user: str,
    decision_id: str,
    controller: str | None = None,
    *,
    team: str | None = None,
) -> None:
    """Right / This solved it (confirm) or Route elsewhere (reroute) on the clicker's own
    decision; another person's (or workspace's) decision is refused without a change."""

    def apply() -> bool:
        if not owns_decision(services, user, decision_id, team):
            return False
        conversation = services.conversation
        if controller is None:
            conversation.confirm(decision_id, user=user, source="slack-home")
        else:
            conversation.reroute(decision_id, controller, user=user, source="slack-home")
        return True

    if not await services.trip(apply):
        log.warning("refused a Home click by %s on decision %s", user, decision_id)
    await publish(services, client, user, team=team)
