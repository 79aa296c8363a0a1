"""Copying a brain home without inflating it.

The embedded vector store preallocates its write-ahead log and segment pages as sparse files
(32 MB each, a few KB really written), so a plain copy of a home writes ~190 MB of zeros where
the original holds ~6 MB. `copy_tree` keeps the holes.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

#: Bytes compared at a time; a block of zeros becomes a hole in the copy.
BLOCK = 1 << 20


def copy_sparse(source: str, target: str) -> str:
    """Copy one file, skipping (seeking over) blocks of zeros, then its metadata."""
    zero = bytes(BLOCK)
    with open(source, "rb") as reader, open(target, "wb") as writer:
        while block := reader.read(BLOCK):
            if block == zero[: len(block)]:
                writer.seek(len(block), os.SEEK_CUR)
            else:
                writer.write(block)
        writer.truncate()
    shutil.copystat(source, target)
    return target


def copy_tree(source: Path, target: Path, **options: Any) -> Path:
    """`shutil.copytree` with sparse-preserving file copies (same keyword options)."""
    return Path(shutil.copytree(source, target, copy_function=copy_sparse, **options))
