"""A multi-intent message in Slack: one reply, each request with its own Right /
Route elsewhere; a click on one request resolves that request only. Real app over HTTP."""

from __future__ import annotations

from tests.bot import slack_payloads as p
from tests.bot.conftest import Harness


async def test_each_request_gets_its_own_actions(harness: Harness) -> None:
    event = p.message("CPU alarm on db-01 and also I need Grafana access")
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage", 1)
    await harness.idle()
    reply = next(c for c in posts if c.params.get("thread_ts") == event["ts"])
    blocks = reply.params["blocks"]
    actions = [b for b in blocks if b.get("block_id", "").startswith("brain_decision:")]
    assert len(actions) == 2
    part_ids = [b["block_id"].split(":", 1)[1] for b in actions]
    controllers = {harness.brain.get_decision(i).controller for i in part_ids}
    assert controllers == {"alarm", "access"}
    texts = " ".join(str(b.get("text", {}).get("text", "")) for b in blocks)
    assert "CPU alarm on db-01" in texts and "Grafana" in texts

    ts = harness.fake.posted_ts[harness.fake.of("chat.postMessage").index(reply)]
    message = {"type": "message", "ts": ts, "thread_ts": event["ts"], "blocks": blocks}
    click = p.block_action(
        user=event["user"],
        channel=event["channel"],
        message=message,
        action_id="brain_confirm",
        block_id=actions[0]["block_id"],
        value=part_ids[0],
    )
    assert (await harness.click(click))[0] == 200
    updates = await harness.fake.wait_for("chat.update")
    await harness.idle()
    kept = [b.get("block_id") for b in updates[0].params["blocks"] if b["type"] == "actions"]
    assert kept == [actions[1]["block_id"]]  # the other request keeps its buttons
    assert [f.kind for f in harness.brain.get_decision(part_ids[0]).feedback] == ["confirm"]
    assert harness.brain.get_decision(part_ids[1]).feedback == []
