"""Progress of slow first-use work (exporting the model, fitting the routing model, embedding
chunks), told to whoever owns the terminal.

Messages go to the `brain.progress` logger at INFO. The command line prints them on stderr
(`cli.main`), so JSON on stdout stays clean; the Slack bot logs them like everything else;
a library user sees nothing unless it configures logging.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["PROGRESS_LOGGER", "progress", "step"]

PROGRESS_LOGGER = "brain.progress"
_log = logging.getLogger(PROGRESS_LOGGER)


def progress(message: str, *args: object) -> None:
    """Tell the user how slow work is going (%-style `args`, as logging)."""
    _log.info(message, *args)


@contextmanager
def step(message: str) -> Iterator[None]:
    """`message ...` when the work starts, `message ... 12 s` when it ends."""
    started = time.perf_counter()
    _log.info("%s ...", message)
    yield
    _log.info("%s ... %.1f s", message, time.perf_counter() - started)
