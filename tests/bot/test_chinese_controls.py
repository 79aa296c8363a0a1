"""A Chinese asker gets the app's own controls in Chinese too: the decision's buttons, the
ticket's buttons and menus, and the note that on-call was paged (before: English "Right",
"Resolve", "Claim" and "This looks urgent: I escalated it…" under a Chinese answer). An
English asker's controls stay English."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness

#: One running bot for the module; each test's askers are its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


_CJK = re.compile(r"[\u4e00-\u9fff]")
#: Two English words in a row (identifiers and channel ids aside).
_ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{2,}\b[ ,:]+\b[A-Za-z]{2,}\b")


def _controls(post: dict[str, Any]) -> list[str]:
    """The words of every button, menu placeholder and option of a post."""
    words = []
    for block in post.get("blocks") or []:
        for element in block.get("elements") or []:
            for key in ("text", "placeholder"):
                part = element.get(key)
                if isinstance(part, dict) and element.get("type") in ("button", "static_select"):
                    words.append(str(part.get("text")))
    return words


async def _posts(harness: Harness, text: str, user: str) -> list[dict[str, Any]]:
    """The posts the bot made in the thread of a new DM."""
    root = p.message(text, channel="DZH00001", user=user)
    before = len(harness.fake.of("chat.postMessage"))
    assert (await harness.event(root))[0] == 200
    await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    calls = harness.fake.of("chat.postMessage")[before:]
    return [c.params for c in calls if c.params.get("thread_ts") == root["ts"]]


async def test_a_chinese_askers_buttons_and_menus_are_chinese(harness: Harness) -> None:
    posts = await _posts(harness, "VPN 一直连不上，报错 691，麻烦处理一下", "UZH00001")
    controls = [word for post in posts for word in _controls(post)]
    assert controls, posts  # the routed reply carries its buttons
    for word in controls:
        assert _CJK.search(word) and not _ENGLISH_WORDS.search(word), controls


async def test_a_chinese_askers_on_call_note_is_chinese(harness: Harness) -> None:
    posts = await _posts(harness, "安全事件：我的电脑中了勒索病毒，文件都被加密了", "UZH00002")
    notes = [str(post.get("text")) for post in posts if f"<#{ONCALL_CHANNEL}>" in str(post)]
    assert len(notes) == 1, posts
    assert _CJK.search(notes[0]) and not _ENGLISH_WORDS.search(notes[0]), notes


async def test_a_chinese_askers_two_requests_are_shown_in_chinese(harness: Harness) -> None:
    """Each request of a two-request reply is shown with its role in Chinese (was "(primary)"),
    and the reply's head counts them in Chinese (was "2 requests: ...")."""
    posts = await _posts(harness, "VPN 连不上，另外我需要开通 Grafana 权限", "UZH00005")
    sections = [
        str(block["text"]["text"])
        for post in posts
        for block in post.get("blocks") or []
        if block.get("type") == "section"
    ]
    assert any("（主要）：“VPN" in s for s in sections), sections
    shown = " ".join([*sections, *(str(post.get("text")) for post in posts)])
    assert not re.search(r"\b(?:requests|primary|supporting)\b", shown), shown


async def test_an_english_askers_controls_stay_english(harness: Harness) -> None:
    posts = await _posts(harness, "my VPN keeps dropping, error 691", "UEN00001")
    controls = [word for post in posts for word in _controls(post)]
    assert "Right" in controls and not any(_CJK.search(word) for word in controls), controls


def _note_of(update: dict[str, Any]) -> str:
    """The note that replaced a clicked message's buttons."""
    return str(update["blocks"][-1]["elements"][0]["text"])


async def _click_on_reply(harness: Harness, text: str, user: str, **action: Any) -> str:
    """Ask `text` in a new DM, click the reply's decision block (`action`: action_id and a
    value or a selected option), and return the note that replaced its buttons."""
    root = p.message(text, channel="DZH00002", user=user)
    before = len(harness.fake.of("chat.postMessage"))
    assert (await harness.event(root))[0] == 200
    await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    calls = harness.fake.of("chat.postMessage")
    index, reply = next(
        (i, c)
        for i, c in enumerate(calls)
        if i >= before and c.params.get("thread_ts") == root["ts"] and c.params.get("blocks")
    )
    block = next(
        b for b in reply.params["blocks"] if b.get("block_id", "").startswith("brain_decision:")
    )
    message = {
        "type": "message",
        "ts": harness.fake.posted_ts[index],
        "thread_ts": root["ts"],
        "text": reply.params.get("text"),
        "blocks": reply.params["blocks"],
    }
    if "selected" not in action:  # a button carries its decision id
        action["value"] = block["block_id"].split(":", 1)[1]
    click = p.block_action(
        user=user, channel="DZH00002", message=message, block_id=block["block_id"], **action
    )
    updates = len(harness.fake.of("chat.update"))
    assert (await harness.click(click))[0] == 200
    update = (await harness.fake.wait_for("chat.update", updates + 1))[updates].params
    await harness.idle()
    return _note_of(update)


async def test_a_chinese_askers_click_notes_are_chinese(harness: Harness) -> None:
    """The note that replaces the clicked buttons ("confirmed by", "rerouted to …") is in the
    asker's language, like the buttons themselves."""
    text = "VPN 一直连不上，报错 691，麻烦处理一下"
    confirmed = await _click_on_reply(harness, text, "UZH00003", action_id="brain_confirm")
    rerouted = await _click_on_reply(
        harness, text, "UZH00004", action_id="brain_reroute", selected="access"
    )
    for note in (confirmed, rerouted):
        assert _CJK.search(note), note
        assert not re.search(r"\b(by|confirmed|rerouted|routed)\b", note), note


async def test_an_english_askers_click_note_stays_english(harness: Harness) -> None:
    note = await _click_on_reply(
        harness,
        "my VPN keeps dropping, error 691",
        "UEN00002",
        action_id="brain_reroute",
        selected="access",
    )
    assert "rerouted to" in note and "by <@UEN00002>" in note and not _CJK.search(note), note


async def test_a_bare_name_in_a_chinese_thread_gets_a_chinese_reply(harness: Harness) -> None:
    """A reply of one name ("Jenkins", the system the bot asked for) in a Chinese thread is
    answered in Chinese, its buttons too."""
    root = p.message("我需要开通权限", channel="DZH00006", user="UZH00006")
    assert (await harness.event(root))[0] == 200
    await harness.fake.wait_for("chat.postMessage", 1)
    await harness.idle()
    before = len(harness.fake.of("chat.postMessage"))
    reply = p.message("Jenkins", channel="DZH00006", user="UZH00006", thread_ts=root["ts"])
    assert (await harness.event(reply))[0] == 200
    await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    posts = [c.params for c in harness.fake.of("chat.postMessage")[before:]]
    assert posts and all(_CJK.search(str(post.get("text"))) for post in posts), posts
    controls = [word for post in posts for word in _controls(post)]
    assert all(_CJK.search(word) for word in controls), controls
