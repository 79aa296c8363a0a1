"""Compute slots: bound how many threads run the brain's CPU work, not how many may wait.

A decision is mostly CPU-bound Python, so running more of them at once than there are cores
adds no throughput and starves the event loop. But a decision that waits for an LLM reply
(seconds, maybe its whole timeout) uses no CPU: holding a compute slot meanwhile would make
every message queued behind it, fast path included, wait for someone else's network call.

So a worker holds a slot (`ComputeSlots.held`) while it computes, and lends it out while it
waits on the network (`lend_slot`, around the LLM request in `core.llm`): a fast-path message
queued behind a stalled LLM call takes the lent slot and is answered meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ComputeSlots", "lend_slot"]

_local = threading.local()


class ComputeSlots:
    """At most `slots` threads compute at once; a thread waiting on I/O lends its slot."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("at least one compute slot is needed")
        self.slots = slots
        self._semaphore = threading.Semaphore(slots)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Run the block holding a slot (waits for one); `lend_slot` inside it lends it."""
        self._semaphore.acquire()
        outer = getattr(_local, "slots", None)
        _local.slots = self
        try:
            yield
        finally:
            _local.slots = outer
            self._semaphore.release()

    def _lend(self) -> None:
        self._semaphore.release()

    def _take_back(self) -> None:
        self._semaphore.acquire()


@contextmanager
def lend_slot() -> Iterator[None]:
    """Around a blocking wait on the network: the calling thread's compute slot, if it holds
    one, is free for another thread until the wait ends (then it is taken back, waiting for
    it if need be). Without a slot (a CLI process, a test) it does nothing."""
    slots: ComputeSlots | None = getattr(_local, "slots", None)
    if slots is None:
        yield
        return
    slots._lend()
    try:
        yield
    finally:
        slots._take_back()
