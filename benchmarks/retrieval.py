"""Retrieval benchmark of the knowledge base.

Measures, in one run, side by side:

- quality on a labelled query set (benchmarks/data/retrieval_queries.jsonl, English and
  Chinese, each with the expected sample-KB document): recall@1 and recall@5 over the top-5
  chunks for hybrid vs dense-only vs sparse-only, per language;
- query latency p50/p99 at 1k and 10k chunks (the sample KB plus synthetic filler chunks in a
  temporary store), on the embedded Qdrant Edge shard (hybrid = prefetch per channel + weighted
  RRF in one query) and, as the baseline, the same points in qdrant-client's local mode (the
  same query through the server API, the embedded store before Qdrant Edge; kept in memory,
  which only flatters its writes), with the query
  embedding cached (warm) and including it (cold);
- writes: seconds to upsert the filler points into each store, and to reopen the 10k shard;
- ingestion throughput (chunks/s, embedding included) and `brain --help` wall time.

Run: `.venv/bin/python benchmarks/retrieval.py` (about 3-5 minutes on 2 cores);
`--quick` stops at 1k chunks.

Filler chunks are sentences recombined from the sample KB. Their dense vectors are real
MiniLM embeddings for a pool of texts, reused with small noise for the rest (embedding 10k
texts would dominate the run); they are realistic distractors for both channels.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.config import Settings
from core.text.embedder import DenseEmbedder, get_dense_embedder
from core.text.language import detect_language
from knowledge import SAMPLE_DIR
from knowledge.chunk import Chunk, point_id
from knowledge.ingest import Ingestor
from knowledge.manifest import DocManifest
from knowledge.skill import ANSWER_KINDS, KnowledgeSkill
from knowledge.store import KnowledgeStore, Mode
from knowledge.vectors import HybridQuery, VectorHit, VectorPoint, VectorRecord, VectorStore, Where
from knowledge.vectors.edge import EdgeVectorStore
from knowledge.vectors.server import ServerVectorStore

QUERIES = Path(__file__).parent / "data" / "retrieval_queries.jsonl"
MODES: tuple[Mode, ...] = ("hybrid", "dense", "sparse")
WHERE = {"kind": list(ANSWER_KINDS)}
FILLER_POOL = 256


class Mirrored:
    """Writes go to the embedded store and the baseline (timed apart); reads to the first."""

    def __init__(self, primary: VectorStore, baseline: VectorStore) -> None:
        self.primary = primary
        self.baseline = baseline
        self.write_s = {"edge": 0.0, "baseline": 0.0}

    @property
    def has_dense(self) -> bool:
        return self.primary.has_dense

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        for name, store in (("edge", self.primary), ("baseline", self.baseline)):
            started = time.perf_counter()
            store.upsert(points)
            self.write_s[name] += time.perf_counter() - started

    def delete(self, point_ids: Sequence[str]) -> None:
        self.primary.delete(point_ids)
        self.baseline.delete(point_ids)

    def count(self, where: Where | None = None) -> int:
        return self.primary.count(where)

    def scroll(self, where: Where | None = None) -> Iterator[VectorRecord]:
        return self.primary.scroll(where)

    def search(
        self, query: HybridQuery, *, limit: int, where: Where | None = None
    ) -> list[VectorHit]:
        return self.primary.search(query, limit=limit, where=where)

    def close(self) -> None:
        self.primary.close()
        self.baseline.close()


@dataclass(frozen=True, slots=True)
class Labelled:
    """One query of the labelled set and the documents that answer it."""

    query: str
    lang: str
    expected: frozenset[str]


def load_queries() -> list[Labelled]:
    """The labelled queries (every expected document must exist in the sample KB)."""
    rows = []
    for line in QUERIES.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        row = Labelled(str(raw["query"]), str(raw["lang"]), frozenset(raw["expected"]))
        missing = [doc for doc in row.expected if not (SAMPLE_DIR / doc).is_file()]
        if missing:
            raise SystemExit(f"query set names missing documents: {missing}")
        rows.append(row)
    return rows


def doc_of(source: str) -> str:
    """A hit's source relative to the sample KB."""
    path = Path(source)
    return path.relative_to(SAMPLE_DIR).as_posix() if path.is_relative_to(SAMPLE_DIR) else source


