"""`brain stats`: the desk's figures over a period (routing first touch, tickets, MTTR, SLA
breaches by category and team), through the CLI on a home with a team and stored tickets."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cli import exit_codes, main
from controllers.tickets import MOVED_REASON, TicketStore
from core.config import load_settings

NOW = datetime.now(UTC).replace(microsecond=0)

TEAM = """
[helpdesk.teams.desk]
controllers = ["incident"]
sla_s = { P2 = 14400.0, P4 = 259200.0 }
"""


def _store(at: list[datetime]) -> TicketStore:
    """The home's ticket store on a clock the test moves (`at[0]`)."""
    store = TicketStore.open(load_settings())
    store.clock = lambda: at[0]
    return store


def _stats(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["stats", "--json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.usefixtures("isolated_env")
def test_stats_count_first_touch_mttr_and_sla_breaches_by_category_and_team(
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = Path(load_settings().home)
    home.mkdir(parents=True, exist_ok=True)
    (home / "brain.toml").write_text(TEAM, encoding="utf-8")
    at = [NOW - timedelta(hours=10)]
    store = _store(at)
    desk = {"team": "desk"}
    quick = store.create("incident", title="VPN drops", requester="U1",
                         fields={**desk, "urgency": "high"})  # fmt: skip
    at[0] = NOW - timedelta(hours=9)
    store.claim(quick.id, by="H1")  # within its 4 h SLA
    at[0] = NOW - timedelta(hours=6)
    store.resolve(quick.id, by="H1")  # 4 hours after it was filed
    at[0] = NOW - timedelta(hours=100)
    waiting = store.create("incident", title="printer", requester="U2", fields=desk)
    at[0] = NOW - timedelta(hours=2)
    access = store.create("access", title="Jira access", requester="U3")
    at[0] = NOW - timedelta(hours=1)
    store.close(access.id, by="H2", reason="granted")  # 1 hour
    moved = store.create("incident", title="wrong queue", requester="U4")
    store.close(moved.id, by="brain", reason=f"{MOVED_REASON} routed to access")
    at[0] = NOW - timedelta(days=30)
    store.create("incident", title="last month", requester="U5", fields=desk)

    data = _stats(capsys, "--since", "7d")
    team = data["by_team"]["desk"]
    assert team["filed"] == 2 and team["open"] == 1 and team["resolved"] == 1
    assert team["mttr_hours"] == pytest.approx(4.0)
    # Unclaimed for 100 h against a P4 SLA of 72 h; the claimed one waited 1 h of its 4 h.
    assert team["sla_breaches"] == 1 and team["with_sla"] == 2
    assert waiting.id and data["by_category"]["access"]["mttr_hours"] == pytest.approx(1.0)
    incident = data["by_category"]["incident"]
    assert incident["filed"] == 3 and incident["resolved"] == 1  # the moved one is no resolution
    assert data["tickets"]["mttr_hours"] == pytest.approx(2.5)
    assert _stats(capsys, "--since", "60d")["by_team"]["desk"]["filed"] == 3


@pytest.mark.usefixtures("isolated_env")
def test_stats_give_first_touch_accuracy_of_routed_messages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ids = []
    for text in ("my laptop keeps losing the VPN, error 809", "I need access to Jira"):
        assert main(["ask", text, "--json"]) == 0
        ids.append(json.loads(capsys.readouterr().out)["decision_id"])
    assert main(["feedback", ids[1], "--correct", "change", "--user", "cli"]) == 0

    messages = _stats(capsys)["messages"]
    assert messages["messages"] == 2 and messages["routed"] == 2
    assert messages["corrected"] == 1 and messages["first_touch"] == 0.5

    capsys.readouterr()
    assert main(["stats"]) == 0
    text = capsys.readouterr().out
    assert "first-touch right 50.0%" in text and "Tickets 2" in text


@pytest.mark.usefixtures("isolated_env")
def test_a_period_that_is_no_period_is_refused_clearly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["stats", "--since", "last week"]) == exit_codes.USAGE
    assert "7d" in capsys.readouterr().err


@pytest.mark.usefixtures("isolated_env")
def test_an_imported_desks_tickets_are_counted_in_their_own_categories(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An imported desk files generic tickets in its queues (options.category): each queue is
    its own row; an incident's own category (the user's words) is not a queue."""
    store = _store([NOW - timedelta(hours=3)])
    store.create("ticket", title="new monitor", requester="U1", fields={"category": "Hardware"})
    store.create("ticket", title="docking station", requester="U2", fields={"category": "Hardware"})
    store.create("ticket", title="buy a licence", requester="U3", fields={"category": "Purchase"})
    store.create("incident", title="printer jams", requester="U4", fields={"category": "printer"})

    categories = _stats(capsys, "--since", "1d")["by_category"]
    assert {name: row["filed"] for name, row in categories.items()} == {
        "Hardware": 2,
        "Purchase": 1,
        "incident": 1,
    }
