"""The recognition cache: LRU bound, keys, copies, thread safety."""

from __future__ import annotations

import threading

import pytest

from brain.intent.cache import IntentCache
from core.records import IntentResult


def _result(intent: str) -> IntentResult:
    return IntentResult(intent, 0.9, "d", "low", {"ticket_id": ["1"]}, {"llm": 0.9}, "ok")


def test_lru_evicts_the_least_recently_used() -> None:
    cache = IntentCache(maxsize=3)
    keys = [cache.key(f"m{i}", (), True) for i in range(3)]
    for key in keys:
        cache.put(key, _result("x"))
    assert cache.get(keys[0]) is not None  # m0 is now the most recent
    cache.put(cache.key("m3", (), True), _result("y"))
    assert len(cache) == 3
    assert keys[1] not in cache
    assert keys[0] in cache


def test_bound_of_one_thousand_holds_without_clearing_everything() -> None:
    cache = IntentCache()
    for i in range(1500):
        cache.put(cache.key(str(i), (), False), _result("x"))
    assert len(cache) == 1000
    assert cache.key("1499", (), False) in cache
    assert cache.key("499", (), False) not in cache
    assert cache.key("500", (), False) in cache


def test_key_covers_history_and_llm_mode() -> None:
    cache = IntentCache()
    cache.put(cache.key("it's stuck", ("vpn is down",), False), _result("network_vpn"))
    assert cache.get(cache.key("it's stuck", (), False)) is None
    assert cache.get(cache.key("it's stuck", ("vpn is down",), True)) is None
    hit = cache.get(cache.key("it's stuck", ["vpn is down"], False))
    assert hit is not None and hit.intent == "network_vpn"


def test_callers_get_copies() -> None:
    cache = IntentCache()
    key = cache.key("a", (), True)
    cache.put(key, _result("x"))
    first = cache.get(key)
    assert first is not None
    first.entities["ticket_id"].append("2")
    first.intent = "changed"
    again = cache.get(key)
    assert again is not None
    assert again.intent == "x" and again.entities == {"ticket_id": ["1"]}


def test_concurrent_use_keeps_the_bound() -> None:
    cache = IntentCache(maxsize=50)

    def work(worker: int) -> None:
        for i in range(300):
            key = cache.key(f"{worker}-{i % 80}", (), True)
            if cache.get(key) is None:
                cache.put(key, _result("x"))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 50
    assert cache.hits + cache.misses == 1200


def test_size_must_be_positive() -> None:
    with pytest.raises(ValueError):
        IntentCache(maxsize=0)
