"""Assignees both ways, through the ticket store and `brain tickets sync`: a Claim here by a
person `[tickets.jira] people` knows assigns the issue to their account, a hand-off to a team
unassigns it, and an assignment made in Jira is applied here (to the Slack user the account
belongs to, else to the name Jira shows), never echoed back."""

from __future__ import annotations

import json

import pytest

from cli import main
from tests.fakes.jira_api import FakeJira
from tests.ticket_systems.test_outbox import SyncedHome, _file

PEOPLE = '[tickets.jira.people]\nUHELPER1 = "557058:helper-one"\nUHELPER2 = "557058:helper-two"\n'


def _sync(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, int]:
    main(["tickets", "sync", "--json", *options])
    figures: dict[str, int] = json.loads(capsys.readouterr().out)
    return figures


def test_assignees_go_both_ways_and_are_not_echoed(
    synced_home: SyncedHome, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    store = synced_home(PEOPLE)
    ticket_id = _file(store)
    store.claim(ticket_id, by="UHELPER1")
    _sync(capsys)
    (issue,) = fake_jira.by_label(f"brain-{ticket_id}")
    assert (issue.status, issue.assignee) == ("In Progress", "557058:helper-one")
    assert _sync(capsys, "--poll")["read_back"] == 0  # its own assignment: not news

    store.hand_to(ticket_id, by="UHELPER1", team="network")
    fake_jira.fail_next(1, "drop", path="/comment")  # the note is made, its answer lost
    _sync(capsys)
    _sync(capsys)
    assert issue.assignee is None
    notes = [(c.body, c.public) for c in issue.comments]  # for agents only, and once
    assert notes == [("Handed to team network in Slack by UHELPER1; unassigned here.", False)]
    assert _sync(capsys, "--poll")["read_back"] == 0  # the connector's own note: not news

    fake_jira.agent_assign(issue.key, "557058:helper-two", "Helper Two")
    assert _sync(capsys, "--poll")["read_back"] == 1
    ticket = store.get(ticket_id)
    assert ticket.assignee == "UHELPER2"
    assert ticket.history[-1]["event"] == "assigned" and ticket.history[-1]["by"] == "jira:IT-1"

    fake_jira.agent_assign(issue.key, "557058:alice", "Alice Agent")  # nobody here knows her
    _sync(capsys, "--poll")
    assert store.get(ticket_id).assignee == "jira:Alice Agent"
    assert _sync(capsys)["pending"] == 0  # nothing that came from Jira is sent back
    assert issue.assignee == "557058:alice"


def test_a_claim_not_sent_yet_wins_over_jiras_older_assignee(
    synced_home: SyncedHome, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    store = synced_home(PEOPLE)
    ticket_id = _file(store)
    _sync(capsys)
    (issue,) = fake_jira.by_label(f"brain-{ticket_id}")
    fake_jira.agent_assign(issue.key, "557058:alice", "Alice Agent")
    store.claim(ticket_id, by="UHELPER2")  # made here before the poll read Alice
    with fake_jira.down():
        main(["tickets", "sync", "--poll", "--json"])  # nothing sent, nothing read
    capsys.readouterr()
    fake_jira.fail_next(1, "unavailable", path="/transitions")  # the Claim waits a round
    _sync(capsys, "--poll")
    assert store.get(ticket_id).assignee == "UHELPER2"  # Alice was not applied over it
    _sync(capsys)
    assert issue.assignee == "557058:helper-two"
