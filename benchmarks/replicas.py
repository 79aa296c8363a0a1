"""Replicas on PostgreSQL vs one embedded-default process: events/s, ack latency, replies/s,
lost and duplicated replies, side by side in one run.

Every configuration is real `brain run --http` processes (no LLM) against the fake Slack Web
API, sent the same N signed messages with a share delivered again as Slack retries; with
several replicas, each first attempt goes to replica i mod n and its retry to another one.

- embedded: one process, TinyDB + embedded Qdrant (the default);
- postgres x1: one process, records on PostgreSQL (fsync on);
- postgres x3: three processes sharing that PostgreSQL, each with its own vector index.

    .venv/bin/python benchmarks/replicas.py [--events 1000] [--retry-share 0.2]
        [--concurrency 16] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bot_throughput import (  # noqa: E402
    check_replies,
    deliveries,
    percentile,
    prepare_home,
)
from tests.bot import slack_payloads as p  # noqa: E402
from tests.fakes.slack_api import FakeSlackAPI  # noqa: E402
from tests.pg_server import PostgresServer  # noqa: E402
from tests.replicas import (  # noqa: E402
    Replica,
    replica_env,
    start_replica,
    stop,
    wait_idle,
    wait_ready,
)

CONFIGS = (("embedded", False, 1), ("postgres x1", True, 1), ("postgres x3", True, 3))


async def all_replied(fake: FakeSlackAPI, plan: list[tuple[dict[str, Any], int]]) -> None:
    """Until every event has its reply, or nothing new arrived for a minute (then the
    missing ones are reported as lost)."""
    last, quiet_since = -1, time.perf_counter()
    while True:
        replied = check_replies(fake, plan)["replied"]
        if replied == args_events(plan):
            return
        if replied != last:
            last, quiet_since = replied, time.perf_counter()
        elif time.perf_counter() - quiet_since > 60:
            return
        await asyncio.sleep(0.05)


def args_events(plan: list[tuple[dict[str, Any], int]]) -> int:
    return len({body["event_id"] for body, _ in plan})


async def blast(
    fake: FakeSlackAPI,
    replicas: list[Replica],
    plan: list[tuple[dict[str, Any], int]],
    concurrency: int,
) -> dict[str, Any]:
    """Send the plan with `concurrency` requests in flight; first attempts round-robin,
    retries to the next replica."""
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    queue: asyncio.Queue[tuple[int, dict[str, Any], int]] = asyncio.Queue()
    first_of: dict[str, int] = {}
    for body, retry in plan:
        event_id = body["event_id"]
        target = first_of.setdefault(event_id, len(first_of) % len(replicas))
        if retry:
            target = (target + 1) % len(replicas)
        queue.put_nowait((target, body, retry))
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            while not queue.empty():
                target, body, retry = queue.get_nowait()
                raw = json.dumps(body)
                headers = {"Content-Type": "application/json", **p.sign(raw)}
                if retry:
                    headers.update(
                        {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
                    )
                url = f"{replicas[target].base}/slack/events"
                start = time.perf_counter()
                async with session.post(url, data=raw, headers=headers) as response:
                    await response.read()
                    statuses[response.status] += 1
                latencies.append((time.perf_counter() - start) * 1000)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        acked = time.perf_counter() - start
        await all_replied(fake, plan)
        await wait_idle(session, replicas)
        replied = time.perf_counter() - start
    return {
        "deliveries": len(plan),
        "acked_per_s": len(plan) / acked,
        "ack_p50_ms": percentile(latencies, 0.50),
        "ack_p99_ms": percentile(latencies, 0.99),
        "all_replied_s": replied,
        "statuses": dict(statuses),
    }


async def measure(
    template: Path, root: Path, url: str | None, count: int, args: argparse.Namespace
) -> dict[str, Any]:
    fake = await FakeSlackAPI().start()
    env = replica_env(
        home=root / "unused",
        slack_url=fake.url,
        database_url=url,
        schema=f"bench_{count}_{int(time.time())}" if url else None,
    )
    replicas = [start_replica(f"r{i}", template, root, env) for i in range(count)]
    try:
        async with aiohttp.ClientSession() as session:
            for replica in replicas:
                await wait_ready(session, replica, timeout=900)
        plan = deliveries(args.events, args.retry_share)
        result = await blast(fake, replicas, plan, args.concurrency)
        result["replies_per_s"] = args.events / result["all_replied_s"]
        result["replies"] = check_replies(fake, plan)
        return result
    finally:
        stop(replicas)
        await fake.stop()


async def run(args: argparse.Namespace, template: Path, root: Path, url: str) -> dict[str, Any]:
    results: dict[str, Any] = {"events": args.events, "retry_share": args.retry_share}
    for name, on_postgres, count in CONFIGS:
        folder = root / name.replace(" ", "-")
        folder.mkdir()
        results[name] = await measure(template, folder, url if on_postgres else None, count, args)
    return results


def report(results: dict[str, Any]) -> str:
    names = [name for name, _, _ in CONFIGS]
    base = results["embedded"]
    lines = [
        f"replicas: {results['events']} events, {results['retry_share']:.0%} retried through "
        f"another replica, {os.cpu_count()} cores, no LLM",
        f"{'metric':<22}" + "".join(f"{name:>15}" for name in names),
    ]
    rows = [
        ("acked events/s", "acked_per_s", "{:.0f}"),
        ("ack p50 ms", "ack_p50_ms", "{:.1f}"),
        ("ack p99 ms", "ack_p99_ms", "{:.1f}"),
        ("replies/s", "replies_per_s", "{:.1f}"),
    ]
    for label, key, fmt in rows:
        lines.append(f"{label:<22}" + "".join(f"{fmt.format(results[n][key]):>15}" for n in names))
    ratios = "".join(
        f"{results[n]['replies_per_s'] / base['replies_per_s']:>14.2f}x" for n in names
    )
    lines.append(f"{'replies/s vs embedded':<22}{ratios}")
    for n in names:
        replies = results[n]["replies"]
        lines.append(
            f"{n}: {replies['replied']}/{replies['events']} answered, lost {replies['lost']}, "
            f"duplicated {replies['duplicated']}; HTTP {results[n]['statuses']}"
        )
    lines.append("targets: 0 lost, 0 duplicated, ack p99 <= 300 ms, postgres x3 >= 0.9x embedded")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--retry-share", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    for name in ("ANTHROPIC_API_KEY", "SLACK_APP_TOKEN", "BRAIN_ONCALL_CHANNEL"):
        os.environ.pop(name, None)
    server = PostgresServer.start(fsync=True)
    try:
        with tempfile.TemporaryDirectory(prefix="replicas-bench-") as tmp:
            template = Path(tmp) / "template"
            prepare_home(template)
            results = asyncio.run(run(args, template, Path(tmp), server.url))
    finally:
        server.stop()
    print(json.dumps(results, indent=2) if args.json else report(results))
    ok = all(results[n]["replies"]["lost"] == 0 for n, _, _ in CONFIGS)
    ok = ok and all(results[n]["replies"]["duplicated"] == 0 for n, _, _ in CONFIGS)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
