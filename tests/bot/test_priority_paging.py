"""Who hears about a priority, over HTTP against the fake Slack: a P2 tells the
owning team's channel (no page); a channel configured with `p1 = "notify"` tells its team
instead of paging on-call; a channel configured with its own on-call channel pages that one;
every other channel pages the configured on-call as before."""

from __future__ import annotations

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness

TEAM_CHANNEL = "CSRE00001"
OTHER_ONCALL = "CONCALL02"
NOTIFY_DM = "DNOTIFY01"
OTHER_DM = "DOTHER001"
CONFIG = f"""
[helpdesk.teams.sre]
channel = "{TEAM_CHANNEL}"
controllers = ["alarm", "incident"]
[helpdesk.paging.{NOTIFY_DM}]
p1 = "notify"
[helpdesk.paging.{OTHER_DM}]
oncall_channel = "{OTHER_ONCALL}"
"""
#: One running bot for the module, with CONFIG (`module_harness`); each test has a user and
#: DM of its own (`shared_harness`).
SHARED_BOT_CONFIG = CONFIG
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


#: A P1 outage (every customer, down now) and a P2 (one team's shared server down).
OUTAGE = "payments are down for every customer, all orders fail"
P2_ALARM = "the disk alert on our team's shared build server is firing and the server is down"


def _posts_to(harness: Harness, channel: str) -> list[dict]:
    return [c.params for c in harness.fake.of("chat.postMessage") if c.params["channel"] == channel]


def _thread(harness: Harness, ts: str) -> str:
    return " ".join(
        c.params.get("text", "")
        for c in harness.fake.of("chat.postMessage")
        if c.params.get("thread_ts") == ts
    )


async def _ask(harness: Harness, text: str, channel: str | None = None) -> dict:
    event = p.message(text, channel=channel)
    await harness.event(event)
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params.get("thread_ts") == event["ts"]
    )
    await harness.idle()
    return event


async def test_a_p2_tells_the_owning_team_and_pages_nobody(harness: Harness) -> None:

    event = await _ask(harness, P2_ALARM)

    assert _posts_to(harness, ONCALL_CHANNEL) == []
    told = _posts_to(harness, TEAM_CHANNEL)
    assert [post for post in told if (post.get("text") or "").startswith("P2 for sre")]
    assert f"I told the sre team in <#{TEAM_CHANNEL}>" in _thread(harness, event["ts"])


async def test_a_notify_channel_tells_its_team_instead_of_paging(harness: Harness) -> None:

    event = await _ask(harness, OUTAGE, channel=NOTIFY_DM)

    assert _posts_to(harness, ONCALL_CHANNEL) == []
    assert any("P1" in (post.get("text") or "") for post in _posts_to(harness, TEAM_CHANNEL))
    assert "not paged from this channel" in _thread(harness, event["ts"])


async def test_a_channel_with_its_own_on_call_pages_that_one(harness: Harness) -> None:

    await _ask(harness, OUTAGE, channel=OTHER_DM)
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == OTHER_ONCALL
    )

    assert _posts_to(harness, ONCALL_CHANNEL) == []
    assert len(_posts_to(harness, OTHER_ONCALL)) == 1


async def test_other_channels_page_the_configured_on_call(harness: Harness) -> None:

    await _ask(harness, OUTAGE)
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )

    assert len(_posts_to(harness, ONCALL_CHANNEL)) == 1
    assert _posts_to(harness, OTHER_ONCALL) == []
