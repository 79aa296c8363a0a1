"""Two-way sync with Jira Service Management through the Slack app over HTTP, against the fake
Slack and the fake Jira: a ticket filed in Slack appears in Jira, an agent's comment and
status change in Jira appear in the thread, a Resolve in Slack resolves the issue in Jira,
nothing echoes back, Jira down for a while loses nothing, and Jira's signed webhook makes the
bot read Jira at once."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from collections.abc import Callable, Iterator

import pytest

from bot import ticket_view as view
from bot.helpdesk.jira_sync import WEBHOOK_PATH
from bot.server import EVENTS_PATH
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness, StartBot
from tests.bot.test_ticket_lifecycle import TEAM_CONFIG, as_message, click, file_ticket
from tests.bot.test_workspaces import event_of, install
from tests.bot.test_workspaces import oauth_env as oauth_env  # the fixture, used by name
from tests.fakes.jira_api import API_TOKEN, EMAIL, FakeIssue, FakeJira
from tests.fakes.slack_api import Call
from tests.ticket_systems.config import jira_config


@pytest.fixture
def fake_jira(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeJira]:
    monkeypatch.setenv("JIRA_EMAIL", EMAIL)
    monkeypatch.setenv("JIRA_API_TOKEN", API_TOKEN)
    with FakeJira(timeout_delay_s=0.6) as fake:
        yield fake


async def until(check: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    """Wait for the bot's background rounds to make `check` true."""
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not seen in {timeout}s: {what}")


def has_asked(history: list[dict[str, object]], ts: str) -> bool:
    """Is the satisfaction question posted as `ts` recorded (what binds its buttons)?"""
    return any(entry.get("event") == "asked" and entry.get("ts") == ts for entry in history)


def the_issue(fake: FakeJira, ticket_id: str) -> FakeIssue | None:
    found = fake.by_label(f"brain-{ticket_id}")
    assert len(found) <= 1, "filed twice"
    return found[0] if found else None


def in_thread(harness: Harness, thread: str, words: str) -> list[Call]:
    return [
        c
        for c in harness.fake.of("chat.postMessage")
        if c.params.get("thread_ts") == thread and words in str(c.params.get("text"))
    ]


async def test_a_ticket_goes_both_ways_between_slack_and_jira(
    start_bot: StartBot, fake_jira: FakeJira
) -> None:
    harness = await start_bot(jira_config(fake_jira.url))
    event, reply, ticket_id = await file_ticket(harness)
    thread = event["ts"]
    await until(lambda: the_issue(fake_jira, ticket_id), "the ticket filed in Jira")
    issue = the_issue(fake_jira, ticket_id)
    assert issue is not None and "VPN" in issue.summary
    store = harness.brain.services.tickets
    await until(lambda: store.get(ticket_id).fields.get("jira_key"), "the key on the ticket")
    assert store.get(ticket_id).fields["jira_key"] == issue.key

    # An agent works it in Jira: the thread hears of it, once each.
    fake_jira.agent_comment(issue.key, "Please reinstall the VPN client <!channel>")
    fake_jira.agent_comment(issue.key, "internal: user on old client", public=False)
    fake_jira.agent_transition(issue.key, "In Progress")
    fake_jira.agent_assign(issue.key, "557058:alice", "Alice <Agent>")
    await until(lambda: in_thread(harness, thread, "answered in Jira"), "the agent's comment")
    await until(lambda: in_thread(harness, thread, "*In Progress*"), "the status change")
    await until(lambda: in_thread(harness, thread, "assigned to *Alice &lt;Agent&gt;*"), "who")
    assert store.get(ticket_id).assignee == "jira:Alice <Agent>"
    (said,) = in_thread(harness, thread, "answered in Jira")
    assert "Alice Agent" in said.params["text"] and "&lt;!channel&gt;" in said.params["text"]
    assert not in_thread(harness, thread, "internal")
    ticket = store.get(ticket_id)
    assert ("jira:Alice Agent", "Please reinstall the VPN client <!channel>") in [
        (c["by"], c["text"]) for c in ticket.comments
    ]

    # Resolve in Slack: the issue is resolved in Jira, and that is not announced back.
    await click(harness, "UASKER01", as_message(harness, reply), event["channel"],
                view.ACTION_RESOLVE, view.BLOCK_TICKET + ticket_id, value=ticket_id)  # fmt: skip
    await until(lambda: "Resolved" in issue.status_history, "the Resolve reaching Jira")
    fake_jira.agent_comment(issue.key, "Closing note: fixed by the new profile.")
    await until(lambda: in_thread(harness, thread, "Closing note"), "a later comment")
    assert not in_thread(harness, thread, "*Resolved* in Jira")
    assert [c.body for c in issue.comments if c.author_id.startswith("agent:")] == [
        "Please reinstall the VPN client <!channel>",
        "internal: user on old client",
        "Closing note: fixed by the new profile.",
    ]
    assert len(issue.comments) == 3  # nothing the agent wrote came back as ours
    assert len(in_thread(harness, thread, "answered in Jira")) == 2


