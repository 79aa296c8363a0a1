"""An issue an agent moves to another project in Jira (a hand-off made there) keeps syncing
under its new key, and a move to a team's desk hands the ticket to that team here."""

from __future__ import annotations

import json

import pytest

from cli import main
from tests.fakes.jira_api import FakeJira
from tests.ticket_systems.test_outbox import SyncedHome, _file

NETWORK_DESK = (
    '[tickets.jira.desks.network]\nservice_desk_id = "7"\nrequest_types = { default = "70" }\n'
)


def _sync(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, int]:
    main(["tickets", "sync", "--json", *options])
    figures: dict[str, int] = json.loads(capsys.readouterr().out)
    return figures


def test_an_issue_moved_to_a_teams_desk_keeps_syncing_and_hands_the_ticket_over(
    synced_home: SyncedHome, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_jira.desk_projects["7"] = "NET"
    store = synced_home(NETWORK_DESK)
    ticket_id = _file(store)
    _sync(capsys)
    assert store.get(ticket_id).fields["jira_key"] == "IT-1"
    moved = fake_jira.agent_move("IT-1", "NET")
    fake_jira.agent_assign(moved, "557058:nora", "Nora Network")
    fake_jira.agent_comment(moved, "Moved to networking, looking at the tunnel now.")

    assert _sync(capsys, "--poll")["read_back"] == 3  # the move, the assignee, the comment
    ticket = store.get(ticket_id)
    assert (ticket.fields["jira_key"], ticket.team) == ("NET-1", "network")
    assert ticket.assignee == "jira:Nora Network"
    assert [c["text"] for c in ticket.comments if c["by"] == "jira:Alice Agent"] == [
        "Moved to networking, looking at the tunnel now."
    ]
    assert _sync(capsys)["pending"] == 0  # nothing of the move is sent back

    store.comment(ticket_id, author="U1", text="it drops at 5 pm every day")
    _sync(capsys)
    (issue,) = fake_jira.by_label(f"brain-{ticket_id}")
    assert issue.key == "NET-1" and issue.comments[-1].body.endswith("it drops at 5 pm every day")
    assert _sync(capsys, "--poll")["read_back"] == 0
