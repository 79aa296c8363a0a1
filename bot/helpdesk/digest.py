"""A team's daily digest: at `[helpdesk.teams.<name>] digest_at` (UTC) the sweep posts the
last 24 hours' figures to the team's channel, in the team's `language`: tickets filed, open and
resolved, the mean time to resolve, SLA breaches, and how many messages routed to the team
were right at first touch (`brain.decisions.desk_report`, what `brain stats` prints).

Posted once a day per team whatever the number of replicas: the day's post is claimed in the
event ledger first. A digest due while no bot ran is posted at the next sweep of that day.

With many workspaces (OAuth installs) the records of one workspace are never shown in another,
so each workspace the team has tickets or the day's messages in gets its own digest of its
own figures, posted with that workspace's token (`bot.posting`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from slack_sdk.web.async_client import AsyncWebClient

from bot.oauth import multi_workspace
from bot.posting import ClientFor, client_in
from bot.services import BotServices
from bot.teams import ticket_store
from bot.wording import say
from brain import DeskReport, desk_report, logged_messages, messages_in
from controllers.tickets import Ticket
from core.records import Decision
from core.stores.protocols import DecisionPages
from core.teams import TeamConfig

log = logging.getLogger(__name__)

#: A day's messages read at most for one digest.
DIGEST_DECISIONS = 100_000


@dataclass(frozen=True, slots=True)
class DigestPost:
    """One digest to post: where, what, and in which workspace (None: the only one)."""

    channel: str
    text: str
    workspace: str | None = None


def due(team: TeamConfig, now: datetime) -> datetime | None:
    """Today's digest time of `team` when it has passed (None: no digest, or not yet)."""
    if team.digest_at is None or not team.channel:
        return None
    at = datetime.combine(now.date(), time.fromisoformat(team.digest_at), tzinfo=now.tzinfo)
    return at if now >= at else None


def team_report(services: BotServices, name: str, end: datetime) -> dict[str | None, DeskReport]:
    """The figures of the 24 hours before `end` for one team (its tickets and the messages
    routed to a controller it owns), by workspace: with one workspace a single report under
    None; with many, one per workspace holding any of them, of that workspace's records only."""
    config = services.settings.helpdesk
    start = end - timedelta(days=1)
    messages = [
        d
        for d in _messages_since(services, start)
        if d.controller and config.team_for(d.controller) == name
    ]
    tickets = [t for t in ticket_store(services).all() if t.team == name]
    if not multi_workspace(services.settings):
        return {None: desk_report(messages, tickets, config, since=start, now=end)}
    spaces = {t.slack_team for t in tickets} | {d.team for d in messages}
    return {
        space: desk_report(
            [d for d in messages if d.team == space],
            _of(tickets, space),
            config,
            since=start,
            now=end,
        )
        for space in sorted(s for s in spaces if s is not None)
    }


def _of(tickets: list[Ticket], workspace: str) -> list[Ticket]:
    return [t for t in tickets if t.slack_team == workspace]


def _messages_since(services: BotServices, start: datetime) -> list[Decision]:
    """The day's messages from the decision log the bot holds open; opening the home's
    stores again for a digest (a second decision log, its checkpoint at open) is for a bot
    built without them."""
    stores = services.stores
    if stores is not None and isinstance(stores.decisions, DecisionPages):
        return messages_in(stores.decisions, start, limit=DIGEST_DECISIONS)
    return logged_messages(services.settings, start, limit=DIGEST_DECISIONS)


def wording(name: str, team: TeamConfig, report: DeskReport) -> str:
    """The digest's text in the team's language."""
    chinese = team.language == "zh"
    tickets, messages = report.tickets, report.messages
    mttr = tickets.mttr_hours
    first_touch = messages.first_touch
    return say(
        "digest",
        chinese,
        team=name,
        filed=str(tickets.filed),
        open=str(tickets.open),
        resolved=str(tickets.resolved),
        mttr=say("digest_none", chinese)
        if mttr is None
        else say("digest_hours", chinese, hours=f"{mttr:.1f}"),
        breaches=str(tickets.sla_breaches),
        messages=str(messages.routed),
        first_touch="-" if first_touch is None else f"{100 * first_touch:.0f}%",
    )


def due_digests(services: BotServices) -> list[DigestPost]:
    """In the brain worker: each team (in each workspace) whose digest is due today and not
    yet claimed, with its text (claimed here, so two replicas post it once)."""
    now = ticket_store(services).clock()
    posts = []
    for name, team in services.settings.helpdesk.teams.items():
        at = due(team, now)
        if at is None or not services.events.claim(f"digest:{name}:{at.date().isoformat()}"):
            continue  # claimed before the day's messages are read: once a day, not each sweep
        for space, report in team_report(services, name, at).items():
            posts.append(DigestPost(team.channel or "", wording(name, team, report), space))
    return posts


async def post_digests(
    client: AsyncWebClient, posts: list[DigestPost], client_for: ClientFor | None = None
) -> int:
    """Post the due digests (`due_digests`, read in the sweep's trip), each in its workspace;
    how many."""
    for post in posts:
        try:
            poster = await client_in(client, client_for, post.workspace)
            await poster.chat_postMessage(channel=post.channel, text=post.text)
        except Exception:  # the day's digest is lost, the sweep goes on
            log.exception("the daily digest for %s could not be posted", post.channel)
    return len(posts)
