"""Settings of the ticket systems local tickets are kept in step with, the `[tickets]` section
of brain.toml: `[tickets.jira]` for Jira Service Management.

A team's tickets go to the desk named for that team (`[tickets.jira.desks.<team>]`), others
to the default desk (`service_desk_id` and `request_types` of `[tickets.jira]`); with neither,
a ticket stays local. The API token is never configured itself: the settings name the
environment variables holding the account's e-mail and token, read when the connector opens.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from core.errors import ConfigError


class JiraDesk(BaseModel):
    """One service desk: its id and the request type of each ticket kind (`default` for the
    kinds not listed)."""

    model_config = ConfigDict(extra="forbid")

    #: The service desk's id (Jira's `serviceDeskId`, e.g. "1").
    service_desk_id: str
    #: Ticket kind (incident, access, change, equipment, ticket) -> request type id.
    request_types: dict[str, str] = Field(default_factory=dict)

    def request_type(self, kind: str) -> str | None:
        """The request type a ticket of `kind` is filed as (None: no type fits)."""
        return self.request_types.get(kind) or self.request_types.get("default")


class JiraConfig(BaseModel):
    """`[tickets.jira]`: where Jira is, whose token to use, which desk takes which tickets,
    and how often changes are sent and Jira is read back."""

    model_config = ConfigDict(extra="forbid")

    #: The Jira site, e.g. "https://acme.atlassian.net".
    base_url: str = Field(pattern=r"^https?://[^\s/]+(/[^\s]*)?$")
    #: Environment variables holding the account's e-mail and API token.
    email_env: str = "JIRA_EMAIL"
    token_env: str = "JIRA_API_TOKEN"
    #: The default desk (None: only the teams' desks below take tickets).
    service_desk_id: str | None = None
    #: Ticket kind -> request type id on the default desk (`default`: the kinds not listed).
    request_types: dict[str, str] = Field(default_factory=dict)
    #: Team name (`[helpdesk.teams]`) -> its own desk.
    desks: dict[str, JiraDesk] = Field(default_factory=dict)
    #: Every synced issue carries this label, and `<label>-<local id>` (how a request whose
    #: creation timed out is found again instead of filed twice). The request types need the
    #: Labels field (it may be hidden from the portal).
    label: str = Field("brain", pattern=r"^[A-Za-z0-9_.-]+$")
    #: Seconds of one HTTP call before it counts as failed (and is retried).
    timeout_s: float = Field(10.0, gt=0, le=120)
    #: How often the bot sends the changes that are due (seconds).
    send_every_s: float = Field(2.0, gt=0, le=3600)
    #: How often the bot reads Jira for the changes made there (seconds).
    poll_every_s: float = Field(60.0, gt=0, le=86400)
    #: Backoff of a failed change: `retry_base_s` doubled per attempt, at most `retry_max_s`.
    retry_base_s: float = Field(2.0, gt=0, le=3600)
    retry_max_s: float = Field(300.0, gt=0, le=86400)
    #: The environment variable holding the secret of Jira's webhook (unset: no webhook; the
    #: bot then learns of Jira's changes by polling only). With it, `POST /jira/webhook` on
    #: the bot's server makes the next poll happen at once.
    webhook_secret_env: str | None = None
    #: Transition names to use (by what they do: "resolve", "close", "reopen", "progress");
    #: unset, the transition leading to a status of the right category (and name) is chosen.
    transitions: dict[str, str] = Field(default_factory=dict)
    #: Slack user id -> Jira account id: a Claim in Slack by one of them assigns the issue to
    #: their account, and an issue assigned in Jira to one of these accounts is assigned to
    #: that person here (another account: to "jira:<its name>"). Unlisted people's claims
    #: leave Jira's assignee as it is; a hand-off to a team unassigns the issue in both.
    people: dict[str, str] = Field(default_factory=dict)

    def desk_for(self, team: str | None) -> JiraDesk | None:
        """The desk a ticket queued for `team` goes to (None: it stays local)."""
        if team and team in self.desks:
            return self.desks[team]
        if self.service_desk_id:
            return JiraDesk(service_desk_id=self.service_desk_id, request_types=self.request_types)
        return None

    def credentials(self, env: Mapping[str, str] | None = None) -> tuple[str, str]:
        """(e-mail, API token) from the environment; a `ConfigError` names what is missing."""
        env = os.environ if env is None else env
        email, token = env.get(self.email_env, ""), env.get(self.token_env, "")
        missing = [
            name for name, value in ((self.email_env, email), (self.token_env, token)) if not value
        ]
        if missing:
            raise ConfigError(
                f"[tickets.jira] needs the environment variable(s) {', '.join(missing)} "
                "(the Jira account's e-mail and API token)"
            )
        return email, token


class TicketSystemsConfig(BaseModel):
    """`[tickets]`: the ticket systems kept in step with the local tickets (none by default)."""

    model_config = ConfigDict(extra="forbid")

    jira: JiraConfig | None = None
