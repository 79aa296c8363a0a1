"""Knowledge bases of one process on the same shard bytes read one loaded copy of the shard
(`knowledge.vectors.edge_shared`): the shard is loaded once, every reader finds the same
points, a write goes to the writer's own shard alone, and another process is still refused
while a brain reads."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from core.config import Settings, load_settings
from core.files import copy_tree
from knowledge import open_knowledge
from knowledge.skill import KnowledgeSkill
from knowledge.vectors.edge import EdgeVectorStore
from tests.knowledge.conftest import write_config

QUESTION = "the printer jammed, how do I clear it"


def _settings(home: Path) -> Settings:
    return load_settings({"BRAIN_HOME": str(home)})


@pytest.fixture
def built(tmp_path: Path, small_kb: Path) -> Path:
    """A home whose knowledge base holds the small KB (bytes no other test's shard holds)."""
    home = tmp_path / "built"
    write_config(home, ingest_sample=False, embedder="none")
    skill = open_knowledge(_settings(home))
    try:
        skill.ingest([small_kb], progress=False)
    finally:
        skill.close()
    return home


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders a Qdrant Edge shard is loaded from, from now on."""
    loaded: list[Path] = []
    opener = EdgeVectorStore.open

    def counted(path: Path, *, dense_dim: int | None) -> EdgeVectorStore:
        loaded.append(path)
        return opener(path, dense_dim=dense_dim)

    monkeypatch.setattr(EdgeVectorStore, "open", counted)
    return loaded


def _found(skill: KnowledgeSkill) -> list[tuple[str, float]]:
    return [(hit.chunk_id, hit.score) for hit in skill.search(QUESTION, k=5)]


def test_copies_of_one_home_in_one_process_load_the_shard_once(
    built: Path, tmp_path: Path, loads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each knowledge base a process opened loaded its shard again (about 57 ms CPU for the
    sample's, a Qdrant Edge load replaying the write-ahead log), though every test's home, a
    replay's and the in-process command line's are copies of one. The shared copy's private
    folder is gone once it is loaded (a test worker exits without atexit)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    first_home, second_home = copy_tree(built, tmp_path / "a"), copy_tree(built, tmp_path / "b")
    first, second = open_knowledge(_settings(first_home)), open_knowledge(_settings(second_home))
    try:
        assert list(temporary.iterdir()) == []
        assert _found(first) and _found(first) == _found(second)
        assert first.store.count() == second.store.count() > 0
    finally:
        first.close()
        second.close()
    assert len(loads) == 1


def test_two_knowledge_bases_of_one_home_in_one_process_both_read_it(
    built: Path, loads: list[Path]
) -> None:
    """The second found the shard locked by the first and was refused (StoreLockedError)."""
    first = open_knowledge(_settings(built))
    try:
        second = open_knowledge(_settings(built))
        try:
            assert _found(first) == _found(second) != []
        finally:
            second.close()
    finally:
        first.close()
    assert len(loads) == 1


def test_a_write_goes_to_the_writers_own_shard_alone(
    built: Path, tmp_path: Path, small_kb: Path
) -> None:
    first_home, second_home = copy_tree(built, tmp_path / "a"), copy_tree(built, tmp_path / "b")
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "badge.md").write_text(
        "---\ndomain: access\n---\n# Lost badge\n\nReport a lost badge at the front desk.\n",
        encoding="utf-8",
    )
    first, second = open_knowledge(_settings(first_home)), open_knowledge(_settings(second_home))
    try:
        before = second.store.count()
        first.ingest([extra], progress=False)
        after = first.store.count()
        assert after > before
        assert second.store.count() == before
        assert "badge" in first.search("lost badge", k=1)[0].text.lower()
    finally:
        first.close()
        second.close()
    reopened = [open_knowledge(_settings(home)) for home in (first_home, second_home)]
    try:
        assert [skill.store.count() for skill in reopened] == [after, before]
    finally:
        for skill in reopened:
            skill.close()


def test_another_process_is_refused_while_a_knowledge_base_reads_the_shared_copy(
    built: Path,
) -> None:
    shard = built / "vectors" / "knowledge"
    probe = (
        "import sys; from pathlib import Path; from knowledge.vectors import StoreLockedError;"
        "from knowledge.vectors.edge import EdgeVectorStore\n"
        "try: EdgeVectorStore.open(Path(sys.argv[1]), dense_dim=None).close()\n"
        "except StoreLockedError as exc: print(exc)\n"
        "else: print('opened')\n"
    )

    def other_process() -> str:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(shard)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return done.stdout

    skill = open_knowledge(_settings(built))
    try:
        assert _found(skill)
        assert "is in use" in other_process()
    finally:
        skill.close()
    assert other_process().strip() == "opened"
