"""Large, well-formed knowledge files: a Markdown manual at the file-size limit and a glossary
of 60,000 one-line entries (deterministic). Valid documents, not attacks: what costs is their
size (`tests/fuzz/test_memory_bound.py`, `benchmarks/ingest_bound.py`)."""

from __future__ import annotations

import random
from pathlib import Path

from core.limits import MAX_KB_FILE_BYTES

#: The manual's and the glossary's words (IT operations, so the sparse channel has n-grams).
_VOCABULARY = (
    "vpn printer queue restart token account reset ledger settlement payment cluster node "
    "disk backup restore network switch router firewall policy access badge laptop install "
    "update patch kernel service outage incident escalate oncall approval budget invoice "
    "vendor contract password rotation certificate expiry renewal dns proxy cache latency"
)
#: Entries of the large glossary (about 2.3 MB).
GLOSSARY_ENTRIES = 60_000


def write_large_kb(
    folder: Path, manual_bytes: int = MAX_KB_FILE_BYTES - 4096, entries: int = GLOSSARY_ENTRIES
) -> list[Path]:
    """`folder/manual.md` (sections of 2-6 paragraphs of 40-120 words, about 6,400 chunks at
    5 MiB) and `folder/glossary.yaml` (`entries` terms); returns both paths."""
    rng = random.Random(7)
    words = _VOCABULARY.split()
    folder.mkdir(parents=True, exist_ok=True)
    parts, size, section = ["# Operations manual\n"], 0, 0
    while size < manual_bytes:
        section += 1
        paragraphs = (
            " ".join(rng.choice(words) for _ in range(rng.randint(40, 120))).capitalize() + "."
            for _ in range(rng.randint(2, 6))
        )
        block = f"\n## Section {section}\n\n" + "\n\n".join(paragraphs) + "\n"
        parts.append(block)
        size += len(block)
    manual = folder / "manual.md"
    manual.write_text("".join(parts)[:manual_bytes], encoding="utf-8")
    lines = ["glossary:"]
    lines += [f"  - {{term: T{i}, definition: {rng.choice(words)}}}" for i in range(entries)]
    glossary = folder / "glossary.yaml"
    glossary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [manual, glossary]
