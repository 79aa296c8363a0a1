"""A team's daily digest: at `[helpdesk.teams.<name>] digest_at` (UTC) the sweep posts the
last 24 hours' figures to the team's channel, in the team's `language`: tickets filed, open and
resolved, the mean time to resolve, SLA breaches, and how many messages routed to the team
were right at first touch (`brain.decisions.desk_report`, what `brain stats` prints).

Posted once a day per team whatever the number of replicas: the day's post is claimed in the
event ledger first. A digest due while no bot ran is posted at the next sweep of that day.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from slack_sdk.web.async_client import AsyncWebClient

from bot.services import BotServices
from bot.teams import ticket_store
from bot.wording import say
from brain import DeskReport, desk_report, logged_messages, messages_in
from core.records import Decision
from core.stores.protocols import DecisionPages
from core.teams import TeamConfig

log = logging.getLogger(__name__)

#: A day's messages read at most for one digest.
DIGEST_DECISIONS = 100_000


def due(team: TeamConfig, now: datetime) -> datetime | None:
    """Today's digest time of `team` when it has passed (None: no digest, or not yet)."""
    if team.digest_at is None or not team.channel:
        return None
    at = datetime.combine(now.date(), time.fromisoformat(team.digest_at), tzinfo=now.tzinfo)
    return at if now >= at else None


def team_report(services: BotServices, name: str, end: datetime) -> DeskReport:
    """The figures of the 24 hours before `end` for one team: its tickets and the messages
    routed to a controller it owns."""
    config = services.settings.helpdesk
    start = end - timedelta(days=1)
    messages = [
        d
        for d in _messages_since(services, start)
        if d.controller and config.team_for(d.controller) == name
    ]
    tickets = [t for t in ticket_store(services).all() if t.team == name]
    return desk_report(messages, tickets, config, since=start, now=end)


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


def due_digests(services: BotServices) -> list[tuple[str, str]]:
    """In the brain worker: each team whose digest is due today and not yet claimed, with
    its text (claimed here, so two replicas post it once)."""
    now = ticket_store(services).clock()
    posts = []
    for name, team in services.settings.helpdesk.teams.items():
        at = due(team, now)
        if at is None or not services.events.claim(f"digest:{name}:{at.date().isoformat()}"):
            continue
        posts.append((team.channel or "", wording(name, team, team_report(services, name, at))))
    return posts


async def post_digests(client: AsyncWebClient, posts: list[tuple[str, str]]) -> int:
    """Post the due digests (`due_digests`, read in the sweep's trip); how many."""
    for channel, text in posts:
        try:
            await client.chat_postMessage(channel=channel, text=text)
        except Exception:  # the day's digest is lost, the sweep goes on
            log.exception("the daily digest for %s could not be posted", channel)
    return len(posts)
