"""On-call alerts on-call can trust: the asker's words are quoted, never obeyed.

A phishing report pasted with `<!here>`, `<!channel>`, a user mention and a link whose label
hides its target reaches on-call over real HTTP (the fake Slack records the alert): the quote
is verbatim and escaped, so nothing broadcasts, and the link's real target is shown defanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.blocks import defang
from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness

REPORT = (
    "security incident: <!here> <!channel> <@UCEO0001> I got a phishing email, "
    "I clicked <https://evil.example/login?next=a|Reset your password> and typed my password"
)


#: One running bot for the module's async tests (each marked so); each test has a user and DM
#: of its own (`shared_harness`).
SHARED_BOT = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


async def _alert(harness: Harness, text: str) -> dict[str, Any]:
    assert (await harness.event(p.message(text)))[0] == 200
    alerts = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    return alerts[0].params


@SHARED_BOT
async def test_alert_quotes_broadcast_words_verbatim_and_shows_the_links_target(
    harness: Harness,
) -> None:
    alert = await _alert(harness, REPORT)
    quote = alert["blocks"][1]["text"]
    assert quote["type"] == "mrkdwn" and quote["verbatim"] is True
    everything = [quote["text"], alert["text"], alert["blocks"][2]["elements"][0]["text"]]
    for text in everything:  # no markup from the asker: nothing pages, mentions or links
        assert "<!here" not in text and "<!channel" not in text and "<@UCEO0001>" not in text
        assert "https://evil.example" not in text
    assert "@here" in quote["text"] and "@channel" in quote["text"]  # shown, as words
    assert "hxxps://evil[.]example/login?next=a (Reset your password)" in quote["text"]
    assert alert["parse"] == "none"


@SHARED_BOT
async def test_angle_brackets_and_ampersands_typed_by_the_asker_are_escaped(
    harness: Harness,
) -> None:
    alert = await _alert(harness, "security incident: ransomware &lt;!everyone&gt; &amp; more")
    quote = alert["blocks"][1]["text"]["text"]
    assert "&lt;!everyone&gt; &amp; more" in quote and "<!everyone>" not in quote


def test_defang_keeps_the_address_readable() -> None:
    assert defang("see https://evil.example/login") == "see hxxps://evil[.]example/login"
    assert defang("HTTP://a.b.c:8080/x?y=1") == "HxxP://a[.]b[.]c:8080/x?y=1"
    assert defang("version 1.2.3 and INC-1.2") == "version 1.2.3 and INC-1.2"
