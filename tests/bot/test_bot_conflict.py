"""A conflict through the Slack app: two people route their Docker requests to `coding` with
Route elsewhere, a third routes his to `change`. A fourth person's Docker request moves nowhere
(two against one is no organisation lesson), and the disagreement is reported."""

from __future__ import annotations

from brain.learning.control import conflict_views
from tests.bot.conftest import Harness
from tests.bot.test_bot_interactions import _ask
from tests.bot.test_bot_resolution import route_elsewhere

TAUGHT = [
    ("UDOCK001", "how do I install Docker on my laptop", "coding"),
    ("UDOCK002", "setting up docker desktop on my macbook", "coding"),
    ("UDOCK003", "docker installation keeps failing on my workstation", "change"),
]


async def test_a_disagreeing_reroute_moves_no_one_and_is_reported(harness: Harness) -> None:
    for user, text, controller in TAUGHT:
        await route_elsewhere(harness, user, text, controller)

    await _ask(harness, "can you help me get docker running locally", user="UDOCK004")

    fourth = harness.brain.last_decision("UDOCK004", "DCHAT001")
    assert fourth is not None and fourth.controller not in ("coding", "change"), fourth.tier_path
    assert "people moved messages like this" not in fourth.rationale
    targets = [view["targets"] for view in conflict_views(harness.brain)]
    assert {"coding": ["UDOCK001", "UDOCK002"], "change": ["UDOCK003"]} in targets, targets
