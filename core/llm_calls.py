"""Per-decision LLM call counting, safe when several decisions run at once on worker threads.

`LLMClient.calls` counts every request of the process; a decision needs only its own. The
engine opens `count_llm_calls()` around one decision; every request made in that block on the
same thread (context) is recorded in it by `record_llm_call()`, and concurrent decisions on
other threads, each in its own context, are not. A block nested in another also counts towards
the outer one. Threads do not inherit the context: work handed to a pool on behalf of the block
re-enters it with `count_llm_calls(into=count)`.

No dependencies, so importing the engine does not import the anthropic SDK.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["LLMCallCount", "count_llm_calls", "record_llm_call"]


class LLMCallCount:
    """LLM requests attempted inside one `count_llm_calls()` block (thread-safe)."""

    def __init__(self, parent: LLMCallCount | None = None) -> None:
        self._parent = parent
        self._lock = threading.Lock()
        self._value = 0

    @property
    def value(self) -> int:
        """Requests recorded so far."""
        with self._lock:
            return self._value

    def _add(self) -> None:
        count: LLMCallCount | None = self
        while count is not None:
            with count._lock:
                count._value += 1
            count = count._parent


_current: ContextVar[LLMCallCount | None] = ContextVar("brain_llm_call_count", default=None)


@contextmanager
def count_llm_calls(into: LLMCallCount | None = None) -> Iterator[LLMCallCount]:
    """Count the LLM requests made in this block, in this context only.

    ``into`` re-enters a count opened elsewhere (e.g. on the thread that handed work to a pool)
    instead of starting a new one.
    """
    count = into if into is not None else LLMCallCount(parent=_current.get())
    token = _current.set(count)
    try:
        yield count
    finally:
        _current.reset(token)


def record_llm_call() -> None:
    """Record one request in the open count of this context, if any (called by LLMClient)."""
    count = _current.get()
    if count is not None:
        count._add()
