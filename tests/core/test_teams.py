"""Which help-desk team a ticket is queued for: its controller's owner, else the owner of its
category (an imported desk's queue), else the owner of its kind."""

from __future__ import annotations

from core.stores.records import Ticket
from core.teams import HelpdeskConfig, TeamConfig

DESK = HelpdeskConfig(
    teams={
        "netops": TeamConfig(controllers=["incident"]),
        "buyers": TeamConfig(categories=["Purchase"]),
        "service": TeamConfig(categories=["ticket"]),
    }
)


def _ticket(kind: str, **fields: str) -> Ticket:
    return Ticket(id="TKT-000001", kind=kind, title="t", requester="U1", fields=dict(fields))


def test_an_imported_queues_ticket_goes_to_the_team_owning_its_category() -> None:
    """Before, only the ticket's kind was matched: every imported queue's ticket ("ticket")
    went to the team owning kind "ticket", never to the one owning its category."""
    assert DESK.team_of_ticket("purchase", _ticket("ticket", category="Purchase")) == "buyers"
    assert DESK.team_of_ticket("payroll", _ticket("ticket", category="Payroll")) == "service"
    assert DESK.team_of_ticket("incident", _ticket("incident", category="vpn")) == "netops"
    assert DESK.team_of_ticket("change", _ticket("change")) is None
