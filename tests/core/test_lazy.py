"""`core.lazy.Lazy`: a part is built once, by one thread, and again only when its key moves.
`core.lazy.LazyPattern`: a regex compiled on first use that matches as `re.compile` would."""

from __future__ import annotations

import re
import threading

import pytest

from core.lazy import Lazy, LazyPattern


def test_many_threads_get_one_build() -> None:
    builds: list[int] = []
    started = threading.Event()
    release = threading.Event()

    def build() -> object:
        builds.append(1)
        started.set()
        release.wait()  # every other thread arrives while the first is still building
        return object()

    part: Lazy[object] = Lazy(build)
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(part.get())) for _ in range(8)]
    threads[0].start()
    started.wait()
    for thread in threads[1:]:
        thread.start()
    release.set()
    for thread in threads:
        thread.join()

    assert len(builds) == 1
    assert len(results) == 8 and all(r is results[0] for r in results)


def test_peek_never_builds_and_a_key_change_rebuilds() -> None:
    version = ["v1"]
    part = Lazy(lambda: f"model for {version[0]}", key=lambda: version[0])
    assert part.peek() is None and not part.built

    assert part.get() == "model for v1"
    assert part.get() is part.get()
    version[0] = "v2"
    assert part.get() == "model for v2"
    assert part.peek() == "model for v2"


def test_a_failed_build_is_tried_again() -> None:
    attempts: list[int] = []

    def build() -> str:
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError("store is locked")
        return "opened"

    part = Lazy(build)
    with pytest.raises(OSError):
        part.get()
    assert not part.built
    assert part.get() == "opened" and len(attempts) == 2


def test_a_lazy_pattern_compiles_on_first_use_and_matches_like_re() -> None:
    source, flags = r"(?P<id>INC-\d+)|故障", re.I
    lazy, eager = LazyPattern(source, flags), re.compile(source, flags)
    assert not lazy._compiled.built  # nothing compiled at import
    text = "inc-12 and INC-7: 故障"
    found = lazy.search(text)
    assert found is not None and found.group() == "inc-12"
    assert lazy.compiled is lazy.compiled  # once
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.sub("#", text) == eager.sub("#", text)
    assert lazy.match(text, 11) is not None and lazy.match(text) is not None
    assert (lazy.pattern, lazy.flags) == (source, flags)
