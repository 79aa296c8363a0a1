"""Forgetting a user reaches the ticket-system outbox: their words waiting to be sent never
reach Jira, and the record of what was sent keeps none of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main
from controllers.ticket_systems.outbox import Outbox
from core.stores.forgetting import REDACTED
from tests.fakes.jira_api import FakeJira
from tests.ticket_systems.test_outbox import SyncedHome, _file, _sync

SENT_WORDS = "my manager Priya Raman approved it on the phone"
WAITING_WORDS = "the badge reader at door 4 beeps red for me"


def test_forget_drops_the_users_waiting_changes_and_redacts_the_sent_ones(
    synced_home: SyncedHome,
    fake_jira: FakeJira,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = synced_home()
    mine = _file(store, title="door badge does not open the lab")
    store.comment(mine, author="U1", text=SENT_WORDS)
    theirs = store.create(
        "incident",
        title="projector in room 2 flickers",
        requester="U2",
        fields={"description": "projector in room 2 flickers", "channel": "C2"},
    ).id
    _sync(capsys)  # filed and commented in Jira
    store.comment(mine, author="U1", text=WAITING_WORDS)
    store.comment(theirs, author="U1", text="same projector flickers for me too, ask U1")
    store.comment(theirs, author="U7", text="replaced the lamp")  # not U1's words
    store.resolve(mine, by="UAGENT")  # no words: Jira still learns it was resolved

    assert main(["memory", "forget", "--user", "U1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outbox"] == 2  # the two waiting comments (a sent change keeps no text)

    outbox = store.outbox
    assert isinstance(outbox, Outbox)
    pending = outbox.pending()
    assert sorted((c.ticket_id, c.action, c.by) for c in pending) == sorted(
        [
            (theirs, "comment", "U7"),
            (mine, "resolve", "UAGENT"),
            (mine, "remove", ""),  # the sent comment, removed in Jira (the next test)
            (mine, "update", ""),  # the request rewritten from the redacted ticket
        ]
    )
    assert all(c.text in ("", REDACTED) for c in outbox.all() if c.ticket_id == mine)
    stored = "".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in isolated_env.rglob("*")
        if p.is_file() and "outbox" in str(p)
    )
    for words in (SENT_WORDS, WAITING_WORDS, "same projector flickers"):
        assert words not in stored

    _sync(capsys)  # what is left is sent: nothing of U1's reaches Jira now
    bodies = [c.body for issue in fake_jira.issues.values() for c in issue.comments]
    assert not any(WAITING_WORDS in body or "same projector" in body for body in bodies)


def test_forget_removes_the_comments_posted_in_jira_with_the_users_words(
    synced_home: SyncedHome, fake_jira: FakeJira, capsys: pytest.CaptureFixture[str]
) -> None:
    store = synced_home()
    mine = _file(store, title="door badge does not open the lab")
    theirs = store.create(
        "incident",
        title="projector in room 2 flickers",
        requester="U2",
        fields={"description": "projector in room 2 flickers", "channel": "C2"},
    ).id
    store.comment(mine, author="U1", text=SENT_WORDS)
    store.comment(theirs, author="U1", text="same projector flickers for me too")
    store.comment(theirs, author="U7", text="replaced the lamp")  # not U1's words
    store.comment(mine, author="UAGENT", text="which door exactly?")  # on U1's ticket
    _sync(capsys)  # filed and commented in Jira
    store.comment(mine, author="U1", text=WAITING_WORDS)
    fake_jira.fail_next(1, "drop", path="/comment")  # posted in Jira, the answer lost
    assert _sync(capsys)["retrying"] == 1
    fake_jira.agent_comment(fake_jira.by_label(f"brain-{mine}")[0].key, "try the side door")

    assert main(["memory", "forget", "--user", "U1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # U1's two comments and the agent's on U1's ticket (sent), and the one maybe posted
    assert report["remote_comments"] == 4
    assert report["remote_tickets"] == 1  # U1's request: its summary and description
    figures = _sync(capsys)
    assert figures["pending"] == 0 and figures["failed"] == 0
    bodies = {
        label: [c.body for c in fake_jira.by_label(f"brain-{label}")[0].comments]
        for label in (mine, theirs)
    }
    # What Jira's own agent wrote stays; nothing of U1's is left, and nothing was re-sent
    # redacted from the ticket's history (a dropped comment is kept as dropped, not lost).
    assert bodies == {mine: ["try the side door"], theirs: ["U7 (Slack): replaced the lamp"]}
    (request,) = fake_jira.by_label(f"brain-{mine}")
    assert request.summary == REDACTED and "door badge" not in request.description
    (other,) = fake_jira.by_label(f"brain-{theirs}")
    assert other.summary == "projector in room 2 flickers"  # U2's request is U2's
    assert main(["memory", "forget", "--user", "U1", "--json"]) == 0  # again: nothing more
    assert json.loads(capsys.readouterr().out)["remote_comments"] == 0
