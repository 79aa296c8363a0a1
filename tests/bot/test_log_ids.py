"""`brain run` with BRAIN_LOG_FORMAT=json, over HTTP: every line written while Slack events
are delivered and answered carries the event's id, and every line of a decision its id too.

Before, the HTTP access line of each delivered event (aiohttp's, written after the handler
returned, outside the block that binds the id) carried neither.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot import brain_run
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ROUTED_TEXT
from tests.fakes.slack_api import FakeSlackAPI

EVENTS = {"EvIds0001": ESCALATE_TEXT, "EvIds0002": ROUTED_TEXT}


async def test_every_line_after_warm_up_carries_the_event_id_and_the_decision_id(
    fake_slack: FakeSlackAPI, tmp_path: Path
) -> None:
    fake_slack.fail("chat.getPermalink", error="channel_not_found")  # a warning on the way
    env = brain_run.json_logging_env(tmp_path / "home", fake_slack.url, "xoxb-log-ids-token")
    process = await brain_run.start(env, *brain_run.HTTP)
    try:
        url = (await brain_run.first_line(process, 120)).rsplit(" ", 1)[-1]
        for number, (event_id, text) in enumerate(EVENTS.items()):
            body = json.dumps(p.envelope(p.message(text, channel=f"DIDS{number}"), event_id))
            assert await brain_run.post_signed(url, body) == 200
        await fake_slack.wait_for(
            "chat.postMessage", timeout=90, where=lambda c: c.params["channel"] == "CONCALL01"
        )
        await fake_slack.wait_for(
            "chat.postMessage", timeout=90, where=lambda c: c.params["channel"] == "DIDS1"
        )
    finally:
        err = await brain_run.stop(process)
    written = [line for line in err.decode().splitlines() if line.strip()]
    assert all(line.startswith("{") for line in written), written
    lines = [json.loads(line) for line in written]
    ready = next(i for i, line in enumerate(lines) if "ready for events" in line["message"])
    handling = lines[ready + 1 :]
    access = [line for line in handling if line["logger"] == "aiohttp.access"]
    assert sorted(line.get("event_id") for line in access) == sorted(EVENTS), access
    assert all(line.get("event_id") in EVENTS for line in handling), handling
    decided = [line for line in handling if line["logger"] != "aiohttp.access"]
    assert decided and all(str(line.get("decision_id", "")).startswith("d-") for line in decided)
