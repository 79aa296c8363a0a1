"""What the Slack benchmarks share (`bot_throughput.py`, `replicas.py`): the planned
deliveries with their Slack retries, the command line, percentiles, a warm brain home, and
the count of lost and duplicated replies with its report line."""

from __future__ import annotations

import argparse
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.fakes.slack_api import FakeSlackAPI

TEXTS = [
    "my VPN keeps dropping, error 691",
    "process ticket 2025060300011279027",
    "what is 滚仓",
    "disk usage on db-prod-02 is at 97%",
    "please reset my password, I am locked out",
    "can you review this SQL: SELECT * FROM orders WHERE id = 1",
    "request a change: scale the payments service to 6 replicas tonight",
    "the printer on floor 3 is jammed again",
    "error rate for checkout-api jumped to 12% in the last 10 minutes",
    "I need access to the finance shared drive",
    "how do I submit a reimbursement?",
    "laptop LT-0042 will not boot after the update",
    "rollback release 2.3.1 of the billing service",
    "Traceback (most recent call last): KeyError: 'user_id' in handler.py line 42",
    "my email is not syncing on my phone",
    "urge ticket INC-20931, it has been three days",
    "电脑连不上公司网络",
    "need a licence for JetBrains IntelliJ",
    "CPU on web-01 is at 100% since 9am",
    "who approves production changes on Fridays?",
]

Plan = list[tuple[dict[str, Any], int]]


def parser(description: str) -> argparse.ArgumentParser:
    """The options every Slack load benchmark takes."""
    found = argparse.ArgumentParser(description=description)
    found.add_argument("--events", type=int, default=1000)
    found.add_argument("--retry-share", type=float, default=0.2)
    found.add_argument("--concurrency", type=int, default=16)
    found.add_argument("--json", action="store_true")
    return found


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def deliveries(count: int, retry_share: float, seed: int = 7) -> Plan:
    """(body, retry number) in send order: each event once, a share again as a retry soon after."""
    rng = random.Random(seed)
    planned: Plan = []
    retried = set(rng.sample(range(count), round(count * retry_share)))
    pending: list[tuple[int, dict[str, Any]]] = []
    for i in range(count):
        user = f"UBENCH{i % 50:03d}"
        event = p.message(TEXTS[i % len(TEXTS)], user=user, channel=f"D{user[1:]}")
        body = p.envelope(event, event_id=f"EvBENCH{i:06d}")
        planned.append((body, 0))
        if i in retried:
            pending.append((i + rng.randint(1, 20), body))
        for due in [item for item in pending if item[0] <= i]:
            planned.append((due[1], 1))
            pending.remove(due)
    planned.extend((body, 1) for _, body in pending)
    return planned


def check_replies(fake: FakeSlackAPI, plan: Plan) -> dict[str, int]:
    """Lost = events without a reply in their thread; duplicated = replies beyond one."""
    wanted = {(b["event"]["channel"], b["event"]["ts"]) for b, _ in plan}
    replies = Counter(
        (c.params["channel"], c.params.get("thread_ts"))
        for c in fake.of("chat.postMessage")
        if (c.params["channel"], c.params.get("thread_ts")) in wanted
    )
    return {
        "events": len(wanted),
        "replied": len(replies),
        "lost": len(wanted - set(replies)),
        "duplicated": sum(n - 1 for n in replies.values() if n > 1),
    }


def replies_line(replies: dict[str, int]) -> str:
    """ "answered/events, lost, duplicated" of `check_replies`."""
    return (
        f"{replies['replied']}/{replies['events']} answered, lost {replies['lost']}, "
        f"duplicated {replies['duplicated']}"
    )


def clean(replies: dict[str, int]) -> bool:
    """The targets every Slack benchmark checks: nothing lost, nothing answered twice."""
    return replies["lost"] == 0 and replies["duplicated"] == 0


def prepare_home(home: Path) -> None:
    """A brain home with the sample KB ingested and models warm (first ask loads MiniLM)."""
    from brain.engine import Brain
    from core.records import Message

    os.environ["BRAIN_HOME"] = str(home)
    with Brain.open(load_settings()) as brain:
        brain.ask(Message("warm-up: vpn is broken", user="UWARM", channel="DWARM"))
