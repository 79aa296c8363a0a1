"""`brain` run as a process of its own, for the tests whose point is that what one command
learned or wrote reaches the next process (lessons, evolved controllers, forget, rebuilt
indexes), not only the next call in the same interpreter."""

from __future__ import annotations

import subprocess
import sys


def brain_process(
    *args: str, stdin: str | None = None, code: int = 0
) -> subprocess.CompletedProcess[str]:
    """`python -m brain ARGS` on the test's BRAIN_HOME; it must exit with `code`."""
    done = subprocess.run(
        [sys.executable, "-m", "brain", *args],
        capture_output=True,
        text=True,
        timeout=600,
        input=stdin,
        check=False,
    )
    assert done.returncode == code, done.stderr[-2000:]
    return done


def brain_out(*args: str, stdin: str | None = None) -> str:
    """What `python -m brain ARGS` printed on stdout (it must succeed)."""
    return brain_process(*args, stdin=stdin).stdout
