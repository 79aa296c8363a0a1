"""Copying a brain home without inflating it.

The embedded vector store preallocates its write-ahead log and segment pages as sparse files
(32 MB each, a few KB really written), so a plain copy of a home writes ~190 MB of zeros where
the original holds ~6 MB. `copy_tree` keeps the holes.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Bytes compared at a time; a block of zeros becomes a hole in the copy.
BLOCK = 1 << 20


def copy_sparse(source: str, target: str) -> str:
    """Copy one file, reading only its data (a hole is found with SEEK_DATA and not read at
    all), skipping blocks of zeros within the data too, then its metadata."""
    zero = bytes(BLOCK)
    with open(source, "rb") as reader, open(target, "wb") as writer:
        size = os.fstat(reader.fileno()).st_size
        for start, end in data_extents(reader.fileno(), size):
            reader.seek(start)
            writer.seek(start)
            left = end - start
            while left > 0 and (block := reader.read(min(BLOCK, left))):
                left -= len(block)
                if block == zero[: len(block)]:
                    writer.seek(len(block), os.SEEK_CUR)
                else:
                    writer.write(block)
        writer.truncate(size)
    shutil.copystat(source, target)
    return target


def data_extents(fd: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each region of the open file `fd` that holds data, in order; the whole
    file where the file system cannot say (no SEEK_DATA). Reading a hole costs as much as
    reading data: a fresh home's 400 MB of preallocated pages hold 3 MB."""
    where = 0
    while where < size:
        try:
            start = os.lseek(fd, where, os.SEEK_DATA)
            end = os.lseek(fd, start, os.SEEK_HOLE)
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # no data after `where`: the rest is a hole
                return
            yield where, size  # SEEK_DATA not supported here: read it all
            return
        yield start, min(end, size)
        where = end


def copy_tree(source: Path, target: Path, **options: Any) -> Path:
    """`shutil.copytree` with sparse-preserving file copies (same keyword options)."""
    return Path(shutil.copytree(source, target, copy_function=copy_sparse, **options))
