"""/brain-forget through the running bot empties the bot process's caches of the person's
words too (`core.text.kept`): their messages' vectors, intents and look-ups stayed in the
bot's memory until evicted or the bot stopped."""

from __future__ import annotations

from core.text import kept
from tests.bot.conftest import Harness
from tests.bot.test_bot_interactions import _ask

#: A word no other test writes.
WORD = "quibbletronic"
USER = "UFORGETB1"


def _held() -> list[str]:
    return sorted({text for text in kept.held() if WORD in text.casefold()})


async def test_brain_forget_empties_the_bots_caches(harness: Harness) -> None:
    for text in (
        f"my {WORD} monitor flickers all day",
        f"how do I reset my {WORD} password",
        f"search tickets about {WORD}",
    ):
        await _ask(harness, text, user=USER, channel="DFORGETB1")
    assert _held()  # precondition: the bot's caches hold them

    status, _ = await harness.command("/brain-forget", "", user=USER, channel="DFORGETB1")
    assert status == 200
    answered = (await harness.fake.wait_for("response_url"))[-1]
    await harness.idle()
    assert "I forgot what I learned from you" in answered.params["text"]
    assert _held() == []
