"""Before answering a message again whose dead owner was sending its reply, the taker asks
Slack (`conversations.replies`) whether the reply arrived: found, it is not sent twice."""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from bot.recovery import already_replied
from tests.bot import slack_payloads as p
from tests.fakes.slack_api import BOT_USER_ID, FakeSlackAPI


async def test_a_reply_in_the_thread_is_found_and_an_absent_one_is_not(
    fake_slack: FakeSlackAPI,
) -> None:
    client = AsyncWebClient(token="xoxb-test-token", base_url=fake_slack.url)
    answered = p.message("my VPN keeps dropping", channel="DRECOV01", ts="1600000001.000100")
    waiting = p.message("the printer is jammed", channel="DRECOV01", ts="1600000002.000100")
    await client.chat_postMessage(channel="DRECOV01", thread_ts=answered["ts"], text="routed")
    assert await already_replied(client, answered, BOT_USER_ID)
    assert not await already_replied(client, waiting, BOT_USER_ID)
    # In a thread, only a reply after the message counts (not the bot's earlier ones).
    later = p.message("1", channel="DRECOV01", ts="1800000000.000100", thread_ts=answered["ts"])
    assert not await already_replied(client, later, BOT_USER_ID)
    fake_slack.fail("conversations.replies", error="missing_scope")
    assert not await already_replied(client, answered, BOT_USER_ID)  # unknown: answer again
