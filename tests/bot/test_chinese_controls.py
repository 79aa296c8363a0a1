"""A Chinese asker gets the app's own controls in Chinese too: the decision's buttons, the
ticket's buttons and menus, and the note that on-call was paged (before: English "Right",
"Resolve", "Claim" and "This looks urgent: I escalated it…" under a Chinese answer). An
English asker's controls stay English."""

from __future__ import annotations

import re
from typing import Any

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness

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


async def test_an_english_askers_controls_stay_english(harness: Harness) -> None:
    posts = await _posts(harness, "my VPN keeps dropping, error 691", "UEN00001")
    controls = [word for post in posts for word in _controls(post)]
    assert "Right" in controls and not any(_CJK.search(word) for word in controls), controls
