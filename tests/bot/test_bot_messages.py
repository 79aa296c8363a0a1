"""Messages over real signed HTTP: DMs, mentions, brain channels, threads, ignores, retries."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from bot.blocks import BLOCK_DECISION, FALLBACK_TEXT, SECTION_TEXT
from tests.bot import slack_payloads as p
from tests.bot.conftest import BRAIN_CHANNEL, ESCALATE_TEXT, ONCALL_CHANNEL, ROUTED_TEXT, Harness
from tests.fakes.slack_api import BOT_ID, BOT_USER_ID

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


def _posted_in(harness: Harness, channel: str) -> list[dict]:
    return [c.params for c in harness.fake.of("chat.postMessage") if c.params["channel"] == channel]


async def test_url_verification_answers_the_challenge(harness: Harness) -> None:
    body = '{"token":"t","challenge":"c-123","type":"url_verification"}'
    status, text = await harness.post(body, content_type="application/json")
    assert status == 200
    assert "c-123" in text


async def test_dm_gets_a_threaded_reply_with_decision_blocks(harness: Harness) -> None:
    event = p.message(ROUTED_TEXT)
    status, _ = await harness.event(event)
    assert status == 200
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    post = posts[0].params
    assert post["channel"] == event["channel"]
    assert post["thread_ts"] == event["ts"]
    assert post["_authorization"] == "Bearer xoxb-test-token"
    kinds = [b["type"] for b in post["blocks"]]
    assert kinds[:3] == ["section", "context", "actions"]
    # The decision's own buttons (a filed ticket's Resolve / Claim come before them).
    decision_blocks = [
        b for b in post["blocks"] if str(b.get("block_id", "")).startswith(BLOCK_DECISION)
    ]
    assert len(decision_blocks) == 1 and decision_blocks[0]["type"] == "actions"
    actions = decision_blocks[0]["elements"]
    assert actions[0]["text"]["text"] == "Right" and actions[0]["action_id"] == "brain_confirm"
    select = actions[1]
    assert select["type"] == "static_select"
    values = {o["value"] for o in select["options"]}
    assert values and all(v in harness.bot.services.conversation.labels() for v in values)
    context = post["blocks"][1]["elements"][0]["text"]
    assert "confidence" in context and "path" in context


async def test_channel_message_without_mention_is_ignored(harness: Harness) -> None:
    status, _ = await harness.event(
        p.message("vpn is broken", channel="CRANDOM01", channel_type="channel")
    )
    assert status == 200
    await harness.idle()
    assert harness.fake.of("chat.postMessage") == []


async def test_mention_in_channel_and_brain_channel_messages_are_answered(harness: Harness) -> None:
    mention = p.mention("vpn is broken", channel="CRANDOM01")
    assert (await harness.event(mention))[0] == 200
    in_brain = p.message("vpn is broken", channel=BRAIN_CHANNEL, channel_type="channel")
    assert (await harness.event(in_brain))[0] == 200
    await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert _posted_in(harness, "CRANDOM01")[0]["thread_ts"] == mention["ts"]
    assert _posted_in(harness, BRAIN_CHANNEL)[0]["thread_ts"] == in_brain["ts"]


async def test_mention_delivered_as_app_mention_and_message_gets_one_reply(
    harness: Harness,
) -> None:
    mention = p.mention("vpn is broken", channel=BRAIN_CHANNEL)
    as_message = dict(mention, type="message", channel_type="channel")
    await harness.event(mention)
    await harness.event(as_message)
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert len(_posted_in(harness, BRAIN_CHANNEL)) == 1


async def test_thread_reply_continues_the_session(harness: Harness) -> None:
    first = p.message("vpn is broken")
    await harness.event(first)
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    follow = p.message("still broken after reboot", thread_ts=first["ts"])
    await harness.event(follow)
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert posts[1].params["thread_ts"] == first["ts"]
    conversation = harness.bot.services.conversation
    session = f"{first['channel']}:{first['ts']}"
    assert conversation.history(session) == ("vpn is broken", "still broken after reboot")
    decision_id = conversation.last_decision_id(session)
    assert decision_id is not None
    decision = harness.brain.get_decision(decision_id)
    assert decision.thread == first["ts"]


async def test_askers_thread_reply_in_plain_channel_continues_but_others_do_not(
    harness: Harness,
) -> None:
    root = p.mention("vpn is broken", channel="CRANDOM01")
    await harness.event(root)
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    other = p.message(
        "me too", user="UOTHER01", channel="CRANDOM01", channel_type="channel", thread_ts=root["ts"]
    )
    mine = p.message("any news?", channel="CRANDOM01", channel_type="channel", thread_ts=root["ts"])
    await harness.event(other)
    await harness.event(mine)
    await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert len(_posted_in(harness, "CRANDOM01")) == 2


async def test_edits_deletes_joins_bot_and_own_messages_are_acked_and_ignored(
    harness: Harness,
) -> None:
    ignored = [
        p.message("x", subtype="message_changed", message={"text": "vpn edited", "user": "U1"}),
        p.message("", subtype="message_deleted"),
        p.message("<@UASKER01> has joined", subtype="channel_join", channel_type="channel"),
        p.message("vpn from a bot", subtype="bot_message", bot_id="BOTHER01"),
        p.message("vpn from a bot user", bot_id="BOTHER02"),
        p.message("my own vpn reply", user=BOT_USER_ID, bot_id=BOT_ID),
        {"type": "member_joined_channel", "user": "U2", "channel": "C1"},
        {"type": "reaction_removed", "user": "U2", "reaction": "+1", "item": {}},
    ]
    for event in ignored:
        status, _ = await harness.event(event)
        assert status == 200, event
    await harness.idle()
    assert harness.fake.of("chat.postMessage") == []


async def test_bad_or_stale_signature_is_401_and_nothing_processed(harness: Harness) -> None:
    event = p.message("vpn is broken")
    bad = await harness.event(event, secret="wrong-secret")
    stale = await harness.event(event, timestamp=int(time.time()) - 60 * 10)
    unsigned = await harness.event(event, signed=False)
    assert [bad[0], stale[0], unsigned[0]] == [401, 401, 401]
    await harness.idle()
    assert [c.method for c in harness.fake.calls if c.method != "auth.test"] == []  # start


async def test_retries_are_deduplicated_to_one_reply(harness: Harness) -> None:
    event = p.message("vpn is broken")
    statuses = [(await harness.event(event, event_id="EvRETRY1"))[0]]
    for attempt in (1, 2, 3):
        statuses.append((await harness.event(event, event_id="EvRETRY1", retry_num=attempt))[0])
    assert statuses == [200, 200, 200, 200]
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert len(harness.fake.of("chat.postMessage")) == 1


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own, restarted
async def test_retry_after_restart_is_still_deduplicated(start_bot) -> None:  # type: ignore[no-untyped-def]
    first = await start_bot()
    event = p.message("vpn is broken")
    await first.event(event, event_id="EvRESTART1")
    await first.fake.wait_for("chat.postMessage")
    await first.idle()
    await first.close()
    second = await start_bot()
    assert (await second.event(event, event_id="EvRESTART1", retry_num=1))[0] == 200
    await second.idle()
    assert len(second.fake.of("chat.postMessage")) == 1


async def test_rate_limited_post_is_retried(harness: Harness) -> None:
    harness.fake.fail("chat.postMessage", status=429, retry_after=1)
    await harness.event(p.message("vpn is broken"))
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert len(harness.fake.rejected) == 1
    assert len(harness.fake.of("chat.postMessage")) == 1


async def test_huge_text_is_shortened_not_rejected(harness: Harness) -> None:
    # the on-call alert quotes the message, so a huge escalated one reaches `shorten()`
    huge = ESCALATE_TEXT + " " + "x" * 50_000
    assert (await harness.event(p.message(huge)))[0] == 200
    alerts = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    for post in (c.params for c in harness.fake.of("chat.postMessage")):
        blocks = post.get("blocks") or []
        sections = [b["text"]["text"] for b in blocks if b["type"] == "section"]
        assert all(len(text) <= SECTION_TEXT for text in sections)
        assert len(post["text"]) <= FALLBACK_TEXT
    alert = alerts[0].params
    quote = alert["blocks"][1]["text"]["text"]
    assert quote.startswith("> security incident") and "xxxx" in quote
    assert len(quote) == SECTION_TEXT and quote.endswith("…")  # cut, marked, not rejected
    assert len(alert["text"]) == FALLBACK_TEXT and alert["text"].endswith("…")


async def test_slack_markup_reaches_the_brain_as_plain_text(harness: Harness) -> None:
    event = p.message(
        "the <https://vpn.example.com|VPN portal> says error 691 &amp; <#C42|it-help>"
    )
    await harness.event(event)
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    decision = harness.brain.last_decision(event["user"], event["channel"])
    assert decision is not None
    assert decision.text == "the https://vpn.example.com (VPN portal) says error 691 & #it-help"


async def test_bare_mention_gets_help_not_a_decision(harness: Harness) -> None:
    event = p.mention("", channel="CRANDOM01")
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert "/brain-why" in posts[0].params["text"]
    assert posts[0].params["thread_ts"] == event["ts"]
    assert harness.brain.last_decision(event["user"], "CRANDOM01") is None


async def test_user_text_cannot_ping_the_channel(harness: Harness) -> None:
    await harness.event(p.message("<!channel> vpn broken <!here>"))
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    sent = json.dumps(posts[0].params["blocks"]) + posts[0].params["text"]
    assert "<!channel>" not in sent and "<!here>" not in sent


async def test_ack_comes_before_slow_brain_work(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real_ask = harness.brain.ask

    def slow_ask(message: Any) -> Any:
        release.wait(30)
        return real_ask(message)

    monkeypatch.setattr(harness.brain, "ask", slow_ask)
    status, _ = await harness.event(p.message(ROUTED_TEXT))
    assert status == 200
    assert harness.fake.of("chat.postMessage") == []  # acknowledged while the brain still works
    release.set()
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()


async def test_server_error_from_slack_is_retried(harness: Harness) -> None:
    harness.fake.fail("chat.postMessage", status=503, error="service_unavailable")
    await harness.event(p.message(ROUTED_TEXT))
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert [c.method for c in harness.fake.rejected] == ["chat.postMessage"]
    assert len(harness.fake.of("chat.postMessage")) == 1


async def test_no_controller_reply_offers_route_elsewhere_but_no_right(harness: Harness) -> None:
    event = p.message("what's a good recipe for banana bread?")
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    decision = harness.brain.last_decision(event["user"], event["channel"])
    assert decision is not None and decision.controller is None  # precondition
    actions = [b for b in posts[0].params["blocks"] if b["type"] == "actions"]
    # Route elsewhere and (an honest boundary) a person, but no "Right": nothing was routed.
    assert [e["action_id"] for e in actions[0]["elements"]] == ["brain_handoff", "brain_reroute"]


@pytest.mark.parametrize(("text", "words"), [("hello", "Hello!"), ("谢谢", "不客气")])
async def test_small_talk_gets_a_plain_reply_in_kind(
    harness: Harness, text: str, words: str
) -> None:
    """Before, "hello" got "outside what I can handle" with Solved / Send to a person / Route
    elsewhere, and "谢谢" three controllers to choose from."""
    event = p.message(text)
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    post = posts[0].params
    assert post["thread_ts"] == event["ts"] and words in post["text"]
    assert [b["type"] for b in post["blocks"]] == ["section"]
