"""Read-only artefacts loaded once per process (`core.loaded_files`), and again whenever their
file is replaced: a refit or a new install is never answered with the model loaded before."""

from __future__ import annotations

import os
from pathlib import Path

from brain.escalation.model import FILES as ESCALATION
from brain.semantic import npz
from core.loaded_files import LoadedFiles
from core.model_files import shipped_file


def _loads(cache: LoadedFiles[str], path: Path, seen: list[str]) -> str:
    def load(at: Path) -> str:
        text = at.read_text(encoding="utf-8")
        seen.append(text)
        return text

    return cache.load(path, load)


def test_an_unchanged_file_is_loaded_once(tmp_path: Path) -> None:
    path = tmp_path / "model.txt"
    path.write_text("one", encoding="utf-8")
    cache: LoadedFiles[str] = LoadedFiles()
    seen: list[str] = []

    assert [_loads(cache, path, seen) for _ in range(3)] == ["one"] * 3
    assert seen == ["one"]


def test_a_file_replaced_by_a_refit_is_loaded_again(tmp_path: Path) -> None:
    path = tmp_path / "model.txt"
    path.write_text("one", encoding="utf-8")
    cache: LoadedFiles[str] = LoadedFiles()
    seen: list[str] = []
    _loads(cache, path, seen)

    # written as the stores and model files are: a new file renamed over the old one, with
    # the same size and the same modification time
    stat = path.stat()
    fresh = tmp_path / "model.tmp"
    fresh.write_text("two", encoding="utf-8")
    os.utime(fresh, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    fresh.replace(path)

    assert _loads(cache, path, seen) == "two"
    # rewritten in place, another size
    path.write_text("three!", encoding="utf-8")
    assert _loads(cache, path, seen) == "three!"
    assert seen == ["one", "two", "three!"]


def test_nothing_is_kept_for_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    cache: LoadedFiles[str] = LoadedFiles()
    built: list[int] = []

    def build() -> str:
        built.append(1)
        return "value"

    assert cache.get("key", [tmp_path / "missing"], build) == "value"
    assert cache.get("key", [tmp_path / "missing"], build) == "value"
    assert cache.get("other", [None], build) == "value"
    assert len(built) == 3


def test_only_the_last_files_used_are_kept(tmp_path: Path) -> None:
    cache: LoadedFiles[str] = LoadedFiles(limit=2)
    seen: list[str] = []
    paths = []
    for name in ("a", "b", "c"):
        paths.append(tmp_path / name)
        paths[-1].write_text(name, encoding="utf-8")
        _loads(cache, paths[-1], seen)

    _loads(cache, paths[2], seen)
    _loads(cache, paths[1], seen)
    _loads(cache, paths[0], seen)  # dropped as the least recently used: loaded again

    assert seen == ["a", "b", "c", "a"]


def test_every_brain_of_a_process_shares_the_shipped_models() -> None:
    rows, key = ESCALATION.rows_and_key(False)
    again, same_key = ESCALATION.rows_and_key(False)
    assert again is rows and same_key == key == ESCALATION.model_key(rows, False)

    semantic = next(shipped_file("brain.data", "semantic", "x").parent.glob("semantic-*.npz"))
    assert npz.read_shared(semantic) is npz.read_shared(semantic)
    assert npz.read_shared(semantic).names == npz.read(semantic).names
