"""What one look-up of similar cases costs as the dynamic tier's case book grows, with the
vectors stored as JSON lists of numbers (the format before) beside base64 text of float16
(`core.vector_text`, the format now), in one run on the same random cases.

Every dynamic decision reads the whole case book once (`CaseBook.similar`). It reads the
store's view, parsed again only after a checkpoint, and decodes each vector once; before, each
read parsed and copied every stored case, so the stored form of a 384-number vector was most
of its cost. "after a write": each look-up follows a new case's insert (one journal line), as
a dynamic decision follows the previous one's; "after a checkpoint": the journal was folded into
the buckets before each look-up (one bucket changed), as happens every few hundred cases.

Run: `nice .venv/bin/python benchmarks/case_book.py [--cases 2000] [--repeats 15]`
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _measure(form: str, cases: int, repeats: int) -> tuple[float, float, float, float, int]:
    """(median ms, min ms, median ms with a new case written before each look-up, the same
    with the journal folded into the buckets before each, bytes of the case files) of
    `similar` with vectors stored as `form`."""
    from brain.dynamic.cases import CaseBook
    from core.config import Settings
    from core.stores import open_stores
    from core.vector_text import encode_vector

    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory(prefix="case-book-") as folder:
        stores = open_stores(Settings(home=Path(folder)))
        try:
            for i in range(cases):
                vector = rng.standard_normal(384).astype(np.float32)
                as_list = [round(float(x), 5) for x in vector]
                stored = as_list if form == "list" else encode_vector(vector)
                stores.cases.insert(_row(i, stored))
            stores.cases.flush()  # no background fold left writing while the folder goes
            book = CaseBook(stores.cases)
            query = rng.standard_normal(384).astype(np.float32)
            times = []
            for _ in range(repeats):
                started = time.perf_counter()
                book.similar("a new unknown problem", query, minimum=0.5)
                times.append((time.perf_counter() - started) * 1000)
            # What a dynamic decision meets: the previous decision wrote its case.
            written = []
            for i in range(repeats):
                stores.cases.insert({**_row(cases + i, encode_vector(query)), "text": "new"})
                started = time.perf_counter()
                book.similar("a new unknown problem", query, minimum=0.5)
                written.append((time.perf_counter() - started) * 1000)
            # Every so often a checkpoint folds the journal into the buckets (one of them
            # changed per case), and the next look-up reads the view again.
            folded = []
            for i in range(repeats):
                row = _row(cases + repeats + i, encode_vector(query))
                stores.cases.insert({**row, "text": "new"})
                stores.cases.flush()
                started = time.perf_counter()
                book.similar("a new unknown problem", query, minimum=0.5)
                folded.append((time.perf_counter() - started) * 1000)
        finally:
            stores.close()
        size = sum(p.stat().st_size for p in Path(folder).rglob("*cases*/**/*") if p.is_file())
        return (
            statistics.median(times),
            min(times),
            statistics.median(written),
            statistics.median(folded),
            size,
        )


def _row(i: int, stored: object) -> dict[str, object]:
    return {
        "case_id": f"c{i}",
        "text": f"unknown problem number {i}",
        "user": f"u{i % 50}",
        "vector": stored,
        "plan": None,
        "confirmed_by": [],
        "rejected_by": [],
        "created_at": f"2026-12-05T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    results = {form: _measure(form, args.cases, args.repeats) for form in ("list", "base64")}
    base = results["list"]
    for form, (median, fastest, written, folded, size) in results.items():
        print(
            f"{form:7s} similar() over {args.cases:,} cases: median {median:6.1f} ms "
            f"({base[0] / median:.2f}x), min {fastest:6.1f} ms, after a write {written:6.1f} ms, "
            f"after a checkpoint {folded:6.1f} ms, case files {size / 1e6:.1f} MB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
