"""Cue files: each lies beside the module that reads it and ships with the package, its entries
read as written, and a missing file or entry is an error that names it.

A recognizer's words and patterns are data (`core.cues`); a file the build left out, or an
entry renamed in one place only, would fail at import or at the first message in that
language, so both are caught here for every cue file shipped.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from core.cues import SUFFIX, CueError, Cues, cues
from core.wording import languages
from tests.source_strings import docstring_ids

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "knowledge", "controllers", "brain", "bot", "console", "cli")
CUE_FILES = sorted(path for top in PACKAGES for path in (ROOT / top).rglob(f"*{SUFFIX}"))
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _module(path: Path) -> str:
    relative = path.relative_to(ROOT)
    return ".".join((*relative.parent.parts, relative.name.removesuffix(SUFFIX)))


def test_cue_files_are_shipped() -> None:
    assert CUE_FILES, "no cue file found"


@pytest.mark.parametrize("path", CUE_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_cue_file_is_package_data_beside_the_module_that_reads_it(path: Path) -> None:
    """An installed brain reads its cues from the package: the file's folder is a package the
    build finds, `*.yaml` is package data of every package, and the module of the file's
    name reads it (`cues(__name__)`)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert "*.yaml" in setuptools["package-data"]["*"]
    assert (path.parent / "__init__.py").is_file()
    top = path.relative_to(ROOT).parts[0]
    assert f"{top}*" in setuptools["packages"]["find"]["include"]
    source = path.with_name(path.name.removesuffix(SUFFIX) + ".py").read_text("utf-8")
    assert "cues(__name__)" in source


@pytest.mark.parametrize("path", CUE_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_entry_is_read_by_its_module(path: Path) -> None:
    """An entry its module never names is a cue nothing looks for: renamed in one place only,
    or left behind when the code stopped using it."""
    module = _module(path)
    source = path.with_name(path.name.removesuffix(SUFFIX) + ".py").read_text("utf-8")
    unread = [
        name
        for name in cues(module).entries
        if f'"{name}"' not in source and f"'{name}'" not in source
    ]
    assert unread == []


@pytest.mark.parametrize("path", CUE_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_module_with_a_cue_file_keeps_its_chinese_words_there(path: Path) -> None:
    """Once a recognizer's words are data, its code holds no Chinese text: a word added to
    the module's strings instead of to its cue file is one that a reader of the language's
    words would not see, and a third language could not follow. (Docstrings and comments may
    quote an example.)"""
    tree = ast.parse(path.with_name(path.name.removesuffix(SUFFIX) + ".py").read_text("utf-8"))
    skip = docstring_ids(tree)
    found = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and _CJK.search(node.value)
    ]
    assert found == []


@pytest.mark.parametrize("path", CUE_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_entry_has_a_shape_the_loader_reads(path: Path) -> None:
    """Text, a list of text, a mapping by language, or a table of text to text or to
    numbers; a mapping by language names only languages with a catalog."""
    found = cues(_module(path))
    for name, entry in found.entries.items():
        if isinstance(entry, dict) and set(entry) <= set(languages()):
            assert found.regex(name)
        elif isinstance(entry, dict) and all(isinstance(v, str) for v in entry.values()):
            assert found.table(name)
        elif isinstance(entry, dict):
            assert found.numbers(name)
        elif isinstance(entry, list):
            assert found.words(name)
        else:
            assert isinstance(entry, str) and entry, name


def test_entries_are_read_as_written_and_joined_in_the_files_order() -> None:
    found = Cues(
        file="x.cues.yaml",
        entries={
            "plain": r"\bnow\b",
            "alternatives": ["roll ?back", "rollback"],
            "by_language": {"en": ["urgent", "asap"], "zh": "紧急|马上"},
            "names": {"标准": "standard"},
            "numerals": {"十": 10},
        },
    )
    assert found.regex("plain") == r"\bnow\b"
    assert found.text("plain") == r"\bnow\b"
    assert found.regex("alternatives") == "roll ?back|rollback"
    assert found.words("alternatives") == ("roll ?back", "rollback")
    assert found.regex("by_language") == "urgent|asap|紧急|马上"
    assert found.table("names") == {"标准": "standard"}
    assert found.numbers("numerals") == {"十": 10}


def test_a_missing_file_or_entry_or_a_wrong_shape_names_the_file_and_the_key() -> None:
    with pytest.raises(CueError, match=r"controllers/builtin/change\.cues\.yaml has no entry 'x'"):
        cues("controllers.builtin.change").regex("x")
    with pytest.raises(CueError, match=r"no cue file core/config\.cues\.yaml"):
        cues("core.config")
    found = Cues(file="x.cues.yaml", entries={"words": ["a"], "odd": {"fr": "x"}, "n": [1]})
    with pytest.raises(CueError, match=r"x\.cues\.yaml: 'words' is not a table"):
        found.table("words")
    with pytest.raises(CueError, match=r"x\.cues\.yaml: 'words' is not a table of text to num"):
        found.numbers("words")
    with pytest.raises(CueError, match=r"x\.cues\.yaml: 'odd' is by language, but fr is no"):
        found.regex("odd")
    with pytest.raises(CueError, match=r"x\.cues\.yaml: 'words' is not text"):
        found.text("words")
    with pytest.raises(CueError, match=r"x\.cues\.yaml: 'n' is not a list of text"):
        found.words("n")


def test_a_module_run_with_python_m_finds_its_cue_file(tmp_path: Path) -> None:
    """`python -m` names the module "__main__" (the install runs `python -m
    core.text.onnx_export` so in its build environment): its cue file is found by the name it
    was run as. It failed the install with "Empty module name"."""
    package = tmp_path / "cuepkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "reader.cues.yaml").write_text("greeting: hello\n", encoding="utf-8")
    (package / "reader.py").write_text(
        "from core.cues import cues\nprint(cues(__name__).regex('greeting'))\n", encoding="utf-8"
    )
    path = os.pathsep.join([str(tmp_path), str(ROOT)])
    ran = subprocess.run(
        [sys.executable, "-m", "cuepkg.reader"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "hello"
