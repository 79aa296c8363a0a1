"""A model key hashes the code that computes the model's input: its modules' cue files are
part of that code (`core.model_files.code_digest`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core import model_files


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    """A throwaway package `digestpkg` whose module `reader` has a cue file."""
    root = tmp_path / "digestpkg"
    root.mkdir()
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "reader.py").write_text("WORDS = 1\n", encoding="utf-8")
    (root / "reader.cues.yaml").write_text("urgent:\n  en: [urgent]\n", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    yield root
    sys.path.remove(str(tmp_path))
    sys.modules.pop("digestpkg", None)


def _digest() -> str:
    model_files._code_digest.cache_clear()
    return model_files.code_digest("digestpkg.reader", "digestpkg")


def test_a_changed_cue_moves_the_digest_and_a_comment_does_not(package: Path) -> None:
    cue_file = package / "reader.cues.yaml"
    first = _digest()
    cue_file.write_text("# a comment\nurgent:\n  en: [urgent]\n", encoding="utf-8")
    assert _digest() == first
    cue_file.write_text("urgent:\n  en: [urgent, asap]\n", encoding="utf-8")
    assert _digest() != first


def test_the_order_of_alternatives_is_part_of_the_digest(package: Path) -> None:
    cue_file = package / "reader.cues.yaml"
    cue_file.write_text("urgent:\n  en: [urgent, asap]\n", encoding="utf-8")
    first = _digest()
    cue_file.write_text("urgent:\n  en: [asap, urgent]\n", encoding="utf-8")
    assert _digest() != first


def test_a_module_without_a_cue_file_hashes_its_code_alone(package: Path) -> None:
    with_cues = _digest()
    (package / "reader.cues.yaml").unlink()
    assert _digest() != with_cues
