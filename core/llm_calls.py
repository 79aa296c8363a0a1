"""Per-decision LLM call counting, safe when several decisions run at once on worker threads.

`LLMClient.calls` counts every request of the process; a decision needs only its own. The
engine opens `count_llm_calls()` around one decision; every request made in that block on the
same thread (context) is recorded in it by `record_llm_call()`, and concurrent decisions on
other threads, each in its own context, are not. A block nested in another also counts towards
the outer one. Threads do not inherit the context: work handed to a pool on behalf of the block
re-enters it with `count_llm_calls(into=count)`.

A count may also carry the decision's one LLM budget (`within_s`): the seconds its requests
may spend waiting on the LLM together, whichever stage makes them (intent recognition, a
dry-run, the dynamic tier), so a decision's LLM calls take at most the configured timeout in
all, not one each. Time between requests (opening models on a cold start, scoring) is not LLM
time and does not count.

No dependencies, so importing the engine does not import the anthropic SDK.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = [
    "LLMCallCount",
    "PendingBudgets",
    "count_llm_calls",
    "llm_time_left",
    "record_llm_call",
    "record_llm_time",
]


class LLMCallCount:
    """LLM requests attempted inside one `count_llm_calls()` block (thread-safe)."""

    def __init__(self, parent: LLMCallCount | None = None, budget_s: float | None = None) -> None:
        self._parent = parent
        self._lock = threading.Lock()
        self._value = 0
        self._budget_s = budget_s
        self._spent_s = 0.0

    def time_left(self) -> float | None:
        """Seconds left of this block's LLM budget (and its outer blocks'), None without one."""
        left = self._parent.time_left() if self._parent is not None else None
        if self._budget_s is not None:
            with self._lock:
                own = self._budget_s - self._spent_s
            left = own if left is None else min(left, own)
        return left

    @property
    def value(self) -> int:
        """Requests recorded so far."""
        with self._lock:
            return self._value

    def _add(self, requests: int = 0, seconds: float = 0.0) -> None:
        count: LLMCallCount | None = self
        while count is not None:
            with count._lock:
                count._value += requests
                count._spent_s += seconds
            count = count._parent


_current: ContextVar[LLMCallCount | None] = ContextVar("brain_llm_call_count", default=None)


@contextmanager
def count_llm_calls(
    into: LLMCallCount | None = None, *, within_s: float | None = None
) -> Iterator[LLMCallCount]:
    """Count the LLM requests made in this block, in this context only.

    ``into`` re-enters a count opened elsewhere (e.g. on the thread that handed work to a pool)
    instead of starting a new one, budget included. ``within_s``: the block's requests all end
    up to this many seconds of LLM waiting in all (an outer block's budget still holds).
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


def record_llm_time(seconds: float) -> None:
    """Charge one request's wait to the budget of this context's open count, if any."""
    count = _current.get()
    if count is not None:
        count._add(seconds=seconds)


def llm_time_left() -> float | None:
    """Seconds left of this context's LLM budget (may be <= 0), or None when it has none."""
    count = _current.get()
    return None if count is None else count.time_left()


#: Decided but not yet executed decisions whose budgets are kept (a surface that never
#: executes some, a clarification, must not grow the table).
PENDING_KEPT = 1024


class PendingBudgets:
    """Each decision's count between its `decide` and its `execute` (thread-safe, bounded):
    the controllers run after the decision (answer verification) spend what is left of the
    same budget, so one decision's LLM waiting is at most the timeout in all."""

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
