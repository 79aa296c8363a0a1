"""Copying a home keeps the vector store's preallocated files sparse."""

from __future__ import annotations

import os
from pathlib import Path

from core.files import copy_tree


def test_a_copied_tree_has_the_same_bytes_and_keeps_its_holes(tmp_path: Path) -> None:
    source = tmp_path / "home"
    (source / "wal").mkdir(parents=True)
    sparse = source / "wal" / "open-1"
    with open(sparse, "wb") as handle:
        handle.write(b"head")
        handle.seek(32 << 20)
        handle.write(b"tail")
    (source / "notes.txt").write_text("small file", encoding="utf-8")

    target = copy_tree(source, tmp_path / "copy")

    copied = target / "wal" / "open-1"
    assert copied.read_bytes() == sparse.read_bytes()
    assert (target / "notes.txt").read_text(encoding="utf-8") == "small file"
    allocated = os.stat(copied).st_blocks * 512
    assert allocated < 4 << 20, f"{allocated} bytes allocated for a 32 MB file with a hole"
