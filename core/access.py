"""Who may see what is not theirs: one rule for tickets and decisions.

Everything the brain keeps about a message belongs to its owner (the user who asked) in the
channel it was asked in. `may_see` answers whether a viewer (a user, asking from a channel)
may see the contents; the policy is `[access] visible_to` (`core.config.AccessConfig`).
Surfaces that cannot tell who is asking (the local `brain` CLI run by an admin with access to
the home's files) pass no viewer and see everything.

Before any of that, a record belongs to its Slack workspace (`same_workspace`): when the bot
serves many workspaces, a viewer of one never sees a record of another, whatever the policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.config import AccessConfig, Settings


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking, and from where."""

    user: str
    channel: str | None = None
    #: The viewer's Slack workspace (None: one workspace, or the CLI).
    team: str | None = None


def many_workspaces(settings: Settings) -> bool:
    """The bot serves many workspaces (Slack's OAuth install: app credentials and no single
    bot token), so records carry their team id and are read per team."""
    slack = settings.slack
    return bool(slack.client_id and slack.client_secret and not slack.bot_token)


def same_workspace(record_team: str | None, viewer_team: str | None) -> bool:
    """A record is read only from its own workspace; a viewer without one (one workspace,
    the CLI, an admin console unfiltered) sees every record. A record without a team (made in
    the CLI) is never shown in a workspace of a many-workspace install."""
    return viewer_team is None or record_team == viewer_team


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """The configured visibility rule (defaults: the requester and on-call)."""

    visible_to: frozenset[str] = frozenset({"requester", "oncall"})
    oncall_users: frozenset[str] = frozenset()

    @classmethod
    def of(cls, config: AccessConfig) -> AccessPolicy:
        """The policy a home's configuration sets."""
        return cls(frozenset(config.visible_to), frozenset(config.oncall_users))

    def may_see(
        self, *, owner: str, channel: str | None, viewer: Viewer | None, team: str | None = None
    ) -> bool:
        """True when `viewer` may see what `owner` asked in `channel` of workspace `team` (no
        viewer: an admin)."""
        if viewer is None:
            return True
        if not same_workspace(team, viewer.team):
            return False
        if "requester" in self.visible_to and viewer.user == owner:
            return True
        if "oncall" in self.visible_to and viewer.user in self.oncall_users:
            return True
        return bool("channel" in self.visible_to and channel and viewer.channel == channel)
