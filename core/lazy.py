"""Parts built once, on first use, safely from several threads.

The brain opens its heavy parts (models, the knowledge base, the LLM client) only when a
decision needs them, so `brain why` and `brain feedback` never load a model. `Lazy` is that
pattern written once: a builder, a lock, and a value that is built at most once (or again when
its key changes, for parts fitted on something that can change, like the controller set).
A build pauses the deadline of the decision that triggers it (`core.llm_calls.paused`).
`LazyPattern` is the same for a regular expression.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from typing import Generic, TypeVar

from core.llm_calls import paused

T = TypeVar("T")

_UNSET = object()


class Lazy(Generic[T]):
    """A value built by `build` on the first `get()`; later calls return the same value.

    With `key`, the value is rebuilt whenever `key()` changes (checked on every `get()`).
    The build runs under the part's own lock, so two threads never build it twice; a build that
    raises leaves the part unbuilt (the next `get()` tries again).
    """

    def __init__(
        self, build: Callable[[], T], *, key: Callable[[], Hashable] | None = None
    ) -> None:
        self._build = build
        self._key = key
        self._lock = threading.RLock()
        #: (key it was built for, value), replaced as one object so readers see a matching pair.
        self._slot: tuple[Hashable, object] = (None, _UNSET)

    def get(self) -> T:
        """The value, built now if it is not yet (or its key moved on)."""
        key = self._key() if self._key is not None else None
        built_for, value = self._slot
        if value is _UNSET or key != built_for:
            with self._lock:
                built_for, value = self._slot
                if value is _UNSET or key != built_for:
                    with paused():  # a cold start's build is not the decision's LLM time
                        value = self._build()
                    self._slot = (key, value)
        return value  # type: ignore[return-value]

    @property
    def built(self) -> bool:
        """Has the value been built (without building it)?"""
        return self._slot[1] is not _UNSET

    def peek(self) -> T | None:
        """The value if it has been built, else None; never builds."""
        value = self._slot[1]
        return None if value is _UNSET else value  # type: ignore[return-value]

    def peek_current(self) -> T | None:
        """The value if it has been built for the current key, else None; never builds."""
        built_for, value = self._slot
        if value is _UNSET or (self._key is not None and self._key() != built_for):
            return None
        return value  # type: ignore[return-value]


class LazyPattern:
    """`re.compile(source, flags)` on first use, with the compiled pattern's matching methods.

    For module-level patterns that most processes never run: a controller's own, read only
    when it executes. Compiling a few hundred patterns at import cost a warm `brain ask` a
    tenth of a second. Built on `Lazy`, so it is compiled once."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: Lazy[re.Pattern[str]] = Lazy(partial(re.compile, pattern, flags))

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now on the first call)."""
        return self._compiled.get()

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)
