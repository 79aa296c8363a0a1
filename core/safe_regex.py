"""Regexes written by admins (knowledge-base `id_patterns`) compiled and matched with bounds.

Such a pattern runs on every message, so one with catastrophic backtracking holds a brain worker
for seconds per message (`(a+)+x` took 9 s on 27 characters). Two guards: `compile_bounded`
refuses long sources and nested quantifiers when a pattern is loaded, with a message that says
why; `search_all` and `matches_whole` run on the `regex` engine with a time budget
(`core.limits.REGEX_TIMEOUT_S`), so a slow pattern the static check cannot see (overlapping
alternatives such as `(a|aa)+b`) costs a bounded time and counts as no match.

The `regex` engine's budget is wall time, so on a busy machine a pattern that was merely
waiting for a core can run out of it; the caller would then disable a harmless pattern and
routing would change with the machine's load. A match that ran out of time while its thread
used less than half the budget in CPU is therefore tried again (up to `REGEX_ATTEMPTS` times
in all); only a match that spent the CPU itself, or every attempt, is a `RegexTimeout`.
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

import regex

from core.errors import BrainError
from core.limits import REGEX_ATTEMPTS, REGEX_MAX_CHARS, REGEX_TIMEOUT_S

_T = TypeVar("_T")

__all__ = ["RegexTimeout", "UnsafePattern", "compile_bounded", "matches_whole", "search_all"]

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)


class UnsafePattern(BrainError, ValueError):
    """The pattern is invalid or could backtrack catastrophically; the message says why."""


class RegexTimeout(BrainError, TimeoutError):
    """A pattern spent its whole time budget on one text."""


def _nested_quantifier(items: Any, outer_unbounded: bool | None) -> bool:
    """Is a repeated item inside another repeated item, one of them unbounded?

    `outer_unbounded` is None outside any repetition, else whether the enclosing one is
    unbounded. Atomic groups and possessive repeats never backtrack, so they are not searched.
    """
    for op, value in items:
        if op in _REPEATS:
            _low, high, body = value
            repeats = high is _c.MAXREPEAT or high > 1
            unbounded = high is _c.MAXREPEAT
            if repeats and outer_unbounded is not None and (outer_unbounded or unbounded):
                return True
            inner = (bool(outer_unbounded) or unbounded) if repeats else outer_unbounded
            if _nested_quantifier(body, inner):
                return True
        elif op is _c.SUBPATTERN:
            if _nested_quantifier(value[-1], outer_unbounded):
                return True
        elif op is _c.BRANCH:
            if any(_nested_quantifier(branch, outer_unbounded) for branch in value[1]):
                return True
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            if _nested_quantifier(value[1], outer_unbounded):
                return True
        elif op is _c.GROUPREF_EXISTS:
            branches = [branch for branch in value[1:] if branch is not None]
            if any(_nested_quantifier(branch, outer_unbounded) for branch in branches):
                return True
    return False


def compile_bounded(source: str, *, template: str = "{}") -> regex.Pattern[str]:
    """Compile an admin-written pattern (Python `re` syntax), refusing what could hang.

    `template` wraps the checked source before compiling (e.g. token boundaries around it).
    Raises `UnsafePattern` for a source over `REGEX_MAX_CHARS`, invalid syntax or nested
    quantifiers such as `(a+)+` or `(\\d*-)*`.
    """
    if len(source) > REGEX_MAX_CHARS:
        raise UnsafePattern(f"longer than {REGEX_MAX_CHARS} characters")
    try:
        parsed = _parser.parse(source)
    except re.error as exc:
        raise UnsafePattern(f"invalid regex ({exc})") from None
    if _nested_quantifier(parsed.data, None):
        raise UnsafePattern(
            "nested quantifiers (a repeated group that itself repeats, like '(a+)+') can take "
            "exponential time; repeat the inner part only once, e.g. 'a+' instead of '(a+)+'"
        )
    try:
        return regex.compile(template.format(source))
    except regex.error as exc:
        raise UnsafePattern(f"invalid regex ({exc})") from None


def _within_budget(pattern: regex.Pattern[str], match: Callable[[], _T]) -> _T:
    """`match()` under the time budget, tried again when the time ran out on a busy machine
    rather than in the pattern (see the module docstring)."""
    for _ in range(REGEX_ATTEMPTS):
        used_before = time.thread_time()
        try:
            return match()
        except TimeoutError:
            if time.thread_time() - used_before >= REGEX_TIMEOUT_S / 2:
                break  # the pattern itself is slow
    raise RegexTimeout(pattern.pattern)


def search_all(pattern: regex.Pattern[str], text: str) -> list[tuple[int, int]]:
    """Spans of every match of `pattern` in `text`; `RegexTimeout` past the time budget."""
    return _within_budget(
        pattern,
        lambda: [match.span() for match in pattern.finditer(text, timeout=REGEX_TIMEOUT_S)],
    )


def matches_whole(pattern: regex.Pattern[str], text: str) -> bool:
    """Does `pattern` match all of `text`? `RegexTimeout` past the time budget."""
    return _within_budget(
        pattern, lambda: pattern.fullmatch(text, timeout=REGEX_TIMEOUT_S) is not None
    )
