"""Recall and false-positive rate of `core.redact.redact` on the labelled corpus.

    PYTHONPATH=. python benchmarks/redaction.py [--corpus tests/fixtures/redaction_corpus.jsonl]

Recall: secret spans that no longer appear after redaction, over all secret spans.
False-positive rate: spans routing needs (ids, codes, hosts, ordinary words) that were damaged,
over all such spans. Measured, never asserted (the test asserts each row instead).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.redact import redact

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tests/fixtures/redaction_corpus.jsonl"


def score(corpus: Path) -> dict[str, dict[str, float]]:
    """Per language and overall: secrets, recall, kept spans, false-positive rate."""
    counts: dict[str, dict[str, int]] = {}
    for line in corpus.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        redacted = redact(row["text"])
        for group in (row["lang"], "all"):
            bucket = counts.setdefault(group, {"secrets": 0, "removed": 0, "keep": 0, "hurt": 0})
            bucket["secrets"] += len(row["secrets"])
            bucket["removed"] += sum(secret not in redacted for secret in row["secrets"])
            bucket["keep"] += len(row["keep"])
            bucket["hurt"] += sum(kept not in redacted for kept in row["keep"])
    return {
        group: {
            "secrets": c["secrets"],
            "recall": round(c["removed"] / c["secrets"], 3) if c["secrets"] else 1.0,
            "kept_spans": c["keep"],
            "false_positive_rate": round(c["hurt"] / c["keep"], 3) if c["keep"] else 0.0,
        }
        for group, c in counts.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    print(json.dumps(score(parser.parse_args().corpus), indent=2))


if __name__ == "__main__":
    main()
