"""A replay's throwaway copy of the home keeps the vector store's preallocated files sparse:
a plain copy wrote their holes as zeros, about 200 MB a replay for a home that holds 3 MB."""

from __future__ import annotations

import os
from pathlib import Path

from brain.replay.sandbox import sandbox
from core.config import Settings


def _allocated(home: Path) -> int:
    """Bytes the files under `home` take on the disk."""
    return sum(
        os.stat(Path(folder) / name).st_blocks * 512
        for folder, _, names in os.walk(home)
        for name in names
    )


def _apparent(home: Path) -> int:
    return sum(
        os.stat(Path(folder) / name).st_size for folder, _, names in os.walk(home) for name in names
    )


def test_the_replays_copy_of_the_home_takes_no_more_disk_than_the_home(home: Path) -> None:
    real = _allocated(home)
    assert _apparent(home) > 10 * real  # precondition: the home's files are mostly holes
    with sandbox(Settings(home=home)) as copied:
        assert copied.home != home
        assert _apparent(copied.home) > 10 * real  # the files were copied whole
        assert _allocated(copied.home) <= real + (1 << 20)