def quality(
    store: KnowledgeStore, queries: list[Labelled], modes: Sequence[Mode] = MODES
) -> dict[str, dict[str, float]]:
    """recall@1 / recall@5 per mode and language ("all", "en", "zh")."""
    table: dict[str, dict[str, float]] = {}
    for mode in modes:
        hits_at: dict[str, list[tuple[bool, bool]]] = {"all": [], "en": [], "zh": []}
        for row in queries:
            docs = [
                doc_of(hit.payload["source"])
                for hit in store.search(row.query, limit=5, where=WHERE, mode=mode)
            ]
            outcome = (bool(docs) and docs[0] in row.expected, bool(row.expected & set(docs)))
            hits_at["all"].append(outcome)
            hits_at[row.lang].append(outcome)
        for lang, outcomes in hits_at.items():
            table[f"{mode}/{lang}"] = {
                "n": len(outcomes),
                "r@1": sum(a for a, _ in outcomes) / len(outcomes),
                "r@5": sum(b for _, b in outcomes) / len(outcomes),
            }
    return table


def misses(store: KnowledgeStore, queries: list[Labelled]) -> list[str]:
    """Hybrid top-1 misses, for the report."""
    lines = []
    for row in queries:
        hits = store.search(row.query, limit=5, where=WHERE)
        docs = [doc_of(hit.payload["source"]) for hit in hits]
        if not docs or docs[0] not in row.expected:
            lines.append(f"  {row.query!r}: got {docs[:3]}, want {sorted(row.expected)}")
    return lines


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100)."""
    return float(np.percentile(np.asarray(values), q))


def latency(run: Callable[[str], object], queries: list[str], repeats: int) -> tuple[float, float]:
    """p50 and p99 in milliseconds of `run` over the queries, `repeats` times each."""
    samples = []
    for _ in range(repeats):
        for query in queries:
            start = time.perf_counter()
            run(query)
            samples.append((time.perf_counter() - start) * 1000)
    return percentile(samples, 50), percentile(samples, 99)


def filler_texts(count: int, seed: int) -> list[str]:
    """Synthetic chunks recombined from sentences of the sample KB."""
    sentences = []
    for path in sorted(SAMPLE_DIR.rglob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip(" -#>*0123456789.")
            if len(line) > 30 and not line.startswith(("---", "title:", "domain:")):
                sentences.append(line)
    rng = random.Random(seed)
    texts = []
    for index in range(count):
        picked = rng.sample(sentences, 3)
        team = rng.choice(["ops", "infra", "desk", "finance"])
        texts.append(f"Note {index} ({team}): " + " ".join(picked))
    return texts


def add_filler(
    store: KnowledgeStore, embedder: DenseEmbedder | None, count: int, start: int
) -> None:
    """Add `count` filler chunks (ids continue from `start`)."""
    if count <= 0:
        return
    texts = filler_texts(count, seed=start)
    vectors = None
    if store.has_dense and embedder is not None:
        pool = embedder.embed(texts[:FILLER_POOL])
        rng = np.random.default_rng(start)
        rows = pool[np.arange(count) % len(pool)] + rng.normal(0, 0.02, (count, embedder.dim))
        vectors = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    domains = ["ticket", "consultation", "alarm", "coding", "access", "incident", "change"]
    chunks = [
        Chunk(
            point_id("filler", start + i),
            text,
            {
                "kind": "doc",
                "source": f"filler/{start + i}",
                "title": "filler",
                "section": "",
                "language": detect_language(text),
                "domain": domains[i % len(domains)],
                "text": text,
            },
        )
        for i, text in enumerate(texts)
    ]
    store.upsert(chunks, vectors=vectors, batch_size=1000)


def bulk_ingest_rate(
    store: KnowledgeStore, manifest: DocManifest, workdir: Path
) -> tuple[int, float]:
    """Chunks/s of a real ingest (parse, embed, write) of a synthetic Markdown folder."""
    folder = workdir / "bulk"
    folder.mkdir()
    texts = filler_texts(600, seed=99)
    for doc in range(60):
        sections = "\n\n".join(f"## Section {s}\n\n{texts[doc * 10 + s]}" for s in range(10))
        (folder / f"doc-{doc}.md").write_text(
            f"---\ndomain: incident\n---\n# Bulk document {doc}\n\n{sections}\n", encoding="utf-8"
        )
    report = Ingestor(store, manifest).ingest([folder], progress=False)
    return report.chunks_written, report.chunks_per_second


def cli_wall_time(args: list[str], env: dict[str, str], runs: int = 3) -> float:
    """Median wall time in seconds of `brain ARGS` in a fresh process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "brain", *args], env=env, capture_output=True, check=False
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="stop at 1k chunks")
    parser.add_argument("--repeats", type=int, default=3, help="passes over the queries")
    args = parser.parse_args()

    queries = load_queries()
    texts = [row.query for row in queries]
    workdir = Path(tempfile.mkdtemp(prefix="brain-retrieval-"))
    try:
        started = time.perf_counter()
        embedder = get_dense_embedder()
        if embedder is None:
            raise SystemExit("the dense embedder is not available; nothing to compare")
        embedder.load()
        load_s = time.perf_counter() - started

        edge_path = workdir / "edge" / "bench"
        # in memory: on disk, local mode commits each point to SQLite (~40 points/s here)
        baseline_vectors = ServerVectorStore.local(":memory:", "bench", dense_dim=embedder.dim)
        mirror = Mirrored(EdgeVectorStore.open(edge_path, dense_dim=embedder.dim), baseline_vectors)
        store = KnowledgeStore(mirror, embedder)
        baseline = KnowledgeStore(baseline_vectors, embedder)
        manifest = DocManifest.open(Settings(home=workdir / "home"))
        sample_report = Ingestor(store, manifest).ingest([SAMPLE_DIR], progress=False)
        skill = KnowledgeSkill(store, manifest)
        sample_chunks = store.count()

        table = quality(store, queries)
        missed = misses(store, queries)
        baseline_table = quality(baseline, queries, modes=("hybrid",))

        sparse_store = KnowledgeStore.open_local(workdir / "qdrant-sparse", "bench", None)
        sparse_report = Ingestor(
            sparse_store, DocManifest.open(Settings(home=workdir / "home-sparse"))
        ).ingest([SAMPLE_DIR], progress=False)
        sparse_only = quality(sparse_store, queries)
        sparse_store.close()

        sizes = [1000] if args.quick else [1000, 10000]
        filler_s: dict[int, dict[str, float]] = {}
        lat: dict[int, dict[str, tuple[float, float]]] = {}
        at_size: dict[int, dict[str, dict[str, float]]] = {}
        probe = filler_texts(200, seed=7)
        embed_started = time.perf_counter()
        embedder.embed(probe)
        embed_rate = len(probe) / (time.perf_counter() - embed_started)
        bulk = bulk_ingest_rate(store, manifest, workdir)  # its chunks also serve as filler
        for size in sizes:
            before = dict(mirror.write_s)
            added = size - store.count()
            add_filler(store, embedder, added, start=store.count())
            filler_s[added] = {name: mirror.write_s[name] - before[name] for name in before}
            row: dict[str, tuple[float, float]] = {}
            for mode in MODES:
                run = functools.partial(store.search, limit=5, where=WHERE, mode=mode)
                row[f"{mode} warm"] = latency(run, texts, args.repeats)
            row["skill.search warm"] = latency(lambda q: skill.search(q, k=5), texts, args.repeats)
            cold = [f"{q} #{size}" for q in texts]  # not in the query-embedding cache
            row["skill.search cold"] = latency(lambda q: skill.search(q, k=5), cold, 1)
            native = texts[:: max(1, len(texts) // (20 if size <= 1000 else 5))]
            row["qdrant-client local hybrid"] = latency(
                lambda q: baseline.search(q, limit=5, where=WHERE), native, 1
            )
            lat[store.count()] = row
            at_size[store.count()] = quality(store, queries)

        env = {**os.environ, "BRAIN_HOME": str(workdir / "cli-home")}
        empty = workdir / "empty"
        empty.mkdir()
        help_s = cli_wall_time(["--help"], env)
        ingest_nothing_s = cli_wall_time(["ingest", str(empty)], env)
        points = store.count()
        store.close()
        started = time.perf_counter()
        reopened = EdgeVectorStore.open(edge_path, dense_dim=embedder.dim)
        reopened.count()
        reopen_s = time.perf_counter() - started
        reopened.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    print(
        f"\nRetrieval benchmark: {len(queries)} labelled queries "
        f"({sum(r.lang == 'en' for r in queries)} en, "
        f"{sum(r.lang == 'zh' for r in queries)} zh); "
        f"sample KB {sample_chunks} chunks; model load {load_s:.1f} s\n"
    )
    print("Quality on the sample KB (top-5 chunks; baseline = dense-only)")
    print(f"{'mode':<8} {'lang':<4} {'n':>3} {'recall@1':>9} {'recall@5':>9} {'r@1 vs dense':>13}")
    for mode in MODES:
        for lang in ("en", "zh", "all"):
            cell = table[f"{mode}/{lang}"]
            base = table[f"dense/{lang}"]["r@1"] or 1e-9
            print(
                f"{mode:<8} {lang:<4} {int(cell['n']):>3} {cell['r@1']:>9.1%} {cell['r@5']:>9.1%} "
                f"{cell['r@1'] / base:>12.2f}x"
            )
    for lang in ("en", "zh", "all"):
        cell = sparse_only[f"sparse/{lang}"]
        print(
            f"{'no-model':<8} {lang:<4} {int(cell['n']):>3} {cell['r@1']:>9.1%} {cell['r@5']:>9.1%}"
            "   (BRAIN_EMBEDDER=none store)"
        )
    cell = baseline_table["hybrid/all"]
    print(
        f"same points in qdrant-client local mode: hybrid r@1 {cell['r@1']:.1%}, "
        f"r@5 {cell['r@5']:.1%}"
    )
    if missed:
        print("hybrid top-1 misses:")
        print("\n".join(missed))
    for count, scores in at_size.items():
        print(
            f"with filler at {count} chunks: hybrid r@1 {scores['hybrid/all']['r@1']:.1%}, "
            f"r@5 {scores['hybrid/all']['r@5']:.1%} (en {scores['hybrid/en']['r@1']:.1%}/"
            f"{scores['hybrid/en']['r@5']:.1%}, zh {scores['hybrid/zh']['r@1']:.1%}/"
            f"{scores['hybrid/zh']['r@5']:.1%})"
        )

    print(
        "\nQuery latency in ms, p50 / p99 (warm = query embedding cached; baseline = "
        "qdrant-client local hybrid)"
    )
    counts = list(lat)
    print(f"{'path':<28}" + "".join(f"{f'{c} chunks':>22}" for c in counts))
    for name in lat[counts[0]]:
        cells = []
        for count in counts:
            p50, p99 = lat[count][name]
            base = lat[count]["qdrant-client local hybrid"][0]
            cells.append(f"{p50:7.1f} / {p99:7.1f} ({base / p50:5.0f}x)")
        print(f"{name:<28}" + "".join(f"{cell:>22}" for cell in cells))

    print("\nWrites (precomputed vectors: Qdrant alone)")
    for added, seconds in filler_s.items():
        print(
            f"  upsert {added} filler points: Qdrant Edge {seconds['edge']:.2f} s, "
            f"qdrant-client local in memory {seconds['baseline']:.2f} s"
        )
    print(f"  reopen the Qdrant Edge shard of {points} points: {reopen_s:.2f} s")

    print("\nIngestion (parse + MiniLM + sparse + Qdrant write, into both stores)")
    print(
        f"  sample KB: {sample_report.chunks_written} chunks in {sample_report.seconds:.2f} s "
        f"= {sample_report.chunks_per_second:.0f} chunks/s"
    )
    print(f"  bulk Markdown: {bulk[0]} chunks = {bulk[1]:.0f} chunks/s")
    print(
        f"  of which MiniLM alone: {embed_rate:.0f} texts/s "
        f"(torch threads: {os.environ.get('BRAIN_TORCH_THREADS', '1')}); without it "
        f"(BRAIN_EMBEDDER=none): sample KB {sparse_report.chunks_per_second:.0f} chunks/s"
    )
    print(
        f"  machine load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print("\nCLI wall time (fresh process, median of 3)")
    print(
        f"  brain --help: {help_s * 1000:.0f} ms; "
        f"brain ingest <empty folder>: {ingest_nothing_s * 1000:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
