"""The test run's processes do not wait for the disk (tests/no_sync.py), and a write is still
read back whole by another process: only the flush to the disk is left out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import conftest
from tests.no_sync import BUILT


def _preloaded(maps: str) -> bool:
    library = os.environ.get(BUILT, "")
    return bool(library) and library in maps


@pytest.mark.skipif(
    not conftest.DISK_FLUSHES.startswith("off"), reason="the run keeps the disk's flushes"
)
def test_a_process_the_run_starts_has_no_flushes_and_reads_what_was_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        handle.write('{"n": 1}\n')
        handle.flush()
        os.fsync(handle.fileno())
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; fd = os.open(sys.argv[1], os.O_RDWR); os.fsync(fd); "
            "print(open(sys.argv[1]).read(), end=''); "
            "print(open('/proc/self/maps').read())",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.startswith('{"n": 1}\n')
    assert _preloaded(child.stdout)
    if os.environ.get("PYTEST_XDIST_WORKER"):  # a worker is started after the run's first process
        assert _preloaded(Path("/proc/self/maps").read_text())
