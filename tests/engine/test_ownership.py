"""Who may see what: a ticket is shown only to its requester and on-call (the default policy),
through `brain ask` and its `--json` output alike."""

from __future__ import annotations

import json

import pytest

from cli import main
from controllers.tickets import TicketStore
from core.config import load_settings

TITLE = "payroll export broken for finance"
DESCRIPTION = "the export job fails at step 3; VPN account fin-svc"


def _seed_ticket() -> str:
    store = TicketStore.open(load_settings())
    ticket = store.create(
        "incident",
        title=TITLE,
        requester="UOWNER01",
        fields={"description": DESCRIPTION, "channel": "COWNER01"},
    )
    return ticket.id


def _ask(capsys: pytest.CaptureFixture[str], text: str, user: str, channel: str) -> str:
    assert main(["ask", text, "--json", "--user", user, "--channel", channel]) == 0
    return capsys.readouterr().out


@pytest.mark.usefixtures("home")
def test_another_users_lookup_shows_nothing_of_the_ticket(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_ONCALL_USERS", "UONCALL01")
    ticket_id = _seed_ticket()
    text = f"show ticket {ticket_id}"

    theirs = _ask(capsys, text, "UOTHER01", "COTHER01")
    decision = json.loads(theirs)
    assert decision["controller"] == "ticket"  # it was routed, and still shows nothing
    assert TITLE not in theirs and DESCRIPTION not in theirs
    assert "was not found" in decision["result"]["summary"]
    # an id that does not exist reads the same: existence cannot be probed
    unknown = json.loads(_ask(capsys, "show ticket INC-999999", "UOTHER01", "COTHER01"))
    assert (
        unknown["result"]["summary"].replace("INC-999999", ticket_id)
        == (decision["result"]["summary"])
    )
    # nor can another user change it
    _ask(capsys, f"please close ticket {ticket_id}", "UOTHER01", "COTHER01")
    assert TicketStore.open(load_settings()).find(ticket_id).status == "open"

    mine = json.loads(_ask(capsys, text, "UOWNER01", "COTHER01"))
    assert TITLE in mine["result"]["summary"]
    oncall = json.loads(_ask(capsys, text, "UONCALL01", "CONCALL01"))
    assert TITLE in oncall["result"]["summary"]


@pytest.mark.usefixtures("home")
def test_the_channel_policy_opens_a_ticket_to_its_channel(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_VISIBLE_TO", "requester,channel")
    ticket_id = _seed_ticket()
    same_channel = _ask(capsys, f"show ticket {ticket_id}", "UOTHER01", "COWNER01")
    assert TITLE in same_channel
    elsewhere = _ask(capsys, f"show ticket {ticket_id}", "UOTHER01", "COTHER01")
    assert TITLE not in elsewhere
