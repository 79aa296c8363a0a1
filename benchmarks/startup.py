"""Startup and embedding benchmark: ONNX Runtime against the PyTorch path, one run.

For each engine (`BRAIN_EMBEDDING_ENGINE=onnx|torch`), side by side:

- wall time of whole `brain` processes: `brain --help`, `brain why ID`, a warm `brain ask`
  (median of --repeat runs), and the first `brain ask` in a fresh home (the model export, the
  fit of the routing model and the sample KB ingest included; the encoder cache is the fresh
  home's own); `brain run --http` from its start until `/readyz` says 200, in the warm home
  (median of --repeat);
- query embedding p50/p99 (one text per call, cache cleared: what a decision pays), on the
  development set's texts;
- ingestion chunks/s (`brain ingest` of the sample KB copied several times, in-process,
  embedding and the store's writes included), and the embedding alone of the sample KB's
  chunks (batched, as an ingest embeds them);
- ONNX only: the split at the fork layer (lower + upper graph) against one graph of the whole
  model, per query, to show what sharing the lower layers with a fine-tuned top costs.

Processes run with Python's bytecode cache, as an installed package has it: the project's
packages are compiled first and `PYTHONDONTWRITEBYTECODE` is dropped for them (with it set, as
in these sessions' shells, every process compiled ~150 modules again: ~0.6 CPU-s per ask).

Run: `python benchmarks/startup.py [--repeat 3] [--engines onnx,torch] [--json OUT]`
(several minutes on 2 cores: two fresh homes fit the routing model).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEVSET = ROOT / "benchmarks" / "data" / "devset.jsonl"
ASK = "VPN error 691 since this morning, cannot reach the file server"
#: The project's packages (their bytecode is compiled before the processes are timed).
PACKAGES = ("core", "knowledge", "controllers", "brain", "bot", "cli")


#: CPU seconds (user + system) of the last process `brain` ran: unlike wall time, hardly
#: moved by other work on a shared machine.
LAST_CPU_S = [0.0]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def brain(
    args: Sequence[str], env: dict[str, str], *, program: Sequence[str] = ("-m", "brain")
) -> tuple[float, str]:
    """Wall seconds and stdout of one `python -m brain ARGS` process (CPU in LAST_CPU_S)."""
    cpu = _children_cpu()
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, *program, *args], capture_output=True, text=True, env=env
    )
    elapsed = time.perf_counter() - started
    LAST_CPU_S[0] = _children_cpu() - cpu
    if result.returncode != 0:
        raise RuntimeError(f"brain {' '.join(args)} failed: {result.stderr[-2000:]}")
    return elapsed, result.stdout


def median_wall(args: Sequence[str], env: dict[str, str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `repeat` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        walls.append(brain(args, env)[0])
        cpus.append(LAST_CPU_S[0])
    return float(np.median(walls)), float(np.median(cpus))


def run_until_ready(env: dict[str, str]) -> float:
    """Seconds from starting `brain run --http` until its `/readyz` answers 200 (the fake
    Slack Web API of the tests stands in for Slack; nothing is sent to it before ready)."""
    import asyncio
    import re
    import signal

    import aiohttp

    from tests.bot import slack_payloads
    from tests.fakes.slack_api import FakeSlackAPI

    listening = re.compile(rb"listening on (http://127\.0\.0\.1:\d+)/")

    async def measure() -> float:
        fake = await FakeSlackAPI().start()
        run_env = {
            **env,
            "SLACK_BOT_TOKEN": "xoxb-benchmark",
            "SLACK_SIGNING_SECRET": slack_payloads.SIGNING_SECRET,
            "SLACK_API_URL": fake.url,
        }
        run_env.pop("SLACK_APP_TOKEN", None)
        started = time.perf_counter()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "brain", "run", "--http", "--port", "0", "--host", "127.0.0.1",
            env=run_env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        try:
            base = None
            while base is None:
                line = await process.stderr.readline()
                if not line:
                    raise RuntimeError("brain run exited before listening")
                found = listening.search(line)
                base = found.group(1).decode() if found else None
            drain = asyncio.ensure_future(process.stderr.read())
            async with aiohttp.ClientSession() as session:
                while True:
                    async with session.get(f"{base}/readyz") as response:
                        if response.status == 200:
                            return time.perf_counter() - started
                    await asyncio.sleep(0.02)
        finally:
            process.send_signal(signal.SIGTERM)
            await process.wait()
            if "drain" in locals():
                await drain
            await fake.stop()

    return asyncio.run(measure())


def process_times(engine: str, repeat: int, root: Path) -> dict[str, float]:
    """Wall (and CPU) times of whole `brain` processes on `engine`, in a fresh home of its
    own. For ONNX the install step runs first (`scripts/export_model.py`, into an install
    cache of this run), as `scripts/setup` does; then the first ask of a second fresh home
    without that cache shows what a home pays that exports for itself."""
    home = root / f"home-{engine}"
    env = {
        **{k: v for k, v in os.environ.items() if k != "BRAIN_ENCODER_CACHE"},
        "BRAIN_HOME": str(home),
        "BRAIN_EMBEDDING_ENGINE": engine,
        "BRAIN_INSTALL_CACHE": str(root / "install"),
        "PYTHONPATH": str(ROOT),
    }
    env.pop("ANTHROPIC_API_KEY", None)
    # An installed package has its bytecode cached; without it every process compiles the
    # project's ~150 modules again (about 0.6 CPU-s of a warm `brain ask`).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    figures: dict[str, float] = {}
    for package in PACKAGES:  # bytecode written as `pip install` does
        compileall.compile_dir(ROOT / package, quiet=1)
    if engine == "onnx":
        export = ROOT / "scripts" / "export_model.py"
        figures["install_export_s"] = brain([], env, program=(str(export),))[0]
    first, out = brain(["ask", ASK, "--json"], env)
    figures["first_ask_fresh_home_s"] = first
    figures["first_ask_fresh_home_cpu_s"] = LAST_CPU_S[0]
    if engine == "onnx":
        bare = {
            **env,
            "BRAIN_HOME": str(root / "home-no-install"),
            "BRAIN_INSTALL_CACHE": str(root / "none"),
        }
        figures["first_ask_fresh_home_no_install_cache_s"] = brain(["ask", ASK, "--json"], bare)[0]
        figures["first_ask_fresh_home_no_install_cache_cpu_s"] = LAST_CPU_S[0]
    decision_id = json.loads(out)["decision_id"]
    for name, args in (
        ("warm_ask", ["ask", ASK, "--json"]),
        ("why", ["why", decision_id]),
        ("help", ["--help"]),
    ):
        figures[f"{name}_s"], figures[f"{name}_cpu_s"] = median_wall(args, env, repeat)
    figures["run_ready_warm_s"] = float(np.median([run_until_ready(env) for _ in range(repeat)]))
    return figures


def query_latency(engine: str, texts: list[str], cache: Path) -> dict[str, float]:
    """p50/p99 ms of one uncached query embedding, the model load time (an exported model for
    ONNX), and chunks/s embedding the sample KB's chunks in batches."""
    from core.config import Settings
    from core.text.embedder import open_embedder

    os.environ["BRAIN_ENCODER_CACHE"] = str(cache)
    if engine == "onnx":  # export first: the load time is that of every later process
        open_embedder(engine, Settings(home=cache.parent)).load()
    embedder = open_embedder(engine, Settings(home=cache.parent))
    started = time.perf_counter()
    embedder.load()
    load_s = time.perf_counter() - started
    for text in texts[:20]:  # warm-up
        embedder.embed_query(text)
    times = []
    for text in texts:
        embedder.clear_cache()
        started = time.perf_counter()
        embedder.embed_query(text)
        times.append((time.perf_counter() - started) * 1000)
    chunks = chunk_texts()
    started = time.perf_counter()
    embedder.embed(chunks)
    embed_rate = len(chunks) / (time.perf_counter() - started)
    return {
        "load_s": load_s,
        "embed_chunks_per_s": embed_rate,
        "query_p50_ms": float(np.percentile(times, 50)),
        "query_p99_ms": float(np.percentile(times, 99)),
    }


