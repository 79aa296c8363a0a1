"""Redaction on a held-out set of secrets and look-alikes written by someone who never read
the redactor (`benchmarks/data/secrets_hold.jsonl`): how many secrets disappear and how many
look-alikes survive unchanged, in totals only (by language and by secret or look-alike), so
the set stays a yardstick nobody has read the misses of.

Each row is `{"kind", "lang", "text", "secret"}` (must disappear, and no piece of it of 8
characters or more may survive) or `{"kind", "lang", "text", "keep"}` (must survive as
written), run through `core.redact.redact`, the one redaction at the point of entry. Figures
are reported, never asserted; `tests/intent/test_secret_corpus.py` is the looked-at corpus.

Run: `PYTHONPATH=. python benchmarks/secret_holdout.py [--rows FILE] [--json]`
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

ROWS = REPO / "benchmarks" / "data" / "secrets_hold.jsonl"


def _leaks(secret: str, redacted: str) -> bool:
    """The secret, or a long piece of it, is still in the text."""
    if secret in redacted:
        return True
    pieces = re.split(r"[\s.:/@=;,]+", secret)
    return any(piece in redacted for piece in pieces if len(piece) >= 8)


def measure(rows: list[dict[str, str]]) -> dict[str, dict[str, float]]:
    from core.redact import redact

    counts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        redacted = redact(row["text"])
        lang = "zh" if row.get("lang") == "zh" else "en"
        if "secret" in row:
            counts[(lang, "secrets")] += 1
            counts[(lang, "removed")] += not _leaks(row["secret"], redacted)
        else:
            counts[(lang, "look-alikes")] += 1
            counts[(lang, "kept")] += row["keep"] in redacted
    report: dict[str, dict[str, float]] = {}
    for lang in ("en", "zh", "all"):
        langs = ("en", "zh") if lang == "all" else (lang,)

        def total(name: str, langs: tuple[str, ...] = langs) -> int:
            return sum(counts[(each, name)] for each in langs)

        report[lang] = {
            "secrets": total("secrets"),
            "removed": total("removed") / max(1, total("secrets")),
            "look_alikes": total("look-alikes"),
            "kept": total("kept") / max(1, total("look-alikes")),
        }
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, default=ROWS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.rows.read_text("utf-8").splitlines() if line.strip()]
    report = measure(rows)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'':6} {'secrets':>8} {'removed':>8} {'look-alikes':>12} {'kept':>7}")
    for lang, row in report.items():
        print(
            f"{lang:6} {row['secrets']:>8.0f} {row['removed']:>8.1%} "
            f"{row['look_alikes']:>12.0f} {row['kept']:>7.1%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
