"""The redactor over a labelled corpus (English and Chinese): every secret span disappears,
every span routing needs (ticket ids, error codes, hosts, ordinary words) survives.

The corpus is tests/fixtures/redaction_corpus.jsonl, one row per line: `text`, `lang`,
`secrets` (substrings that must not survive) and `keep` (substrings that must). Recall and
false-positive rate over it are reported by benchmarks/redaction.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.redact import redact

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "redaction_corpus.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_the_corpus_covers_both_languages_secrets_and_ids() -> None:
    assert {row["lang"] for row in ROWS} == {"en", "zh"}
    for lang in ("en", "zh"):
        assert sum(len(row["secrets"]) for row in ROWS if row["lang"] == lang) >= 10
        assert sum(not row["secrets"] for row in ROWS if row["lang"] == lang) >= 5
    for row in ROWS:
        assert all(span in row["text"] for span in row["secrets"] + row["keep"]), row


@pytest.mark.parametrize("row", ROWS, ids=[f"{row['lang']}-{n}" for n, row in enumerate(ROWS)])
def test_secrets_disappear_and_routing_spans_survive(row: dict[str, Any]) -> None:
    redacted = redact(row["text"])
    assert [span for span in row["secrets"] if span in redacted] == []
    assert [span for span in row["keep"] if span not in redacted] == []
