"""Through `brain ask` and `brain tickets sync`: a request filed from the command line goes
to Jira, and a comment, a close and a reopen said to the brain follow it there."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import main
from core.files import copy_tree
from tests.cli_calls import all_tickets, ask_json
from tests.fakes.jira_api import FakeJira
from tests.ticket_systems.config import jira_config


@pytest.fixture
def home(isolated_env: Path, fitted_home: Path, fake_jira: FakeJira, jira_env: None) -> Path:
    copy_tree(fitted_home, isolated_env, dirs_exist_ok=True)
    (isolated_env / "brain.toml").write_text(jira_config(fake_jira.url), encoding="utf-8")
    return isolated_env


def _sync(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tickets", "sync"]) == 0
    assert "pending 0" in capsys.readouterr().out


def test_what_is_said_to_the_brain_follows_the_ticket_to_jira(
    home: Path, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    filed = ask_json(capsys, "my VPN keeps dropping, error 691", "--user", "U1")
    assert filed["controller"] == "incident"
    (ticket,) = all_tickets(capsys)
    ticket_id = ticket["id"]
    _sync(capsys)
    (issue,) = fake_jira.by_label(f"brain-{ticket_id}")
    assert "VPN" in issue.summary and issue.request_type_id == "10"

    ask_json(capsys, f"add a comment to {ticket_id}: it drops every hour", "--user", "U1")
    ask_json(capsys, f"close {ticket_id}", "--user", "U1")
    _sync(capsys)
    assert [c.body for c in issue.comments] == ["U1 (Slack): it drops every hour"]
    assert issue.status_history == ["Closed"]

    ask_json(capsys, f"reopen {ticket_id}, it is back", "--user", "U1")
    _sync(capsys)
    assert issue.status_history == ["Closed", "Waiting for support"]
    (ticket,) = all_tickets(capsys)
    assert ticket["fields"]["jira_key"] == issue.key


def test_a_request_filed_from_the_command_line_goes_to_its_teams_desk(
    home: Path, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    """The team owning the routed controller is the ticket's from its filing, so the outbox
    files it on that team's desk whoever sends it, and whenever: before, only the Slack bot
    wrote the team, in a second update after the filing, so the command line (and a bot whose
    sender ran in between) filed on the default desk."""
    desk = (
        '[tickets.jira.desks.netops]\nservice_desk_id = "7"\nrequest_types = { default = "70" }\n'
    )
    team = '[helpdesk.teams.netops]\nchannel = "CNET00001"\ncontrollers = ["incident"]\n'
    fake_jira.desk_projects["7"] = "NET"
    (home / "brain.toml").write_text(team + jira_config(fake_jira.url, extra=desk), "utf-8")
    assert ask_json(capsys, "my VPN keeps dropping, error 691", "--user", "U1")["controller"] == (
        "incident"
    )
    (ticket,) = all_tickets(capsys)
    assert ticket["fields"]["team"] == "netops"
    _sync(capsys)
    (issue,) = fake_jira.by_label(f"brain-{ticket['id']}")
    assert (issue.service_desk_id, issue.request_type_id, issue.key) == ("7", "70", "NET-1")