def chunk_texts() -> list[str]:
    """The sample KB's chunk texts (what an ingest embeds)."""
    from knowledge import SAMPLE_DIR
    from knowledge.ingest import chunk_texts as texts_of

    return texts_of([SAMPLE_DIR])


def ingest_rate(engine: str, root: Path, copies: int) -> dict[str, float]:
    """chunks/s of an ingest of the sample KB copied `copies` times (model loaded before)."""
    from core.config import KnowledgeConfig, Settings
    from core.text.embedder import open_embedder
    from knowledge import SAMPLE_DIR, vector_cache
    from knowledge.manifest import DocManifest
    from knowledge.skill import KnowledgeSkill
    from knowledge.store import KnowledgeStore
    from knowledge.vector_cache import SHIPPED_DIR

    kb = root / f"kb-{engine}"
    for copy in range(copies):
        shutil.copytree(SAMPLE_DIR, kb / f"copy{copy}")
    figures: dict[str, float] = {}
    for name, shipped in (("ingest", root / "no-vectors"), ("ingest_precomputed", None)):
        # Every chunk embedded (no precomputed vectors), then the sample KB's shipped vectors.
        vector_cache.SHIPPED_DIR = shipped or SHIPPED_DIR
        settings = Settings(
            home=root / f"{name}-{engine}", knowledge=KnowledgeConfig(ingest_sample=False)
        )
        embedder = open_embedder(engine, settings)
        embedder.load()
        store = KnowledgeStore.open(settings, embedder)
        skill = KnowledgeSkill(store, DocManifest.open(settings))
        try:
            report = skill.ingest([kb], progress=False)
        finally:
            skill.close()
            vector_cache.SHIPPED_DIR = SHIPPED_DIR
        figures[f"{name}_chunks"] = report.chunks_written
        figures[f"{name}_chunks_per_s"] = report.chunks_per_second
    return figures


