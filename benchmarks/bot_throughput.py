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

from benchmarks.slack_load import (  # noqa: E402
    check_replies,
    clean,
    deliveries,
    parser,
    percentile,
    prepare_home,
    replies_line,
)
from bot.app import SlackBot, build_bot, web_client  # noqa: E402
from bot.server import EVENTS_PATH, http_app  # noqa: E402
from core.config import Settings, load_settings  # noqa: E402
from tests.bot import slack_payloads as p  # noqa: E402
from tests.fakes.slack_api import FakeSlackAPI  # noqa: E402


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
        f"replies: {replies_line(replies)}; all replies after "
        f"{bot['all_replied_s']:.1f} s = {bot['replies_per_s']:.1f} replies/s (brain-bound)"
    )
    lines.append(f"HTTP statuses: no-op {base['statuses']}, bot {bot['statuses']}")
    lines.append("targets: >= 100 events/s, ack p99 <= 300 ms, 0 lost, 0 duplicated")
    return "\n".join(lines)


def main() -> int:
    args = parser(__doc__.splitlines()[0]).parse_args()
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
    return 0 if clean(results["replies"]) else 1


if __name__ == "__main__":
    sys.exit(main())
