"""Embed the shipped sample knowledge base at build time (knowledge/data/vectors-<id>.npz).

A fresh home ingests the sample KB before its first answer; with these vectors it takes them
instead of running MiniLM over every chunk (`knowledge.vector_cache`). They are computed here by
the same embedder an ingest uses (ONNX Runtime, the packaged MiniLM's export) and filed under
its model id, so a home whose model or export differs never finds them and embeds as before.
Re-run it when the sample KB, the chunker or the export changes (chunks whose text changed are
otherwise embedded at ingest; `tests/knowledge/test_vector_cache.py` reports a stale file).

Run: .venv/bin/python scripts/embed_sample_kb.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from core.config import Settings
from core.text.embedder import open_embedder
from knowledge import SAMPLE_DIR
from knowledge.ingest import chunk_texts
from knowledge.vector_cache import SHIPPED_DIR, VectorCache


def embed_sample_kb() -> int:
    """Embed every sample chunk and replace the shipped vectors with them."""
    with tempfile.TemporaryDirectory(prefix="brain-vectors-") as scratch:
        embedder = open_embedder("onnx", Settings(home=Path(scratch)))
        model_id = embedder.model_id
        if not model_id:
            print("the ONNX embedder cannot name its model", file=sys.stderr)
            return 1
        texts = list(dict.fromkeys(chunk_texts([SAMPLE_DIR])))
        vectors = embedder.embed(texts)
    for old in SHIPPED_DIR.glob("vectors-*.npz"):
        old.unlink()
    target = VectorCache.write(SHIPPED_DIR, model_id, texts, vectors)
    size = target.stat().st_size / 2**10
    print(f"wrote {target.name}: {len(texts)} chunks, {size:.0f} KiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(embed_sample_kb())
