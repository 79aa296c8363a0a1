"""What one ingest may cost: a file's chunks stream to the store in bounded batches, a file is
recorded only once all its chunks are in, and a file over the chunk limit is skipped."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from cli import main
from core.config import ConfigError, load_settings
from knowledge import open_knowledge
from knowledge.chunk import Chunk
from knowledge.ingest import FLUSH_CHUNKS
from knowledge.skill import KnowledgeSkill
from tests.knowledge.conftest import write_config

SECTIONS = 1000


@pytest.fixture
def lexical_home(empty_home: Path) -> Path:
    """An empty home on the sparse channel (what is measured here is not the model)."""
    write_config(empty_home, ingest_sample=False, embedder="none")
    return empty_home


def _manual(path: Path, sections: int = SECTIONS, word: str = "printer") -> Path:
    """A Markdown file of `sections` short sections: one chunk each."""
    body = "".join(f"## Step {i}\n\nCheck the {word} tray number {i}.\n\n" for i in range(sections))
    path.write_text(f"# Manual\n\n{body}", encoding="utf-8")
    return path


def _spy_upserts(
    skill: KnowledgeSkill, monkeypatch: pytest.MonkeyPatch, fail_at: int | None = None
) -> list[int]:
    """Record how many chunks each store write gets (and fail the `fail_at`-th one)."""
    sizes: list[int] = []
    upsert: Callable[..., None] = skill.store.upsert

    def spy(chunks: Sequence[Chunk], **kwargs: Any) -> None:
        sizes.append(len(chunks))
        if fail_at is not None and len(sizes) == fail_at:
            raise RuntimeError("the disk went away")
        upsert(chunks, **kwargs)

    monkeypatch.setattr(skill.store, "upsert", spy)
    return sizes


def test_a_large_file_reaches_the_store_in_bounded_batches(
    lexical_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manual = _manual(tmp_path / "manual.md")
    skill = open_knowledge(load_settings())
    try:
        sizes = _spy_upserts(skill, monkeypatch)
        report = skill.ingest([manual], progress=False)
        assert report.added == [str(manual)] and report.chunks_written == SECTIONS
        assert max(sizes) <= FLUSH_CHUNKS and sum(sizes) == SECTIONS
        assert skill.manifest is not None
        entry = skill.manifest.get(str(manual))
        assert entry is not None and len(entry.chunk_ids) == SECTIONS
        assert skill.store.count() == SECTIONS
    finally:
        skill.close()


def test_a_file_interrupted_halfway_is_not_recorded_and_is_redone(
    lexical_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manual = _manual(tmp_path / "manual.md", word="printer")
    skill = open_knowledge(load_settings())
    try:
        assert skill.ingest([manual], progress=False).added == [str(manual)]
        assert skill.manifest is not None
        before = skill.manifest.get(str(manual))
        _manual(manual, word="scanner")  # edited; the re-ingest fails on its third batch
        _spy_upserts(skill, monkeypatch, fail_at=3)
        with pytest.raises(RuntimeError, match="disk went away"):
            skill.ingest([manual], progress=False)
        assert skill.manifest.get(str(manual)) == before  # still the old version's entry
        monkeypatch.undo()

        again = skill.ingest([manual], progress=False)
        assert again.updated == [str(manual)] and again.chunks_written == SECTIONS
        assert skill.store.count() == SECTIONS
        assert all("scanner" in hit.text for hit in skill.search("tray number 999", k=3))
    finally:
        skill.close()


def test_a_file_over_the_chunk_limit_is_skipped_and_keeps_what_it_had(
    lexical_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    manual = _manual(docs / "manual.md", sections=40)
    (docs / "note.md").write_text("# Note\n\nClear the jam.\n", encoding="utf-8")
    assert main(["ingest", str(docs), "--json"]) == 0
    capsys.readouterr()

    monkeypatch.setenv("BRAIN_KB_MAX_FILE_CHUNKS", "50")
    _manual(manual, sections=60, word="scanner")  # grew over the limit
    (docs / "note.md").write_text("# Note\n\nClear the paper jam.\n", encoding="utf-8")
    code = main(["ingest", str(docs), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["updated"] == [str(docs / "note.md")]
    assert report["skipped"] == [
        {
            "path": str(manual),
            "reason": "too many chunks (60 > 50 per file, [knowledge] max_file_chunks): split "
            "the file, or raise the limit if embedding it all is worth the time",
            "error": True,
        }
    ]
    assert main(["kb", "search", "printer tray number 7", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert Path(hits[0]["source"]).name == "manual.md" and "printer" in hits[0]["text"]


@pytest.mark.parametrize("value", ["0", "-5", "many"])
def test_the_chunk_limit_must_be_a_positive_number(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_KB_MAX_FILE_CHUNKS", value)
    with pytest.raises(ConfigError, match="max_file_chunks"):
        load_settings()
