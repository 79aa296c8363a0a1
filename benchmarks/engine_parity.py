"""Does routing move when the embedding engine changes?

Decides every row of the development set with the PyTorch engine and with ONNX Runtime, each
in a fresh home of its own (sample KB ingested, the dev set's tickets imported, the routing
model fitted on that engine's vectors), through `brain ask --json -`, and compares controller,
tier and outcome row by row. Prints the rows that differ and the smallest cosine between the
two engines' vectors of the same texts.

Run: `python benchmarks/engine_parity.py [--devset FILE] [--json OUT]` (a few minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ENGINES = ("torch", "onnx")
FIELDS = ("controller", "tier", "outcome", "escalate")


def decide_all(engine: str, texts: list[str], tickets: Path, home: Path) -> list[dict]:
    """One decision per text, in a fresh home on `engine`."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"},
        "BRAIN_HOME": str(home),
        "BRAIN_EMBEDDING_ENGINE": engine,
        "PYTHONPATH": str(ROOT),
    }
    brain = [sys.executable, "-m", "brain"]
    subprocess.run(
        [*brain, "tickets", "import", str(tickets)], env=env, check=True, stdout=subprocess.DEVNULL
    )
    lines = "\n".join(t.replace("\n", " ") for t in texts) + "\n"
    result = subprocess.run(
        [*brain, "ask", "--json", "-"], input=lines, capture_output=True, text=True, env=env
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def vector_agreement(texts: list[str]) -> float:
    """The smallest cosine between the two engines' vectors of the same text."""
    import numpy as np

    from core.text.embedder import open_embedder

    torch_vectors = open_embedder("torch").embed(texts)
    onnx_vectors = open_embedder("onnx").embed(texts)
    return float(np.min(np.sum(torch_vectors * onnx_vectors, axis=1)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=ROOT / "benchmarks/data/devset.jsonl")
    parser.add_argument(
        "--tickets", type=Path, default=ROOT / "benchmarks/data/devset_tickets.jsonl"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.devset.read_text().splitlines() if line.strip()]
    texts = [row["text"] for row in rows]
    with tempfile.TemporaryDirectory(prefix="brain-parity-") as tmp:
        decisions = {e: decide_all(e, texts, args.tickets, Path(tmp) / e) for e in ENGINES}
        os.environ["BRAIN_ENCODER_CACHE"] = str(Path(tmp) / "onnx" / "models" / "encoder")
        cosine = vector_agreement(texts)
    differ = []
    for index, text in enumerate(texts):
        a, b = (decisions[e][index] for e in ENGINES)
        if any(a[f] != b[f] for f in FIELDS):
            differ.append(
                {
                    "text": text,
                    **{
                        e: {f: decisions[e][index][f] for f in (*FIELDS, "confidence")}
                        for e in ENGINES
                    },
                }
            )
    for item in differ:
        print(json.dumps(item, ensure_ascii=False))
    print(f"rows: {len(texts)}; differing (controller, tier, outcome or escalate): {len(differ)}")
    print(f"smallest cosine between the engines' vectors of the dev-set texts: {cosine:.7f}")
    if args.json:
        args.json.write_text(
            json.dumps({"rows": len(texts), "differ": differ, "min_cosine": cosine})
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
