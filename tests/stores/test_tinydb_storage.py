"""Crash-safe TinyDB storage shared by every structured store."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.stores.tinydb.storage import StorageError, open_db


def test_round_trip_and_no_temp_files_left(tmp_path: Path) -> None:
    path = tmp_path / "db" / "things.json"
    with open_db(path) as db:
        db.insert({"name": "滚仓", "n": 1})
        db.insert({"name": "disbursement", "n": 2})
    with open_db(path) as db:
        assert sorted(doc["name"] for doc in db.all()) == ["disbursement", "滚仓"]
    assert [p.name for p in path.parent.iterdir()] == ["things.json"]
    assert "滚仓" in path.read_text(encoding="utf-8")


def test_crash_during_write_keeps_previous_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "things.json"
    with open_db(path) as db:
        db.insert({"kept": True})
    before = path.read_text(encoding="utf-8")

    def crash(_fd: int) -> None:
        raise OSError("disk vanished mid-write")

    monkeypatch.setattr(os, "fsync", crash)
    with open_db(path) as db, pytest.raises(OSError, match="mid-write"):
        db.insert({"lost": True})
    assert path.read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["things.json"]


def test_corrupt_file_is_reported_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "things.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(StorageError, match="not valid JSON"), open_db(path) as db:
        db.all()
    assert path.read_text(encoding="utf-8") == "{not json"


def test_non_document_json_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "things.json"
    path.write_text(json.dumps([1, 2, 3]), encoding="utf-8")
    with pytest.raises(StorageError, match="TinyDB document"), open_db(path) as db:
        db.all()
