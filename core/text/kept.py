"""People's words a process keeps in memory beside the stores, and how forgetting reaches them.

Forgetting a person (`brain.learning.control.forget_user`) removes their words from every
store, but the process that decides also keeps texts in caches: the embedder's query vectors
and the routing fit's training vectors (`core.text.embedder`), recognised intents, escalation
readings, knowledge look-ups, ticket-search vectors. Each such cache registers here
(`register`, or `text_memo` for a one-text function) and `forget` reaches them all, so after a
forget no cache of the process that forgot holds the person's words.

A cache keyed by what people asked (a query, a looked-up word) cannot tell whose a text is,
so it is emptied whole: it refills at the cost of the next few look-ups. A cache whose texts
are expensive to make again (the routing fit's thousands of training vectors) drops only the
entries `forgotten` names: a person's words reach a fit only through their lessons, cases and
tickets, whose texts the forget collects. An entry is named when it holds one of those texts or
is held in one (a fit's text may carry a prefix, be cut short, or be a single word of it),
compared casefolded with runs of spaces as one.

Other processes (a CLI command beside a running bot, another replica) keep caches of their
own, which this cannot reach: they read the stores afresh, so what they hold after the forget
is what they read before it, until their caches are evicted or they end. A one-shot command
ends within its command; a long-running process of its own forgets only when it forgets.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "Cleared",
    "KeptDict",
    "KeptTexts",
    "TextMemo",
    "drop",
    "forget",
    "held",
    "named_by",
    "register",
    "text_memo",
]

T = TypeVar("T")

_SPACES = re.compile(r"\s+")


class KeptTexts(Protocol):
    """A cache that holds people's texts in a process."""

    def kept_texts(self) -> Iterable[str]:
        """Every text the cache holds (its keys, or the texts inside them)."""
        ...

    def forget_texts(self, forgotten: Callable[[str], bool]) -> None:
        """Drop every entry a forgotten text names (`forgotten(text)`), or everything."""
        ...


_LOCK = threading.Lock()
_CACHES: weakref.WeakSet[KeptTexts] = weakref.WeakSet()


def register(cache: KeptTexts) -> None:
    """Reach `cache` from `forget` and `held` for as long as it lives (held weakly)."""
    with _LOCK:
        _CACHES.add(cache)


def _caches() -> list[KeptTexts]:
    with _LOCK:
        return list(_CACHES)


def _plain(text: str) -> str:
    return _SPACES.sub(" ", text).strip().casefold()


def named_by(texts: Iterable[str]) -> Callable[[str], bool]:
    """Whether a kept text is one of `texts`: holds one, or is held in one (compared
    casefolded, spaces as one)."""
    forms = {plain for plain in map(_plain, texts) if plain}

    def forgotten(kept: str) -> bool:
        plain = _plain(kept)
        return any(form in plain or plain in form for form in forms)

    return forgotten


def drop(entries: MutableMapping[str, Any], forgotten: Callable[[str], bool]) -> None:
    """Remove the entries of a dict keyed by text whose text `forgotten` names (from a
    snapshot of the keys: without a lock another thread may add meanwhile)."""
    for text in [text for text in list(entries) if forgotten(text)]:
        entries.pop(text, None)


def forget(texts: Iterable[str]) -> None:
    """Forget a person in this process: every registered cache drops the entries `texts` (the
    person's words as the stores held them) name, and the caches of asked texts empty."""
    forgotten = named_by(texts)
    for cache in _caches():
        cache.forget_texts(forgotten)


def held() -> Iterator[str]:
    """Every text a registered cache of this process holds (what a forget must have reached)."""
    for cache in _caches():
        yield from cache.kept_texts()


class KeptDict:
    """A dict keyed by text, reached by `forget` for as long as its owner holds this (it is
    registered when made, weakly): `whole` empties it on a forget (its texts are whatever was
    asked), else only the entries a forgotten person's words name go. `lock`: the owner's."""

    def __init__(
        self,
        entries: MutableMapping[str, Any],
        *,
        whole: bool,
        lock: AbstractContextManager[Any] | None = None,
    ) -> None:
        self._entries, self._whole = entries, whole
        self._lock = lock if lock is not None else nullcontext()
        register(self)

    def kept_texts(self) -> list[str]:
        with self._lock:
            return list(self._entries)  # one step: safe without a lock too

    def forget_texts(self, forgotten: Callable[[str], bool]) -> None:
        with self._lock:
            if self._whole:
                self._entries.clear()
            else:
                drop(self._entries, forgotten)


class Cleared:
    """A `functools.lru_cache` function of one text, reached by `forget`, which empties it.
    For the functions whose module's code is hashed into a shipped model's key
    (`core.model_files.code_digest`: a `text_memo` there would make every home refit that
    model); their texts cannot be listed, so `held` does not see them."""

    def __init__(self, function: Any) -> None:
        self._function = function
        register(self)

    def kept_texts(self) -> list[str]:
        return []

    def forget_texts(self, forgotten: Callable[[str], bool]) -> None:
        self._function.cache_clear()


class TextMemo(Generic[T]):
    """A function of one text, its results remembered for the newest `size` texts (an LRU,
    as `functools.lru_cache`) and reachable by `forget`, which empties it: the texts are
    whatever was asked, whose writer the memo cannot tell."""

    def __init__(self, function: Callable[[str], T], size: int) -> None:
        self.__wrapped__ = function
        self.__doc__ = function.__doc__
        self._size = size
        self._results: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()
        register(self)

    def __call__(self, text: str) -> T:
        with self._lock:
            if text in self._results:
                self._results.move_to_end(text)
                return self._results[text]
        result = self.__wrapped__(text)
        with self._lock:
            self._results[text] = result
            while len(self._results) > self._size:
                self._results.popitem(last=False)
        return result

    def cache_clear(self) -> None:
        with self._lock:
            self._results.clear()

    def kept_texts(self) -> list[str]:
        with self._lock:
            return list(self._results)

    def forget_texts(self, forgotten: Callable[[str], bool]) -> None:
        self.cache_clear()


def text_memo(size: int) -> Callable[[Callable[[str], T]], TextMemo[T]]:
    """Decorate a function of one text as a `TextMemo` of `size` texts."""

    def wrap(function: Callable[[str], T]) -> TextMemo[T]:
        return TextMemo(function, size)

    return wrap
