"""Matching admins' ID patterns within a time budget that a busy machine does not spend.

The `regex` engine's timeout is wall time. A pattern that only waited for a core (here: a
match that sleeps, using no CPU, before the engine reports the timeout) is tried again, not
reported as slow; before, it was a `RegexTimeout`, and the knowledge base retired the harmless
pattern, so routing changed with the machine's load.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import regex

from core.limits import REGEX_TIMEOUT_S
from core.safe_regex import RegexTimeout, compile_bounded, matches_whole, search_all


class _Preempted:
    """A real compiled pattern whose first `times` matches lose their budget waiting (sleep,
    no CPU), as they do when other processes hold both cores."""

    def __init__(self, source: str, times: int) -> None:
        self._real = regex.compile(source)
        self.pattern = source
        self._left = times

    def _wait(self) -> None:
        if self._left > 0:
            self._left -= 1
            time.sleep(REGEX_TIMEOUT_S * 1.2)
            raise TimeoutError("regex timed out")

    def finditer(self, text: str, timeout: float) -> Iterator[Any]:
        self._wait()
        return self._real.finditer(text, timeout=timeout)

    def fullmatch(self, text: str, timeout: float) -> Any:
        self._wait()
        return self._real.fullmatch(text, timeout=timeout)


def test_a_match_that_only_waited_for_a_core_is_tried_again() -> None:
    pattern: Any = _Preempted(r"INC-\d{6}", times=1)
    assert search_all(pattern, "see INC-000123 please") == [(4, 14)]
    pattern = _Preempted(r"INC-\d{6}", times=2)
    assert matches_whole(pattern, "INC-000123")


def test_a_pattern_that_waits_every_time_still_ends() -> None:
    pattern: Any = _Preempted(r"INC-\d{6}", times=100)
    with pytest.raises(RegexTimeout):
        search_all(pattern, "see INC-000123 please")


def test_a_pattern_that_spends_the_budget_computing_is_slow() -> None:
    slow = compile_bounded("(a|aa)+b")
    with pytest.raises(RegexTimeout):
        search_all(slow, "a" * 64 + "c")