#: Two teams, each with its own Jira desk (project NET for netops, APP for apps).
DESKS = "".join(
    f'[tickets.jira.desks.{team}]\nservice_desk_id = "{desk}"\n'
    'request_types = { default = "1" }\n'
    for team, desk in (("netops", "7"), ("apps", "8"))
)


async def test_an_issue_moved_to_a_teams_desk_in_jira_is_handed_to_that_team_in_slack(
    start_bot: StartBot, fake_jira: FakeJira
) -> None:
    fake_jira.desk_projects.update({"7": "NET", "8": "APP"})
    apps = '[helpdesk.teams.apps]\nchannel = "CAPPS0001"\n'
    harness = await start_bot(TEAM_CONFIG + apps + jira_config(fake_jira.url, extra=DESKS))
    event, _, ticket_id = await file_ticket(harness)  # an incident: netops's, on its desk
    await until(lambda: the_issue(fake_jira, ticket_id), "the ticket filed in Jira")
    issue = the_issue(fake_jira, ticket_id)
    assert issue is not None and issue.key == "NET-1"
    fake_jira.agent_move(issue.key, "APP")  # an agent moves it to the apps desk
    await until(lambda: in_thread(harness, event["ts"], "to team *apps*"), "the move")
    store = harness.brain.services.tickets
    assert (store.get(ticket_id).team, store.get(ticket_id).fields["jira_key"]) == ("apps", "APP-1")
    told = lambda: [  # noqa: E731
        c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == "CAPPS0001"
    ]
    await until(told, "the apps team's channel told, with its Claim button")
    assert ticket_id in json.dumps(told()[0].params.get("blocks"))


async def test_jira_down_for_a_while_loses_nothing(
    start_bot: StartBot, fake_jira: FakeJira
) -> None:
    harness = await start_bot(jira_config(fake_jira.url))
    with fake_jira.down():
        event, reply, ticket_id = await file_ticket(harness)
        message = as_message(harness, reply)
        block = view.BLOCK_TICKET + ticket_id
        await click(harness, "UASKER01", message, event["channel"], view.ACTION_RESOLVE, block,
                    value=ticket_id)  # fmt: skip
        await until(
            lambda: sum(c.failure == "unavailable" for c in fake_jira.calls) >= 3,
            "the sender trying while Jira is down",
        )
        assert fake_jira.issues == {}
    await until(
        lambda: (issue := the_issue(fake_jira, ticket_id)) and issue.status_history,
        "the filing and the Resolve after Jira is back",
    )
    issue = the_issue(fake_jira, ticket_id)
    assert issue is not None and issue.status_history == ["Resolved"]


