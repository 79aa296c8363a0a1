"""Replicas on PostgreSQL vs one embedded-default process: events/s, ack latency, replies/s,
lost and duplicated replies, side by side in one run.

Every configuration is real `brain run --http` processes (no LLM) against the fake Slack Web
API, sent the same N signed messages with a share delivered again as Slack retries; with
several replicas, each first attempt goes to replica i mod n and its retry to another one.

- embedded: one process, TinyDB + embedded Qdrant (the default);
- postgres x1: one process, records on PostgreSQL (fsync on);
- postgres x3: three processes sharing that PostgreSQL, each with its own vector index;
- "x3 kill -9" (unless `--no-kill`): three replicas, one of them killed with SIGKILL when
  half the deliveries are out. Its later deliveries go to the survivors (as a load balancer
  would send them); a delivery it never acknowledged is retried by "Slack" through a
  survivor; what it acknowledged and never answered is answered by the survivors' sweep
  (`bot.recovery`, heartbeat lease `BRAIN_CLAIM_LEASE`, 5 s here).

Besides the client's view, each column reports the replicas' own view from their `/metrics`
(upper bounds of the histogram bucket holding the 99th percentile, all replicas together):
the ack measured inside the process, the part of it spent waiting for the event's claim, and
how late the event loop ran its timers (the loop starved by CPU-bound work holding the GIL).

    .venv/bin/python benchmarks/replicas.py [--events 1000] [--retry-share 0.2]
        [--concurrency 16] [--no-kill] [--only "postgres x3"] [--json]
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

from benchmarks.slack_load import (  # noqa: E402
    Plan,
    check_replies,
    clean,
    deliveries,
    parser,
    percentile,
    prepare_home,
    replies_line,
)
from tests.bot import slack_payloads as p  # noqa: E402
from tests.fakes.slack_api import FakeSlackAPI  # noqa: E402
from tests.pg_server import PostgresServer  # noqa: E402
from tests.replicas import (  # noqa: E402
    Replica,
    metrics,
    replica_env,
    start_replica,
    stop,
    wait_idle,
    wait_ready,
)

CONFIGS = (("embedded", False, 1), ("postgres x1", True, 1), ("postgres x3", True, 3))
KILLED = ("x3 kill -9", True, 3)


#: The heartbeat lease of the replicas (how soon a dead one's claims are taken over).
LEASE_S = "5"


#: The replicas' histograms reported per column: (label, metric family).
SERVER_SIDE = (
    ("server ack p99 ms <=", "brain_slack_ack_seconds"),
    ("claim wait p99 ms <=", "brain_slack_claim_seconds"),
    ("loop lag p99 ms <=", "brain_event_loop_lag_seconds"),
)


async def server_side(replicas: list[Replica]) -> dict[str, float]:
    """The live replicas' histograms merged: the upper bound (ms) of the bucket holding each
    family's 99th percentile."""
    buckets: dict[str, dict[float, float]] = {family: {} for _, family in SERVER_SIDE}
    async with aiohttp.ClientSession() as session:
        for replica in replicas:
            if replica.process.poll() is not None:
                continue
            for sample, value in (await metrics(session, replica)).items():
                name, _, labels = sample.partition("{")
                for family in buckets:
                    if name == f"{family}_bucket":
                        le = float(labels.split("le=", 1)[1].rstrip("}").split(",")[0])
                        buckets[family][le] = buckets[family].get(le, 0.0) + value
    found: dict[str, float] = {}
    for family, cumulative in buckets.items():
        total = max(cumulative.values(), default=0.0)
        upper = next((b for b in sorted(cumulative) if cumulative[b] >= 0.99 * total), 0.0)
        found[family] = upper * 1000 if total else float("nan")
    return found


async def all_replied(fake: FakeSlackAPI, plan: Plan) -> None:
    """Until every event has its reply, or nothing new arrived for a minute (then the
    missing ones are reported as lost)."""
    wanted = len({body["event_id"] for body, _ in plan})
    last, quiet_since = -1, time.perf_counter()
    while True:
        replied = check_replies(fake, plan)["replied"]
        if replied == wanted:
            return
        if replied != last:
            last, quiet_since = replied, time.perf_counter()
        elif time.perf_counter() - quiet_since > 60:
            return
        await asyncio.sleep(0.05)


