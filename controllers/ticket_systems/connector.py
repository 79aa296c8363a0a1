"""The Jira connector of a brain home: the ticket store's outbox, the client (credentials from
the environment variables `[tickets.jira]` names), the sender and the poll, in one object a
surface or a command runs."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from controllers.ticket_systems.inbound import JiraNews, PollResult, poll
from controllers.ticket_systems.jira_client import JiraClient
from controllers.ticket_systems.outbox import Outbox
from controllers.ticket_systems.recovery import recover
from controllers.ticket_systems.sender import Sender, SendReport

if TYPE_CHECKING:
    import httpx

    from controllers.tickets import TicketStore
    from core.config import Settings
    from core.ticket_systems import JiraConfig

__all__ = ["JiraConnector", "JiraNews", "PollResult", "SendReport"]

#: How long a sent change is kept (to see what was sent when).
KEEP_SENT_S = 7 * 24 * 3600.0


class JiraConnector:
    """Sends a home's queued ticket changes to Jira and reads Jira's changes back."""

    def __init__(
        self,
        config: JiraConfig,
        outbox: Outbox,
        tickets: TicketStore,
        client: JiraClient,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.outbox = outbox
        self.tickets = tickets
        self.client = client
        self.clock = clock
        self.sender = Sender(client, outbox, tickets, config, clock)

    @classmethod
    def open(
        cls,
        settings: Settings,
        tickets: TicketStore,
        *,
        env: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> JiraConnector | None:
        """The connector of the ticket store (None when no Jira is configured); raises
        `ConfigError` naming the environment variables that are missing."""
        config = settings.tickets.jira
        outbox = tickets.outbox
        if config is None or not isinstance(outbox, Outbox):
            return None
        email, token = config.credentials(env)
        client = JiraClient(
            config.base_url, email=email, token=token, timeout_s=config.timeout_s,
            transport=transport,
        )  # fmt: skip
        return cls(config, outbox, tickets, client)

    def recover(self) -> int:
        """Queue the recent changes a crash left out of the outbox (at start; how many)."""
        return recover(self.outbox, self.tickets)

    def send_due(self) -> SendReport:
        """Send the changes that are due (see `controllers.ticket_systems.sender`)."""
        return self.sender.send_due()

    def poll(self) -> PollResult:
        """Apply the changes made in Jira since the last poll; what to announce. Changes
        sent more than `KEEP_SENT_S` ago are dropped from the outbox meanwhile."""
        result = poll(
            self.client, self.outbox, self.tickets, self.config, self.sender.myself(), self.clock
        )
        self.outbox.forget_sent(KEEP_SENT_S)
        return result

    def close(self) -> None:
        """Release the HTTP connections."""
        self.client.close()