async def test_jiras_webhook_makes_the_bot_read_jira_at_once(
    start_bot: StartBot, fake_jira: FakeJira, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JIRA_WEBHOOK_SECRET", "whsec-for-tests")
    config = jira_config(
        fake_jira.url, poll_every_s=3600, extra='webhook_secret_env = "JIRA_WEBHOOK_SECRET"\n'
    )
    harness = await start_bot(config)
    event, _, ticket_id = await file_ticket(harness)
    await until(lambda: the_issue(fake_jira, ticket_id), "the ticket filed in Jira")
    issue = the_issue(fake_jira, ticket_id)
    assert issue is not None
    fake_jira.agent_comment(issue.key, "We replaced the VPN profile.")
    body = json.dumps({"webhookEvent": "comment_created", "issue": {"key": issue.key}}).encode()
    hook = harness.url.replace(EVENTS_PATH, WEBHOOK_PATH)
    async with harness.session.post(hook, data=body) as unsigned:
        assert unsigned.status == 401
    signature = "sha256=" + hmac.new(b"whsec-for-tests", body, hashlib.sha256).hexdigest()
    headers = {"X-Hub-Signature": signature, "Content-Type": "application/json"}
    async with harness.session.post(hook, data=body, headers=headers) as signed:
        assert signed.status == 200
    await until(lambda: in_thread(harness, event["ts"], "We replaced"), "the comment, at once")


async def test_resolved_in_jira_asks_the_requester_and_their_thumbs_up_closes_it_in_jira(
    start_bot: StartBot, fake_jira: FakeJira
) -> None:
    harness = await start_bot(jira_config(fake_jira.url))
    event, _, ticket_id = await file_ticket(harness)
    await until(lambda: the_issue(fake_jira, ticket_id), "the ticket filed in Jira")
    issue = the_issue(fake_jira, ticket_id)
    assert issue is not None
    fake_jira.agent_transition(issue.key, "Resolved")
    await until(lambda: in_thread(harness, event["ts"], "Did this solve it?"), "the question")
    store = harness.brain.services.tickets
    assert store.get(ticket_id).status == "resolved"
    (question,) = in_thread(harness, event["ts"], "Did this solve it?")
    # The question binds the 👍 once its message is recorded in the history, a moment after it
    # is posted (the Jira loop, which `harness.idle()` does not wait for, records it).
    message = as_message(harness, question)
    await until(lambda: has_asked(store.get(ticket_id).history, message["ts"]), "it recorded")
    await click(harness, "UASKER01", message, event["channel"],
                view.ACTION_RATE_UP, view.BLOCK_RATE + ticket_id, value=ticket_id)  # fmt: skip
    assert store.get(ticket_id).status == "closed"
    await until(lambda: issue.status_history == ["Resolved", "Closed"], "closed in Jira")


@pytest.mark.usefixtures("oauth_env")
async def test_with_many_workspaces_jiras_news_is_posted_with_the_tickets_workspace_token(
    start_bot: StartBot, fake_jira: FakeJira
) -> None:
    harness = await start_bot(jira_config(fake_jira.url))
    await install(harness, "T0000001", "xoxb-one")
    await install(harness, "T0000002", "xoxb-two")
    event = p.message(ROUTED_TEXT, user="UTWO0001", channel="DTWO0001")
    status, _ = await harness.post(event_of("T0000002", event), content_type="application/json")
    assert status == 200
    await harness.idle()
    store = harness.brain.services.tickets
    (ticket,) = store.list_by_requester("UTWO0001")
    assert ticket.slack_team == "T0000002"
    await until(lambda: the_issue(fake_jira, ticket.id), "the ticket filed in Jira")
    issue = the_issue(fake_jira, ticket.id)
    assert issue is not None
    fake_jira.agent_comment(issue.key, "Fixed on our side.")
    await until(lambda: in_thread(harness, event["ts"], "Fixed on our side"), "the comment")
    (said,) = in_thread(harness, event["ts"], "Fixed on our side")
    assert said.params["_authorization"] == "Bearer xoxb-two"
