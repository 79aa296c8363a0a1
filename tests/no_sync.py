"""Test processes that do not wait for the disk: `fsync`, `fdatasync`, `msync` and their kin
return at once (`tests/no_sync.c`, preloaded with LD_PRELOAD into every process started after
the test run's first one: the xdist workers, `brain` processes, PostgreSQL, Chromium).

A flush is what makes a write survive a power cut, and no test can cut the power: a process
killed with -9 (`tests/engine/test_durability.py`) leaves its writes in the page cache for the
next one either way, and the tests that count the stores' flushes count the calls of
`os.fsync`, which still happen. PostgreSQL already ran with `fsync = off` here for the same
reason (`tests/pg_server.py`). What the flushes cost: every test that opens a brain copies a
home and closes it, and the close waits for Qdrant Edge to msync the freshly copied, still
dirty files; each ask fsyncs the journals. On a shared virtual disk that waiting was most of
a test's wall time (docs/testing.md). `BRAIN_TEST_FSYNC=on` keeps the real flushes.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("no_sync.c")
#: Set to the built library's path once it is preloaded, so later test processes (which
#: import the suite's conftest again) reuse it.
BUILT = "BRAIN_TEST_NO_SYNC"


def preload() -> str:
    """Build the library once a run and add it to LD_PRELOAD for the processes started from
    now on (this process is already running: under xdist it only hands out the tests). Says
    what was done, for the run's header; where it cannot be built (not Linux, no C compiler)
    the tests run with the real flushes, only slower."""
    if os.environ.get("BRAIN_TEST_FSYNC", "").lower() in {"1", "on", "true", "yes"}:
        return "on (BRAIN_TEST_FSYNC)"
    built = os.environ.get(BUILT)
    if built and built in os.environ.get("LD_PRELOAD", "").split(":"):
        return f"off in the test processes ({SOURCE.name} preloaded)"
    if sys.platform != "linux":
        return f"on (no LD_PRELOAD on {sys.platform})"
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        return "on (no C compiler to build tests/no_sync.c)"
    folder = Path(tempfile.mkdtemp(prefix="brain-tests-no-sync-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    library = folder / "no_sync.so"
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(SOURCE)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return f"on (tests/no_sync.c did not build: {done.stderr.strip()[-200:]})"
    preloaded = [part for part in os.environ.get("LD_PRELOAD", "").split(":") if part]
    os.environ["LD_PRELOAD"] = ":".join([*preloaded, str(library)])
    os.environ[BUILT] = str(library)
    return f"off in the test processes ({SOURCE.name} preloaded)"
