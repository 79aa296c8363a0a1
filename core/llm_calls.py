"""Per-decision LLM call counting, safe when several decisions run at once on worker threads.

`LLMClient.calls` counts every request of the process; a decision needs only its own. The
engine opens `count_llm_calls()` around one decision; every request made in that block on the
same thread (context) is recorded in it by `record_llm_call()`, and concurrent decisions on
other threads, each in its own context, are not. A block nested in another also counts towards
the outer one. Threads do not inherit the context: work handed to a pool on behalf of the block
re-enters it with `count_llm_calls(into=count)`.

A count may also carry the decision's one LLM deadline (`within_s`): created when the count
opens, at the start of the decision, and never renewed; every request of the decision, whichever
stage makes it (intent recognition, a dry-run, verification, the dynamic tier), is given only
what is left of it, and once it has passed no further request is sent (the stage takes its
no-LLM path). The clock is paused only while the decision builds a part on first use
(`paused()`, around `core.lazy.Lazy` builds: opening models on a cold start is not the
decision's time).

No dependencies, so importing the engine does not import the anthropic SDK.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = [
    "LLMCallCount",
    "PendingBudgets",
    "count_llm_calls",
    "llm_time_left",
    "paused",
    "record_llm_call",
]


class LLMCallCount:
    """LLM requests attempted inside one `count_llm_calls()` block (thread-safe)."""

    def __init__(self, parent: LLMCallCount | None = None, budget_s: float | None = None) -> None:
        self._parent = parent
        self._lock = threading.Lock()
        self._value = 0
        #: The one deadline (`time.monotonic()`), set once here; `_paused_s` is the time spent
        #: building parts on first use, which the deadline does not count.
        self._deadline = None if budget_s is None else time.monotonic() + budget_s
        self._paused_s = 0.0

    def time_left(self) -> float | None:
        """Seconds left before this block's deadline (and its outer blocks'), None without one."""
        left = self._parent.time_left() if self._parent is not None else None
        if self._deadline is not None:
            with self._lock:
                own = self._deadline + self._paused_s - time.monotonic()
            left = own if left is None else min(left, own)
        return left

    @property
    def value(self) -> int:
        """Requests recorded so far."""
        with self._lock:
            return self._value

    def _add(self, requests: int = 0, paused_s: float = 0.0) -> None:
        count: LLMCallCount | None = self
        while count is not None:
            with count._lock:
                count._value += requests
                count._paused_s += paused_s
            count = count._parent


_current: ContextVar[LLMCallCount | None] = ContextVar("brain_llm_call_count", default=None)


@contextmanager
def count_llm_calls(
    into: LLMCallCount | None = None, *, within_s: float | None = None
) -> Iterator[LLMCallCount]:
    """Count the LLM requests made in this block, in this context only.

    ``into`` re-enters a count opened elsewhere (e.g. on the thread that handed work to a pool)
    instead of starting a new one, deadline included (never renewed). ``within_s``: the block's
    deadline, this many seconds from now (an outer block's deadline still holds).
    """
    count = into if into is not None else LLMCallCount(_current.get(), within_s)
    token = _current.set(count)
    try:
        yield count
    finally:
        _current.reset(token)


def record_llm_call() -> None:
    """Record one request in the open count of this context, if any (called by LLMClient)."""
    count = _current.get()
    if count is not None:
        count._add(requests=1)


_pausing: ContextVar[bool] = ContextVar("brain_llm_deadline_paused", default=False)


@contextmanager
def paused() -> Iterator[None]:
    """Stop this context's deadline clock for the block (nested blocks pause once)."""
    count = _current.get()
    left = None if count is None else count.time_left()
    if count is None or left is None or left <= 0 or _pausing.get():
        yield  # no deadline, or one already passed: a build does not bring it back
        return
    token = _pausing.set(True)
    started = time.monotonic()
    try:
        yield
    finally:
        _pausing.reset(token)
        count._add(paused_s=time.monotonic() - started)


def llm_time_left() -> float | None:
    """Seconds left before this context's LLM deadline (may be <= 0), or None without one."""
    count = _current.get()
    return None if count is None else count.time_left()


#: Decided but not yet executed decisions whose deadlines are kept (a surface that never
#: executes some, a clarification, must not grow the table).
PENDING_KEPT = 1024


class PendingBudgets:
    """Each decision's count between its `decide` and its `execute` (thread-safe, bounded):
    the controllers run after the decision (answer verification) have only what is left
    before the same deadline, so one decision's LLM calls end within the timeout in all."""

    def __init__(self, limit: int = PENDING_KEPT) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._counts: OrderedDict[str, LLMCallCount] = OrderedDict()

    def keep(self, decision_id: str, count: LLMCallCount) -> None:
        with self._lock:
            self._counts[decision_id] = count
            while len(self._counts) > self._limit:
                self._counts.popitem(last=False)

    def take(self, decision_id: str) -> LLMCallCount | None:
        """The decision's count, once (None: decided elsewhere, or long ago)."""
        with self._lock:
            return self._counts.pop(decision_id, None)