def split_cost(texts: list[str], cache: Path) -> dict[str, float]:
    """ONNX per-query ms: lower + upper graphs (the split) against one graph of the model."""
    import onnxruntime

    from core.text.embedder import _model_dir, open_embedder
    from core.text.onnx_encoder import read_tokenizer
    from core.text.onnx_export import export_whole_model

    os.environ["BRAIN_ENCODER_CACHE"] = str(cache)
    split = open_embedder("onnx")
    split.load()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    whole = onnxruntime.InferenceSession(
        export_whole_model(_model_dir()), options, providers=["CPUExecutionProvider"]
    )
    tokenizer = read_tokenizer(_model_dir())

    def one_graph(text: str) -> None:
        encoded = tokenizer.encode_batch([text])[0]
        feed = {
            "input_ids": np.array([encoded.ids], dtype=np.int64),
            "attention_mask": np.array([encoded.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([encoded.type_ids], dtype=np.int64),
        }
        hidden = whole.run(None, feed)[0]
        mask = feed["attention_mask"][:, :, None]
        vector = (hidden * mask).sum(1) / mask.sum(1)
        vector / np.linalg.norm(vector)

    def two_graphs(text: str) -> None:
        split.clear_cache()
        split.embed_query(text)

    figures: dict[str, list[float]] = {"one_graph": [], "split": []}
    for _ in range(2):  # interleaved, so load on the machine hits both alike
        for text in texts:
            for name, run in (("one_graph", one_graph), ("split", two_graphs)):
                started = time.perf_counter()
                run(text)
                figures[name].append((time.perf_counter() - started) * 1000)
    return {f"{name}_p50_ms": float(np.percentile(v, 50)) for name, v in figures.items()}


def fast_path(count: int, cache: Path) -> dict[str, object]:
    """Fast-path decisions (their query embedding uncached) against one ONNX query embedding,
    alternating, on `count` dev-set rows (`routing.end_to_end`, in a fresh home)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from routing import end_to_end

    os.environ["BRAIN_ENCODER_CACHE"] = str(cache)
    os.environ.pop("ANTHROPIC_API_KEY", None)
    rows = [json.loads(line) for line in DEVSET.read_text().splitlines() if line.strip()]
    return end_to_end(rows[:count])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="onnx,torch")
    parser.add_argument("--repeat", type=int, default=3, help="runs per warm command (median)")
    parser.add_argument("--queries", type=int, default=300, help="texts for query latency")
    parser.add_argument("--copies", type=int, default=4, help="sample KB copies to ingest")
    parser.add_argument("--skip-processes", action="store_true")
    parser.add_argument(
        "--fast-path",
        type=int,
        default=100,
        help="dev-set texts decided for fast path vs embedding (0: skip)",
    )
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    texts = [json.loads(line)["text"] for line in DEVSET.read_text().splitlines() if line.strip()]
    texts = (texts * (1 + args.queries // len(texts)))[: args.queries]
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    results: dict[str, dict[str, float]] = {e: {} for e in engines}
    with tempfile.TemporaryDirectory(prefix="brain-startup-") as tmp:
        root = Path(tmp)
        cache = root / "encoder-cache" / "models" / "encoder"
        for engine in engines:
            if not args.skip_processes:
                results[engine].update(process_times(engine, args.repeat, root))
            results[engine].update(query_latency(engine, texts, cache))
            results[engine].update(ingest_rate(engine, root, args.copies))
            print(f"{engine}: done", file=sys.stderr, flush=True)
        split = split_cost(texts[:100], cache) if "onnx" in engines else {}
        fast = fast_path(args.fast_path, cache) if "onnx" in engines and args.fast_path else {}
    keys = sorted({k for figures in results.values() for k in figures})
    both = "onnx" in engines and "torch" in engines
    ratio = f"{'onnx/torch':>12}" if both else ""
    print(f"{'figure':44}" + "".join(f"{e:>12}" for e in engines) + ratio)
    for key in keys:
        row = "".join(f"{results[e].get(key, float('nan')):>12.3f}" for e in engines)
        if both:
            onnx, torch = results["onnx"].get(key), results["torch"].get(key)
            row += f"{onnx / torch:>12.2f}" if onnx is not None and torch else f"{'':>12}"
        print(f"{key:44}{row}")
    if fast:
        print(
            f"fast-path decision p50 {fast['fast']['p50']} ms over {fast['fast_n']} decisions "
            f"vs one ONNX query embedding p50 {fast['embed_query']['p50']} ms: {fast['ratio']}x"
        )
    if split:
        one, two = split["one_graph_p50_ms"], split["split_p50_ms"]
        print(f"ONNX per query, p50: one graph {one:.2f} ms, lower + upper graphs {two:.2f} ms")
    if args.json:
        figures = {"engines": results, "split": split, "fast_path": fast, "load": os.getloadavg()}
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
