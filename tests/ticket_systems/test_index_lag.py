"""A filing whose answer was lost is found again even while Jira's search index has not caught
up with it: the retry reads the issues filed since by key (consistent), from the highest key
known before the filing was first sent, instead of trusting a search that misses it."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from cli import main
from controllers.tickets import TicketStore
from tests.fakes.jira_api import FakeJira

SyncedHome = Callable[..., TicketStore]
#: The index never catches up within a test: a search finds no issue filed in it.
NEVER = 3600.0


def _sync(capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    main(["tickets", "sync", "--json"])
    figures: dict[str, int] = json.loads(capsys.readouterr().out)
    return figures


def _file(store: TicketStore, title: str) -> str:
    ticket = store.create(
        "incident", title=title, requester="U1", fields={"description": title, "channel": "C1"}
    )
    return ticket.id


@pytest.mark.parametrize("mode", ["drop", "timeout"])
def test_a_filing_retried_within_the_index_lag_is_filed_once(
    mode: str, synced_home: SyncedHome, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_jira.index_lag_s = NEVER
    store = synced_home()
    first = _file(store, "VPN drops every hour")
    assert _sync(capsys)["sent"] == 1  # IT-1: the highest key known from now on
    lost = _file(store, "printer jams on floor 3")
    fake_jira.fail_next(1, mode, path="/rest/servicedeskapi/request")
    figures = _sync(capsys)  # filed in Jira as IT-2, the answer lost
    assert figures["sent"] == 0 and figures["retrying"] == 1
    later = _file(store, "no access to the shared drive")
    for _ in range(20):  # the later ticket is filed (IT-3) before or after the retry
        if _sync(capsys)["pending"] == 0:
            break
    assert [len(fake_jira.by_label(f"brain-{t}")) for t in (first, lost, later)] == [1, 1, 1]
    (issue,) = fake_jira.by_label(f"brain-{lost}")
    assert store.find(lost).fields["jira_key"] == issue.key == "IT-2"
    assert len(fake_jira.issues) == 3
