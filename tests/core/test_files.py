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


def test_every_data_region_is_copied_whatever_lies_between_and_at_the_end(tmp_path: Path) -> None:
    """Data at odd offsets between holes, a block of written zeros, a trailing hole and an
    empty file: the copy has the same bytes and size (the holes are found, not read)."""
    source = tmp_path / "home"
    source.mkdir()
    pages = source / "page_0.dat"
    with open(pages, "wb") as handle:
        for offset, data in ((5, b"first"), (3 << 20, b"\0" * 8192), (9 << 20, b"x" * 70_000)):
            handle.seek(offset)
            handle.write(data)
        handle.truncate(40 << 20)  # ends in a hole
    (source / "empty").write_bytes(b"")

    target = copy_tree(source, tmp_path / "copy")

    assert (target / "page_0.dat").read_bytes() == pages.read_bytes()
    assert (target / "page_0.dat").stat().st_size == 40 << 20
    assert (target / "empty").read_bytes() == b""
    assert os.stat(target / "page_0.dat").st_blocks * 512 < 1 << 20
