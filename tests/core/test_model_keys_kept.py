"""A shipped model's key is kept once per installation: a new process finds the model without
reading its training rows, and the key it reads is the one the rows give; a changed data file
or a damaged kept key is computed from the rows again."""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from brain.continuation import model as continuation
from brain.escalation import model as escalation
from core import model_files


def _new_process() -> None:
    """Forget what this process read, as a new one would not have it."""
    model_files._KEYS.clear()
    model_files._KEYS_ALONE.clear()


@pytest.fixture
def install_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "install"
    cache.mkdir()
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(cache))
    _new_process()
    yield cache
    _new_process()


@pytest.mark.parametrize("files", [escalation.FILES, continuation.FILES], ids=["esc", "cont"])
def test_the_kept_key_is_the_rows_key(install_cache: Path, files: model_files.ModelFiles) -> None:
    for with_embed in (True, False):
        computed = files.rows_and_key(with_embed)[1]
        _new_process()
        assert files.key(with_embed) == computed
        [kept] = install_cache.glob(f"{files.name}-key-{int(with_embed)}-*.txt")
        written = kept.stat().st_mtime_ns
        _new_process()
        assert files.key(with_embed) == computed
        assert kept.stat().st_mtime_ns == written  # read, not computed again


def _toy_key(rows: Sequence[str], with_embed: bool) -> str:
    return hashlib.sha256(repr((list(rows), with_embed)).encode()).hexdigest()[:12]


#: The toy package's own key code (the kept key is named by the versions of its modules).
KEYS_MODULE = """
import hashlib

def model_key(rows, with_embed):
    return hashlib.sha256(repr((list(rows), with_embed)).encode()).hexdigest()[:12]
"""


def test_a_changed_data_file_or_a_damaged_key_is_computed_again(
    install_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkgs" / "toy_model_data"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "keys.py").write_text(KEYS_MODULE, encoding="utf-8")
    data = package / "rows.txt"
    data.write_text("a\nb\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(package.parent))
    read: list[str] = []
    keys = importlib.import_module("toy_model_data.keys")

    def rows() -> list[str]:
        read.append("rows")
        return data.read_text(encoding="utf-8").split()

    toy = model_files.ModelFiles(
        "toy", rows, keys.model_key, lambda r, e: None, lambda p, k: None,  # type: ignore[arg-type]
        package="toy_model_data", sources=(("toy_model_data", "rows.txt"),),
    )  # fmt: skip
    assert toy.key(False) == _toy_key(["a", "b"], False) and read == ["rows"]
    _new_process()
    assert toy.key(False) == _toy_key(["a", "b"], False) and read == ["rows"]  # kept

    data.write_text("a\nb\nc\n", encoding="utf-8")
    os.utime(data, ns=(data.stat().st_atime_ns, data.stat().st_mtime_ns + 10**9))
    _new_process()
    assert toy.key(False) == _toy_key(["a", "b", "c"], False) and len(read) == 2

    [kept] = install_cache.glob("toy-key-0-*.txt")
    kept.write_text("not a key!\n", encoding="utf-8")
    _new_process()
    assert toy.key(False) == _toy_key(["a", "b", "c"], False) and len(read) == 3
    assert kept.read_text(encoding="utf-8") == _toy_key(["a", "b", "c"], False)
