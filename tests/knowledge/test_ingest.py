"""Idempotent ingest: unchanged files skipped, edits replace chunks, deletions remove them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli import main
from core.config import load_settings
from core.text.embedder import DenseEmbedder
from knowledge import open_knowledge
from knowledge.skill import KnowledgeSkill


def _chunk_ids(skill: KnowledgeSkill, source: Path) -> set[str]:
    entry = skill.manifest.get(str(source)) if skill.manifest else None
    return set(entry.chunk_ids) if entry else set()


def test_reingest_edit_and_delete(
    empty_home: Path, small_kb: Path, embedder: DenseEmbedder
) -> None:
    skill = open_knowledge(load_settings())
    try:
        first = skill.ingest([small_kb], progress=False)
        assert first.exit_code == 0 and len(first.added) == 4 and first.chunks_written > 0
        count = skill.store.count()
        assert count == first.chunks_written

        calls_before = embedder.model_calls
        again = skill.ingest([small_kb], progress=False)
        assert (again.added, again.updated, again.removed) == ([], [], [])
        assert len(again.unchanged) == 4 and again.chunks_written == 0
        assert skill.store.count() == count
        assert embedder.model_calls == calls_before  # nothing re-embedded

        printer = small_kb / "runbooks" / "printer.md"
        vpn = small_kb / "runbooks" / "vpn.md"
        vpn_ids = _chunk_ids(skill, vpn)
        old_printer_ids = _chunk_ids(skill, printer)
        printer.write_text(
            "---\ndomain: incident\n---\n# Printer jams\n\n"
            "Badge release: hold your badge on the reader to print the held job.\n",
            encoding="utf-8",
        )
        edited = skill.ingest([small_kb], progress=False)
        assert edited.updated == [str(printer)] and edited.added == []
        assert len(edited.unchanged) == 3
        assert _chunk_ids(skill, vpn) == vpn_ids
        assert skill.store.count() == count - len(old_printer_ids) + len(_chunk_ids(skill, printer))
        top = skill.search("hold the badge on the reader", k=1)[0]
        assert top.source == str(printer) and "Badge release" in top.text
        assert all("toner" not in hit.text.lower() for hit in skill.search("toner cartridge"))

        before_delete = skill.store.count()
        removed_ids = _chunk_ids(skill, vpn)
        vpn.unlink()
        deleted = skill.ingest([small_kb], progress=False)
        assert deleted.removed == [str(vpn)]
        assert skill.store.count() == before_delete - len(removed_ids)
        assert all(Path(hit.source).name != "vpn.md" for hit in skill.search("VPN 报错 691"))
    finally:
        skill.close()


def test_point_ids_are_deterministic(
    tmp_path: Path, small_kb: Path, monkeypatch: pytest.MonkeyPatch, embedder: DenseEmbedder
) -> None:
    ids = []
    for name in ("a", "b"):
        monkeypatch.setenv("BRAIN_HOME", str(tmp_path / name))
        (tmp_path / name).mkdir()
        (tmp_path / name / "brain.toml").write_text("[knowledge]\ningest_sample = false\n")
        skill = open_knowledge(load_settings())
        try:
            skill.ingest([small_kb], progress=False)
            assert skill.manifest is not None
            ids.append(sorted(i for e in skill.manifest.under(small_kb) for i in e.chunk_ids))
        finally:
            skill.close()
    assert ids[0] == ids[1] and ids[0]


def test_bad_inputs_are_skipped_with_reasons(
    empty_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], embedder: DenseEmbedder
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text("# Good\n\nA perfectly fine runbook about printers.\n")
    (docs / "binary.txt").write_bytes(b"\x00\x01\x02 binary")
    (docs / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (docs / "empty.md").write_text("  \n")
    (docs / "huge.txt").write_bytes(b"a" * (6 * 1024 * 1024))
    (docs / "bad.yaml").write_text("glossary: [\n  - term: x\n   bad")
    (docs / "nothing.yaml").write_text("just: a mapping\n")
    (docs / "badregex.yaml").write_text("id_patterns:\n  - name: x\n    regex: '(['\n")
    (docs / "image.png").write_bytes(b"\x89PNG")
    empty_dir = tmp_path / "empty-folder"
    empty_dir.mkdir()

    code = main(["ingest", str(docs), str(empty_dir), str(tmp_path / "missing"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["exit_code"] == 1
    assert report["added"] == [str(docs / "good.md")]
    reasons = {Path(item["path"]).name: item["reason"] for item in report["skipped"]}
    assert "binary" in reasons["binary.txt"]
    assert "UTF-8" in reasons["latin1.txt"]
    assert reasons["empty.md"] == "empty file"
    assert "too large" in reasons["huge.txt"]
    assert "invalid YAML" in reasons["bad.yaml"] and "line" in reasons["bad.yaml"]
    assert "neither" in reasons["nothing.yaml"]
    assert "invalid regex" in reasons["badregex.yaml"]
    assert "empty folder" in reasons["empty-folder"]
    assert "no such file" in reasons["missing"]
    errors = {Path(item["path"]).name: item["error"] for item in report["skipped"]}
    assert errors["image.png"] is False and errors["binary.txt"] is True

    # the good file is searchable; a re-run changes nothing and still reports the bad files
    assert main(["kb", "search", "perfectly fine runbook", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert Path(hits[0]["source"]).name == "good.md"
    assert main(["ingest", str(docs), "--json"]) == 1
    rerun = json.loads(capsys.readouterr().out)
    assert rerun["unchanged"] == [str(docs / "good.md")] and rerun["chunks_written"] == 0


def test_a_file_that_turns_bad_keeps_its_chunks(
    empty_home: Path, small_kb: Path, embedder: DenseEmbedder
) -> None:
    skill = open_knowledge(load_settings())
    try:
        skill.ingest([small_kb], progress=False)
        count = skill.store.count()
        (small_kb / "terms.yaml").write_text("glossary: [oops")
        report = skill.ingest([small_kb], progress=False)
        assert report.exit_code == 1 and report.removed == []
        assert skill.store.count() == count
        assert skill.define("滚仓") is not None
    finally:
        skill.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_is_skipped(
    empty_home: Path, tmp_path: Path, embedder: DenseEmbedder
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    locked = docs / "locked.md"
    locked.write_text("# Secret\n\ntext\n")
    locked.chmod(0)
    skill = open_knowledge(load_settings())
    try:
        report = skill.ingest([docs], progress=False)
        assert report.exit_code == 1 and "cannot read" in report.skipped[0].reason
    finally:
        skill.close()


def test_ingest_of_nothing_does_not_open_the_store(
    empty_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty_dir = tmp_path / "nothing"
    empty_dir.mkdir()
    assert main(["ingest", str(empty_dir)]) == 1
    captured = capsys.readouterr()
    assert "empty folder" in captured.err and "added 0" in captured.out
    assert not (empty_home / "vectors").exists()
