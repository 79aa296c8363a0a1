"""A team's daily digest over HTTP against the fake Slack: at its time the sweep posts the
last 24 hours' figures to the team's channel, in the team's language, once a day (two sweeps,
as two replicas would run, post it once)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from bot.helpdesk import sweep
from tests.bot.conftest import StartBot
from tests.bot.test_ticket_lifecycle import TEAM_CHANNEL, TEAM_CONFIG, SimClock, file_ticket


def _digests(posts: list[dict[str, str]]) -> list[str]:
    return [p["text"] for p in posts if p.get("channel") == TEAM_CHANNEL and "📊" in p["text"]]


async def _run(start_bot: StartBot, language: str) -> tuple[list[str], str]:
    """File a ticket, then sweep half an hour before the digest time and just past it (an hour
    after the start, so the day's window holds the ticket whatever the time of day, midnight
    included)."""
    at = (datetime.now(UTC) + timedelta(hours=1)).strftime("%H:%M")
    config = TEAM_CONFIG.replace(
        "[helpdesk.teams.netops]\n",
        f'[helpdesk.teams.netops]\ndigest_at = "{at}"\nlanguage = "{language}"\n',
    )
    harness = await start_bot(config)
    _, _, ticket_id = await file_ticket(harness)
    store = harness.brain.services.tickets
    filed = datetime.fromisoformat(store.get(ticket_id).created_at)
    digest = datetime.combine(filed.date(), time.fromisoformat(at), tzinfo=filed.tzinfo)
    if digest < filed:  # filed in the day's last hour: the digest is tomorrow's
        digest += timedelta(days=1)
    # Half an hour before the digest, but on its day: a sweep the day before would post the
    # day before's digest, whose time has passed then (a digest is posted at the day's first
    # sweep after its time).
    midnight = datetime.combine(digest.date(), time(), tzinfo=digest.tzinfo)
    start = max(digest - timedelta(minutes=30), midnight)
    if start >= digest:  # a digest at midnight: the day before's last seconds, whose digest
        start = digest - timedelta(seconds=30)  # the bot's first sweep posted (its time passed)
    clock = SimClock(start)
    store.clock = clock
    services, client = harness.bot.services, harness.bot.client
    # In the day's last hour the bot's own first sweep, on the real clock, has posted the
    # day's digest (its time has passed today): only the posts of the sweeps below count.
    seen = len(harness.fake.of("chat.postMessage"))
    posts = lambda: [c.params for c in harness.fake.of("chat.postMessage")[seen:]]  # noqa: E731
    await sweep.sweep(services, client)
    before = _digests(posts())
    # Just past the digest time, on its day: two minutes past a digest at 23:58 is the next
    # day, whose digest time has not come (the run failed when it started at 22:58 UTC).
    end_of_day = datetime.combine(digest.date(), time.max, tzinfo=digest.tzinfo)
    clock.now = min(digest + timedelta(minutes=2), end_of_day)
    await sweep.sweep(services, client)
    await sweep.sweep(services, client)  # a second sweep (another replica) posts nothing
    return before, "\n".join(_digests(posts()))


async def test_the_team_digest_is_posted_once_at_its_time_with_the_days_figures(
    start_bot: StartBot,
) -> None:
    before, posted = await _run(start_bot, "en")
    assert before == []
    assert posted.count("📊") == 1
    assert "Team netops, the last 24 hours: 1 ticket(s) filed, 1 still open" in posted
    assert "1 past the SLA" in posted  # 600 s of SLA, unclaimed for an hour
    # The asker's message and the harness's warm-up, both to the team's incident controller.
    assert "2 message(s) routed to the team, 100% right at first touch" in posted


async def test_a_chinese_teams_digest_is_in_chinese(start_bot: StartBot) -> None:
    _, posted = await _run(start_bot, "zh")
    assert "netops 团队过去 24 小时：新建工单 1 个" in posted and "Team" not in posted
