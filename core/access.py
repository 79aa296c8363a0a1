"""Who may see what is not theirs: one rule for tickets and decisions.

Everything the brain keeps about a message belongs to its owner (the user who asked) in the
channel it was asked in. `may_see` answers whether a viewer (a user, asking from a channel)
may see the contents; the policy is `[access] visible_to` (`core.config.AccessConfig`).
Surfaces that cannot tell who is asking (the local `brain` CLI run by an admin with access to
the home's files) pass no viewer and see everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.config import AccessConfig


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking, and from where."""

    user: str
    channel: str | None = None


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """The configured visibility rule (defaults: the requester and on-call)."""

    visible_to: frozenset[str] = frozenset({"requester", "oncall"})
    oncall_users: frozenset[str] = frozenset()

    @classmethod
    def of(cls, config: AccessConfig) -> AccessPolicy:
        """The policy a home's configuration sets."""
        return cls(frozenset(config.visible_to), frozenset(config.oncall_users))

    def may_see(self, *, owner: str, channel: str | None, viewer: Viewer | None) -> bool:
        """True when `viewer` may see what `owner` asked in `channel` (no viewer: an admin)."""
        if viewer is None:
            return True
        if "requester" in self.visible_to and viewer.user == owner:
            return True
        if "oncall" in self.visible_to and viewer.user in self.oncall_users:
            return True
        return bool("channel" in self.visible_to and channel and viewer.channel == channel)
