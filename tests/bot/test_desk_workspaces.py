"""The help desk's background posts with many workspaces (OAuth installs, no shared bot
token), over HTTP against the fake Slack: the bot's own sweep loop nudges each workspace's
stale ticket and posts each workspace's daily digest with that workspace's token, a digest
holds only its workspace's figures, and an unacknowledged page is re-sent with its
workspace's token."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, time, timedelta

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ONCALL_CHANNEL, ROUTED_TEXT, Harness, StartBot
from tests.bot.test_ticket_lifecycle import TEAM_CHANNEL, TEAM_CONFIG, SimClock
from tests.bot.test_workspaces import event_of, install
from tests.bot.test_workspaces import oauth_env as oauth_env  # the fixture, used by name
from tests.fakes.slack_api import Call

#: (workspace, its token, a user there, their DM channel)
SPACES = [
    ("T0000001", "Bearer xoxb-one", "UONE0001", "DONE0001"),
    ("T0000002", "Bearer xoxb-two", "UTWO0001", "DTWO0001"),
]


def _config(at: str) -> str:
    """The lifecycle tests' team, swept every 0.1 s by the bot's loop, with a digest an hour
    from now (so the day's window holds the tickets whatever the time of day)."""
    config = TEAM_CONFIG.replace("[helpdesk]\n", "[helpdesk]\nsweep_every_s = 0.1\n")
    return config.replace(
        "[helpdesk.teams.netops]\n", f'[helpdesk.teams.netops]\ndigest_at = "{at}"\n'
    )


def _posts(harness: Harness, words: str) -> list[Call]:
    return [c for c in harness.fake.of("chat.postMessage") if words in str(c.params.get("text"))]


async def _until_posted(harness: Harness, words: str, count: int) -> list[Call]:
    for _ in range(600):
        if len(_posts(harness, words)) >= count:
            break
        await asyncio.sleep(0.05)
    return _posts(harness, words)


@pytest.mark.usefixtures("oauth_env")
async def test_each_workspace_gets_its_own_nudge_and_digest_with_its_own_token(
    start_bot: StartBot,
) -> None:
    at = (datetime.now(UTC) + timedelta(hours=1)).strftime("%H:%M")
    harness = await start_bot(_config(at))
    for team, token, _, _ in SPACES:
        await install(harness, team, token.removeprefix("Bearer "))
    for team, _, user, channel in SPACES:
        event = p.message(ROUTED_TEXT, user=user, channel=channel)
        status, _ = await harness.post(event_of(team, event), content_type="application/json")
        assert status == 200
        await harness.idle()
    store = harness.brain.services.tickets
    tickets = {team: store.list_by_requester(user) for team, _, user, _ in SPACES}
    assert [len(found) for found in tickets.values()] == [1, 1]
    filed = max(datetime.fromisoformat(t.created_at) for (t,) in tickets.values())
    clock = SimClock(filed)
    for (ticket,) in tickets.values():
        store.update_fields(ticket.id, by="UHELPER1", fields={}, status="awaiting_info")
    store.clock = clock  # the bot's loop sweeps on: nothing is due yet
    # Nudges due, and just past the digest, on the digest's day: an hour and two minutes
    # after a filing at 22:58 UTC is the next day, whose digest time has not come.
    digest = datetime.combine(filed.date(), time.fromisoformat(at), tzinfo=filed.tzinfo)
    if digest < filed:  # filed in the day's last hour: the digest is tomorrow's
        digest += timedelta(days=1)
    end_of_day = datetime.combine(digest.date(), time.max, tzinfo=digest.tzinfo)
    clock.now = min(filed + timedelta(hours=1, minutes=2), end_of_day)
    nudges = await _until_posted(harness, "is waiting for your answer", 2)
    digests = await _until_posted(harness, "📊", 2)
    for team, token, user, channel in SPACES:
        (nudge,) = [c for c in nudges if f"<@{user}>" in c.params["text"]]
        assert (nudge.params["channel"], nudge.params["_authorization"]) == (channel, token)
        (digest,) = [c for c in digests if c.params["_authorization"] == token]
        assert digest.params["channel"] == TEAM_CHANNEL, team
        # its own ticket and message only: neither the other workspace's nor the warm-up's
        assert "1 ticket(s) filed" in digest.params["text"]
        assert "1 message(s) routed to the team" in digest.params["text"]
    assert len(nudges) == 2 and len(digests) == 2  # once each, however many sweeps ran


@pytest.mark.usefixtures("oauth_env")
async def test_an_unacknowledged_page_is_resent_with_its_workspaces_token(
    start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_REESCALATE_AFTER", "0.4")  # the bot's loop re-sends it soon
    harness = await start_bot()
    for team, token, _, _ in SPACES:
        await install(harness, team, token.removeprefix("Bearer "))
    event = p.message(ESCALATE_TEXT, user="UTWO0001", channel="DTWO0001")
    status, _ = await harness.post(event_of("T0000002", event), content_type="application/json")
    assert status == 200
    pages = lambda: [  # noqa: E731
        c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == ONCALL_CHANNEL
    ]
    for _ in range(600):
        if len(pages()) >= 2:
            break
        await asyncio.sleep(0.05)
    assert len(pages()) >= 2  # the page, then at least one re-send
    assert {c.params["_authorization"] for c in pages()} == {"Bearer xoxb-two"}
