"""Wrong pages and missed pages of the quiet split on the product's own path, `Brain.decide`.

    nice -n 10 python benchmarks/quiet_pages.py [--json]

`benchmarks/escalation.py` calls the escalation decision with a neutral intent ("other", low
urgency), while the product decides with the intent and urgency its router read, so a page the
router's reading causes (or prevents) shows only here. Every row of
`benchmarks/data/escalation_quiet.jsonl` (ordinary Slack messages from many desks and their
look-alikes that must not page, beside live security events and company-wide outages that
must) is decided by a `Brain` opened in a throwaway home, each row from its own user and channel
so that no row is read as a follow-up of another, without an LLM (the key is dropped: the
figure is the offline path every deployment has). The split is unread: only totals are
printed, by the row's own language field (en, zh, mixed), never a row or a kind.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SPLIT = REPO / "benchmarks" / "data" / "escalation_quiet.jsonl"
LANGUAGES = ("en", "zh", "mixed")


def _rows(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _decide(texts: Sequence[str]) -> list[bool]:
    """Whether the product pages each text, each decided as a new message of its own."""
    os.environ.pop("ANTHROPIC_API_KEY", None)
    from brain.engine import Brain
    from core.config import load_settings
    from core.records import Message

    with tempfile.TemporaryDirectory(prefix="quiet-pages-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        with Brain.open(settings) as brain:
            brain.warm()
            brain.prime(list(texts))
            return [
                brain.decide(Message(text, user=f"U{i}", channel=f"C{i}")).escalate
                for i, text in enumerate(texts)
            ]


def _share(hits: int, n: int) -> float | None:
    return round(hits / n, 4) if n else None


def figures(rows: Sequence[dict[str, Any]], paged: Sequence[bool]) -> dict[str, Any]:
    """Wrong pages among the must-not-page rows and recall on the must-page rows, in all and
    by language: counts only, no text."""

    def group(lang: str | None) -> dict[str, Any]:
        members = [(r, p) for r, p in zip(rows, paged, strict=True) if lang in (None, r["lang"])]
        quiet = [p for r, p in members if not r["escalate"]]
        page = [p for r, p in members if r["escalate"]]
        right = sum(page)
        return {
            "must_not_page": len(quiet),
            "wrong_pages": sum(quiet),
            "wrong_page_rate": _share(sum(quiet), len(quiet)),
            "must_page": len(page),
            "paged": right,
            "recall": _share(right, len(page)),
            "precision": _share(right, right + sum(quiet)),
        }

    return {
        "n": len(rows),
        **group(None),
        "by_language": {lang: group(lang) for lang in LANGUAGES},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", type=Path, default=SPLIT)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = _rows(args.split)
    report = figures(rows, _decide([str(r["text"]) for r in rows]))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for name, fig in (("all", report), *report["by_language"].items()):
        print(
            f"{name:6s} wrong pages {fig['wrong_pages']} of {fig['must_not_page']} must-not-page "
            f"({fig['wrong_page_rate']}); paged {fig['paged']} of {fig['must_page']} must-page "
            f"(recall {fig['recall']}, precision {fig['precision']})"
        )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(main())
