"""Slack bot throughput: events/s, ack latency and lost/duplicated replies under retries.

Runs the real bot (real Brain, no LLM) over real HTTP against the fake Slack Web API, sends
N signed Events API messages with a share delivered twice as Slack retries (X-Slack-Retry-Num),
and compares with a no-op Bolt app (same signing and aiohttp adapter, listener only acks).

    .venv/bin/python benchmarks/bot_throughput.py [--events 1000] [--retry-share 0.2]
        [--concurrency 16] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slack_bolt.async_app import AsyncApp  # noqa: E402

from bot.app import SlackBot, build_bot, web_client  # noqa: E402
from bot.server import EVENTS_PATH, http_app  # noqa: E402
from core.config import Settings, load_settings  # noqa: E402
from tests.bot import slack_payloads as p  # noqa: E402
from tests.fakes.slack_api import FakeSlackAPI  # noqa: E402

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


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def serve(application: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return runner, f"http://127.0.0.1:{port}{EVENTS_PATH}"


def noop_app(settings: Settings) -> web.Application:
    """Baseline: a Bolt app whose only listener acks (same middleware, same adapter)."""
    from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request

    assert settings.slack.signing_secret is not None
    app = AsyncApp(
        client=web_client(settings),
        signing_secret=settings.slack.signing_secret.get_secret_value(),
        process_before_response=False,
    )

    @app.event("message")
    async def ignore(event: dict[str, Any]) -> None:
        return None

    async def events(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await app.async_dispatch(await to_bolt_request(request)))

    application = web.Application()
    application.router.add_post(EVENTS_PATH, events)
    return application


def deliveries(count: int, retry_share: float, seed: int = 7) -> list[tuple[dict[str, Any], int]]:
    """(body, retry number) in send order: each event once, a share again as a retry soon after."""
    rng = random.Random(seed)
    planned: list[tuple[dict[str, Any], int]] = []
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


async def blast(url: str, plan: list[tuple[dict[str, Any], int]], concurrency: int) -> dict:
    """Send everything with `concurrency` requests in flight; ack latency of each."""
    latencies: list[float] = []
    order: list[tuple[int, float]] = []
    statuses: Counter[int] = Counter()
    queue: asyncio.Queue[tuple[dict[str, Any], int]] = asyncio.Queue()
    for item in plan:
        queue.put_nowait(item)
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            while not queue.empty():
                position = len(plan) - queue.qsize()
                body, retry = queue.get_nowait()
                raw = json.dumps(body)
                headers = {"Content-Type": "application/json", **p.sign(raw)}
                if retry:
                    headers.update(
                        {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
                    )
                start = time.perf_counter()
                async with session.post(url, data=raw, headers=headers) as response:
                    await response.read()
                    statuses[response.status] += 1
                latencies.append((time.perf_counter() - start) * 1000)
                order.append((position, latencies[-1]))

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    return {
        "requests": len(plan),
        "seconds": elapsed,
        "events_per_s": len(plan) / elapsed,
        "ack_p50_ms": percentile(latencies, 0.50),
        "ack_p99_ms": percentile(latencies, 0.99),
        "ack_max_ms": max(latencies),
        "statuses": dict(statuses),
        "slowest": sorted(order, key=lambda item: -item[1])[:12],
    }


def check_replies(fake: FakeSlackAPI, plan: list[tuple[dict[str, Any], int]]) -> dict[str, int]:
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


def prepare_home(home: Path) -> None:
    """A brain home with the sample KB ingested and models warm (first ask loads MiniLM)."""
    from brain.engine import Brain
    from core.records import Message

    os.environ["BRAIN_HOME"] = str(home)
    with Brain.open(load_settings()) as brain:
        brain.ask(Message("warm-up: vpn is broken", user="UWARM", channel="DWARM"))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from brain.engine import Brain

    fake = await FakeSlackAPI().start()
    os.environ.update(
        SLACK_BOT_TOKEN="xoxb-bench",
        SLACK_SIGNING_SECRET=p.SIGNING_SECRET,
        SLACK_API_URL=fake.url,
    )
    for name in ("ANTHROPIC_API_KEY", "SLACK_APP_TOKEN", "BRAIN_ONCALL_CHANNEL"):
        os.environ.pop(name, None)
    plan = deliveries(args.events, args.retry_share)
    settings = load_settings()
    results: dict[str, Any] = {"plan": {"events": args.events, "deliveries": len(plan)}}

    runner, url = await serve(noop_app(settings))
    results["noop_bolt"] = await blast(url, plan, args.concurrency)
    await runner.cleanup()
    fake.calls.clear()

    brain = Brain.open(settings)
    bot: SlackBot = build_bot(brain, settings)
    runner, url = await serve(http_app(bot))
    await bot.start()  # events before the warm-up ends get 503
    started = time.perf_counter()
    results["brain_bot"] = await blast(url, plan, args.concurrency)
    await bot.idle(timeout=3600)
    results["brain_bot"]["replies_per_s"] = args.events / (time.perf_counter() - started)
    results["brain_bot"]["all_replied_s"] = time.perf_counter() - started
    results["replies"] = check_replies(fake, plan)
    results["llm_calls"] = brain.llm.calls if brain.llm is not None else 0
    await runner.cleanup()
    brain.close()
    await fake.stop()
    return results


def report(results: dict[str, Any], cores: int) -> str:
    base, bot = results["noop_bolt"], results["brain_bot"]
    rows = [
        ("events/s (acked)", "events_per_s", "{:.0f}"),
        ("ack p50 ms", "ack_p50_ms", "{:.1f}"),
        ("ack p99 ms", "ack_p99_ms", "{:.1f}"),
        ("ack max ms", "ack_max_ms", "{:.1f}"),
    ]
    lines = [
        f"bot throughput: {results['plan']['events']} events, {results['plan']['deliveries']} "
        f"deliveries (retries included), {cores} cores, no LLM (llm calls: {results['llm_calls']})",
        f"{'metric':<22}{'no-op bolt':>14}{'brain bot':>14}{'ratio':>10}",
    ]
    for label, key, fmt in rows:
        ratio = bot[key] / base[key] if base[key] else float("nan")
        lines.append(
            f"{label:<22}{fmt.format(base[key]):>14}{fmt.format(bot[key]):>14}{ratio:>9.2f}x"
        )
    replies = results["replies"]
    lines.append(
        f"replies: {replies['replied']}/{replies['events']} events answered, "
        f"lost {replies['lost']}, duplicated {replies['duplicated']}; all replies after "
        f"{bot['all_replied_s']:.1f} s = {bot['replies_per_s']:.1f} replies/s (brain-bound)"
    )
    lines.append(f"HTTP statuses: no-op {base['statuses']}, bot {bot['statuses']}")
    lines.append("targets: >= 100 events/s, ack p99 <= 300 ms, 0 lost, 0 duplicated")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--retry-share", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="bot-bench-") as tmp:
        home = Path(tmp) / "home"
        prepare_home(home)
        results = asyncio.run(run(args))
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(report(results, os.cpu_count() or 0))
    ok = results["replies"]["lost"] == 0 and results["replies"]["duplicated"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
