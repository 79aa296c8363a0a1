"""Precomputed chunk vectors: the shipped sample KB's are the model's own, used only under the
same model id, and a home without them still ingests everything."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from core.config import KnowledgeConfig, Settings
from core.text.embedder import DenseEmbedder
from knowledge import SAMPLE_DIR, open_knowledge, vector_cache
from knowledge.ingest import chunk_texts
from knowledge.skill import KnowledgeSkill
from knowledge.vector_cache import VectorCache


def test_shipped_vectors_cover_the_sample_kb_and_equal_fresh_embeddings(
    embedder: DenseEmbedder,
) -> None:
    shipped = VectorCache.load(embedder.model_id)
    assert shipped is not None, (
        f"no shipped vectors for {embedder.model_id}: run scripts/embed_sample_kb.py"
    )
    texts = chunk_texts([SAMPLE_DIR])
    cached, missing = shipped.lookup(texts, embedder.dim)
    assert not missing, (
        f"{len(missing)} sample chunks changed since the vectors were made: "
        "run scripts/embed_sample_kb.py"
    )
    sample = list(range(0, len(texts), max(1, len(texts) // 12)))  # English, Chinese, glossary
    fresh = np.stack([embedder.embed([texts[i]])[0] for i in sample])
    cosines = np.sum(fresh * cached[sample], axis=1)
    assert float(cosines.min()) >= 0.99999
    assert np.allclose(fresh, cached[sample], atol=1e-5)


@contextmanager
def _kb(home: Path) -> Iterator[KnowledgeSkill]:
    skill = open_knowledge(Settings(home=home, knowledge=KnowledgeConfig(ingest_sample=False)))
    try:
        yield skill
    finally:
        skill.close()


def test_precomputed_vectors_are_taken_only_under_the_same_model(
    embedder: DenseEmbedder,
    small_kb: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = chunk_texts([small_kb])
    precomputed = tmp_path / "vectors"
    assert embedder.model_id
    VectorCache.write(precomputed, embedder.model_id, texts, embedder.embed(texts))
    monkeypatch.setattr(vector_cache, "SHIPPED_DIR", precomputed)

    calls = embedder.model_calls
    with _kb(tmp_path / "same") as skill:
        skill.ingest([small_kb], progress=False)
        assert skill.store.count() == len(texts)
        assert embedder.model_calls == calls  # every chunk's vector was precomputed
        assert skill.search("printer paper jam")[0].title == "Printer jams"

    other = tmp_path / "other"
    VectorCache.write(other, "another-model", texts, embedder.embed(texts))
    monkeypatch.setattr(vector_cache, "SHIPPED_DIR", other)
    calls = embedder.model_calls
    with _kb(tmp_path / "other-home") as skill:
        skill.ingest([small_kb], progress=False)
        assert embedder.model_calls > calls  # another model's vectors are not used
        assert skill.store.count() == len(texts)


def test_a_home_without_precomputed_vectors_embeds_and_finds_the_same(
    embedder: DenseEmbedder, small_kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = chunk_texts([small_kb])
    precomputed = tmp_path / "vectors"
    assert embedder.model_id
    VectorCache.write(precomputed, embedder.model_id, texts, embedder.embed(texts))
    results = []
    for shipped in (precomputed, tmp_path / "missing"):
        monkeypatch.setattr(vector_cache, "SHIPPED_DIR", shipped)
        with _kb(tmp_path / shipped.name) as skill:
            skill.ingest([small_kb], progress=False)
            hits = skill.search("VPN 报错 691 连不上")
            results.append([(hit.title, round(hit.score, 4)) for hit in hits])
    assert results[0] == results[1] and results[0]


def test_an_unreadable_vectors_file_is_ignored(embedder: DenseEmbedder, tmp_path: Path) -> None:
    assert embedder.model_id
    VectorCache.path(tmp_path, embedder.model_id).write_bytes(b"not a numpy file")
    assert VectorCache.load(embedder.model_id, tmp_path) is None
    assert VectorCache.load(None, tmp_path) is None
