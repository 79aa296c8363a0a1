"""Who may act on what: the one check every help desk click goes through first."""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.services import BotServices
from controllers.tickets import Ticket
from core.access import same_workspace
from core.errors import UnknownDecision
from core.records import Decision

log = logging.getLogger(__name__)


def is_admin(services: BotServices, user: str) -> bool:
    """On-call engineers and admins (`[access] oncall_users`)."""
    return user in services.settings.access.oncall_users


def decision_in(services: BotServices, decision_id: str, team: str | None) -> Decision | None:
    """The decision, when it is one of Slack workspace `team`'s (blocking); None for another
    workspace's, as for one that does not exist, so a click or a reaction from elsewhere
    changes and tells nothing of it."""
    try:
        decision = services.brain.get_decision(decision_id)
    except UnknownDecision:
        return None
    return decision if same_workspace(decision.team, team) else None


def owns_decision(
    services: BotServices, user: str, decision_id: str, team: str | None = None
) -> bool:
    """The decision is `user`'s own (they asked it), or `user` is an admin, of the same Slack
    workspace `team` (blocking)."""
    decision = decision_in(services, decision_id, team)
    return decision is not None and (decision.user == user or is_admin(services, user))


async def team_members(services: BotServices, client: AsyncWebClient, team: str | None) -> set[str]:
    """The people of a configured team: its `members` plus its Slack user group's (an
    unknown group or a Slack error gives only the listed members: never more rights)."""
    config = services.settings.helpdesk.teams.get(team or "")
    if config is None:
        return set()
    members = set(config.members)
    if config.usergroup:
        try:
            found = await client.usergroups_users_list(usergroup=config.usergroup)
            members.update(str(u) for u in found.get("users") or [])
        except SlackApiError as exc:
            log.warning(
                "cannot list user group %s: %s", config.usergroup, exc.response.get("error")
            )
    return members


def may_change_ticket(services: BotServices, user: str, ticket: Ticket, team: set[str]) -> bool:
    """Resolve, Reopen, Hand to team, rate: the requester, a member of its team, an admin."""
    return user == ticket.requester or user in team or is_admin(services, user)


def may_claim_ticket(services: BotServices, user: str, team: set[str]) -> bool:
    """Claim: a member of the ticket's team, or an admin (a requester cannot self-assign)."""
    return user in team or is_admin(services, user)


async def oncall_people(
    services: BotServices, client: AsyncWebClient, mention: str | None = None
) -> set[str] | None:
    """Who is on call: the members of the user group `mention` (default
    `BRAIN_ONCALL_MENTION`; a channel's `[helpdesk.paging]` may name its own) names (read with
    `usergroups.users.list`; a Slack error gives nobody: never more rights), or the user it
    names, plus `[access] oncall_users`; None when nobody is named (whoever is in the on-call
    channel is on call)."""
    if mention is None:
        mention = services.settings.slack.oncall_mention
    mention = (mention or "").strip().strip("<>@!")
    mention = mention.removeprefix("subteam^").split("|", 1)[0]
    people = set(services.settings.access.oncall_users)
    if mention.startswith("S"):
        try:
            found = await client.usergroups_users_list(usergroup=mention)
        except SlackApiError as exc:
            log.warning("cannot read the members of %s: %s", mention, exc.response.get("error"))
            return people
        return people | {str(u) for u in found.get("users") or []}
    if mention.startswith(("U", "W")):
        return people | {mention}
    return None


async def may_resolve(
    services: BotServices, client: AsyncWebClient, user: str, channel: str
) -> bool:
    """Resolve a request sent to a person (`bot.helpdesk.resolutions`): in the on-call channel
    whoever is on call, in a team's channel its members, anywhere an admin."""
    if is_admin(services, user):
        return True
    if channel and channel == services.settings.slack.oncall_channel:
        people = await oncall_people(services, client)
        return people is None or user in people
    for name, team in services.settings.helpdesk.teams.items():
        if team.channel and team.channel == channel:
            return user in await team_members(services, client, name)
    return False