async def blast(
    fake: FakeSlackAPI,
    replicas: list[Replica],
    plan: Plan,
    concurrency: int,
    kill_at: int | None = None,
) -> dict[str, Any]:
    """Send the plan with `concurrency` requests in flight; first attempts round-robin,
    retries to the next replica. `kill_at`: SIGKILL the last replica once that many
    deliveries went out; from then on its deliveries go to the next live one, and one it
    did not acknowledge is sent again there as a Slack retry."""
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
    dead: set[int] = set()
    sent = 0
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            nonlocal sent
            while not queue.empty():
                target, body, retry = queue.get_nowait()
                sent += 1
                if kill_at is not None and sent >= kill_at and not dead:
                    victim = len(replicas) - 1
                    dead.add(victim)
                    replicas[victim].process.kill()
                while target in dead:
                    target = (target + 1) % len(replicas)
                raw = json.dumps(body)
                headers = {"Content-Type": "application/json", **p.sign(raw)}
                if retry:
                    headers.update(
                        {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
                    )
                url = f"{replicas[target].base}/slack/events"
                start = time.perf_counter()
                try:
                    async with session.post(url, data=raw, headers=headers) as response:
                        await response.read()
                        statuses[response.status] += 1
                except aiohttp.ClientError:  # killed mid-request: Slack retries elsewhere
                    statuses[0] += 1
                    queue.put_nowait(((target + 1) % len(replicas), body, retry + 1))
                    continue
                latencies.append((time.perf_counter() - start) * 1000)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        acked = time.perf_counter() - start
        await all_replied(fake, plan)
        await wait_idle(session, [r for i, r in enumerate(replicas) if i not in dead])
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
    template: Path,
    root: Path,
    url: str | None,
    count: int,
    args: argparse.Namespace,
    *,
    kill: bool = False,
) -> dict[str, Any]:
    fake = await FakeSlackAPI().start()
    env = replica_env(
        home=root / "unused",
        slack_url=fake.url,
        database_url=url,
        schema=f"bench_{root.name.replace('-', '_')}_{int(time.time())}" if url else None,
        BRAIN_CLAIM_LEASE=LEASE_S,
    )
    replicas = [start_replica(f"r{i}", template, root, env) for i in range(count)]
    try:
        async with aiohttp.ClientSession() as session:
            for replica in replicas:
                await wait_ready(session, replica, timeout=900)
        plan = deliveries(args.events, args.retry_share)
        kill_at = len(plan) // 2 if kill else None
        result = await blast(fake, replicas, plan, args.concurrency, kill_at)
        result["replies_per_s"] = args.events / result["all_replied_s"]
        result["replies"] = check_replies(fake, plan)
        result["server"] = await server_side(replicas)
        return result
    finally:
        stop(replicas)
        await fake.stop()


def configs(args: argparse.Namespace) -> list[tuple[str, bool, int]]:
    """The columns of this run."""
    chosen = [*CONFIGS, *([] if args.no_kill else [KILLED])]
    return [c for c in chosen if not args.only or c[0] in args.only]


async def run(args: argparse.Namespace, template: Path, root: Path, url: str) -> dict[str, Any]:
    results: dict[str, Any] = {"events": args.events, "retry_share": args.retry_share}
    for name, on_postgres, count in configs(args):
        folder = root / name.replace(" ", "-").replace("-9", "")
        folder.mkdir()
        target = url if on_postgres else None
        killed = name == KILLED[0]
        results[name] = await measure(template, folder, target, count, args, kill=killed)
    return results


def report(results: dict[str, Any]) -> str:
    names = [name for name, _, _ in (*CONFIGS, KILLED) if name in results]
    baseline = "embedded" if "embedded" in results else names[0]
    base = results[baseline]
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
    for label, family in SERVER_SIDE:
        cells = "".join(f"{results[n]['server'][family]:>15.0f}" for n in names)
        lines.append(f"{label:<22}{cells}")
    ratios = "".join(
        f"{results[n]['replies_per_s'] / base['replies_per_s']:>14.2f}x" for n in names
    )
    lines.append(f"{'replies/s vs ' + baseline:<22}{ratios}")
    for n in names:
        replies = results[n]["replies"]
        lines.append(f"{n}: {replies_line(replies)}; HTTP {results[n]['statuses']}")
    lines.append("targets: 0 lost, 0 duplicated, ack p99 <= 300 ms, postgres x3 >= 0.9x embedded")
    return "\n".join(lines)


def main() -> int:
    options = parser(__doc__.splitlines()[0])
    options.add_argument(
        "--no-kill", action="store_true", help="skip the column with one replica killed mid-burst"
    )
    options.add_argument(
        "--only", action="append", help="run only this column (repeatable): e.g. 'postgres x3'"
    )
    args = options.parse_args()
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
    return 0 if all(clean(results[n]["replies"]) for n, _, _ in configs(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
