"""The Jira client against the fake Jira Service Management site: each call's answer, and how
each kind of failure reads (try again, perhaps done; or refused)."""

from __future__ import annotations

import pytest

from controllers.ticket_systems.jira_client import (
    JiraClient,
    JiraRejected,
    JiraUnavailable,
)
from tests.fakes.jira_api import BOT_ACCOUNT, EMAIL, SERVICE_DESK_ID, FakeJira


def _file(client: JiraClient, label: str = "brain-INC-000001") -> str:
    issue = client.create_request(
        service_desk_id=SERVICE_DESK_ID,
        request_type_id="10",
        summary="VPN drops every hour",
        description="error 691",
        labels=["brain", label],
    )
    return issue.key


def test_a_request_is_filed_read_commented_and_transitioned(
    fake_jira: FakeJira, jira_client: JiraClient
) -> None:
    key = _file(jira_client)
    issue = jira_client.request(key)
    assert (issue.status, issue.category) == ("Waiting for support", "new")
    assert set(issue.labels) == {"brain", "brain-INC-000001"}

    comment = jira_client.add_comment(key, "still broken after a restart")
    assert comment.author_id == BOT_ACCOUNT == jira_client.myself()
    fake_jira.agent_comment(key, "looking into it")
    fake_jira.agent_comment(key, "note for agents only", public=False)
    bodies = [(c.body, c.public) for c in jira_client.comments(key)]
    assert bodies == [
        ("still broken after a restart", True),
        ("looking into it", True),
        ("note for agents only", False),
    ]

    resolve = next(
        t
        for t in jira_client.transitions(key)
        if t.to_category == "done" and t.to_status == "Resolved"
    )
    jira_client.transition(key, resolve.id)
    assert jira_client.request(key).category == "done"
    assert {t.name for t in jira_client.transitions(key)} == {"Close", "Reopen"}


def test_search_finds_requests_by_label_and_recent_change(
    fake_jira: FakeJira, jira_client: JiraClient
) -> None:
    first = _file(jira_client, "brain-INC-000001")
    _file(jira_client, "brain-INC-000002")
    assert [i.key for i in jira_client.search('labels = "brain-INC-000001"')] == [first]
    assert len(jira_client.search('labels = "brain" AND updated >= -5m')) == 2
    with pytest.raises(JiraRejected) as refused:
        jira_client.search("summary ~ vpn")
    assert refused.value.status == 400


def test_failures_say_whether_the_call_may_have_been_done(
    fake_jira: FakeJira, jira_client: JiraClient
) -> None:
    key = _file(jira_client)
    fake_jira.fail_next(1, "error")
    with pytest.raises(JiraUnavailable) as error:
        jira_client.add_comment(key, "first")
    assert error.value.maybe_done  # a 500 after a write: Jira may have done it
    assert [c.body for c in fake_jira.issues[key].comments] == []

    fake_jira.fail_next(1, "drop")
    with pytest.raises(JiraUnavailable) as dropped:
        jira_client.add_comment(key, "second")
    assert dropped.value.maybe_done
    assert [c.body for c in fake_jira.issues[key].comments] == ["second"]

    fake_jira.fail_next(1, "timeout")
    with pytest.raises(JiraUnavailable) as slow:
        jira_client.add_comment(key, "third")
    assert slow.value.maybe_done
    assert [c.body for c in fake_jira.issues[key].comments] == ["second", "third"]

    fake_jira.fail_next(1, "throttled")
    with pytest.raises(JiraUnavailable) as throttled:
        jira_client.add_comment(key, "fourth")
    assert not throttled.value.maybe_done  # 429: refused before anything was done

    with fake_jira.down(), pytest.raises(JiraUnavailable) as down:
        jira_client.request(key)
    assert not down.value.maybe_done
    assert jira_client.request(key).key == key  # up again


def test_a_share_of_calls_fails_the_same_way_in_every_run() -> None:
    outcomes = []
    for _ in range(2):
        with FakeJira() as fake:
            fake.fail_share(0.3, seed=7, modes=("error",))
            client = JiraClient(fake.url, email=EMAIL, token="jira-api-token-for-tests")
            run = []
            for _ in range(40):
                try:
                    client.myself()
                    run.append(True)
                except JiraUnavailable:
                    run.append(False)
            client.close()
            outcomes.append(run)
    assert outcomes[0] == outcomes[1]
    assert 4 <= outcomes[0].count(False) <= 20


def test_a_wrong_token_is_refused_and_never_in_the_message(fake_jira: FakeJira) -> None:
    client = JiraClient(fake_jira.url, email=EMAIL, token="not-the-token-123")
    with pytest.raises(JiraRejected) as refused:
        client.myself()
    client.close()
    assert refused.value.status == 401
    assert "not-the-token-123" not in str(refused.value)


def test_a_site_that_is_not_there_cannot_have_done_anything() -> None:
    with FakeJira() as fake:
        url = fake.url
    client = JiraClient(url, email=EMAIL, token="x", timeout_s=0.5)
    with pytest.raises(JiraUnavailable) as refused:
        client.add_comment("IT-1", "hello")
    client.close()
    assert not refused.value.maybe_done
