"""Through the Slack app over HTTP: each handled or past event pages no one, and its live twin
adds one on-call alert (English and Chinese; the wordings are `tests/escalation_wordings.py`'s
TWINS, shared with the CLI test)."""

from __future__ import annotations

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness
from tests.escalation_wordings import TWINS


def _oncall(harness: Harness) -> list[object]:
    return [c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == ONCALL_CHANNEL]


async def test_handled_twins_page_no_one_and_live_twins_page_once_each(harness: Harness) -> None:
    for number, (_, handled) in enumerate(TWINS.values(), start=1):
        await harness.event(p.message(handled, channel=f"DPAST{number:03d}"))
    await harness.fake.wait_for("chat.postMessage", count=len(TWINS), timeout=120)
    await harness.idle()
    assert _oncall(harness) == []

    for number, (name, (live, _)) in enumerate(TWINS.items(), start=1):
        await harness.event(p.message(live, channel=f"DLIVE{number:03d}"))
        await harness.fake.wait_for(
            "chat.postMessage",
            count=number,
            timeout=60,
            where=lambda c: c.params["channel"] == ONCALL_CHANNEL,
        )
        await harness.idle()
        assert len(_oncall(harness)) == number, name
