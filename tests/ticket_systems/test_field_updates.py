"""Fields filled in after filing reach Jira: the request's description is written again from
the ticket (each update once, through the outbox, retried like any change)."""

from __future__ import annotations

import pytest

from tests.fakes.jira_api import FakeJira
from tests.ticket_systems.test_outbox import SyncedHome, _file, _sync, _sync_until_sent


def test_fields_filled_in_after_filing_reach_the_jira_request(
    synced_home: SyncedHome, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    store = synced_home()
    ticket_id = _file(store)
    _sync(capsys)
    (issue,) = fake_jira.by_label(f"brain-{ticket_id}")
    assert "building" not in issue.description
    store.update_fields(ticket_id, by="U1", fields={"location": "building 2, floor 3"})
    store.update_fields(ticket_id, by="U1", fields={"device": "ThinkPad T14"})
    fake_jira.fail_next(1, "timeout", path="/rest/api/2/issue")  # done, the answer lost
    _sync_until_sent(capsys)
    assert "location: building 2, floor 3" in issue.description
    assert "device: ThinkPad T14" in issue.description
    assert issue.summary == "VPN drops every hour"
    edits = [c for c in fake_jira.calls if c.method == "PUT" and "/api/2/issue/" in c.path]
    assert len(edits) >= 2  # one per update (a retry rewrites the same state)
