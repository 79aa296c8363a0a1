"""The incident category model is fitted once per installation and kept in the install cache:
what a later process reads is the model a fit gives, a damaged copy is fitted again and
replaced, and other examples are a model of their own, never the kept one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from controllers.incident_categories import DATA, CategoryModel, fit, kept_or_fitted


def _same(kept: CategoryModel | None, fitted: CategoryModel | None) -> None:
    assert kept is not None and fitted is not None
    assert kept.names == fitted.names
    assert np.array_equal(kept.model.weights, fitted.model.weights)
    assert np.array_equal(kept.model.biases, fitted.model.biases)
    assert (kept.bar, kept.coverage, kept.precision) == (
        fitted.bar,
        fitted.coverage,
        fitted.precision,
    )


@pytest.fixture
def install_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "install"
    cache.mkdir()
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(cache))
    return cache


def test_the_kept_model_is_the_fitted_one_and_a_damaged_copy_is_fitted_again(
    install_cache: Path,
) -> None:
    fitted = fit()
    _same(kept_or_fitted(), fitted)
    [kept] = install_cache.glob("incident-categories-*.npz")
    written = kept.stat().st_mtime_ns
    _same(kept_or_fitted(), fitted)
    assert kept.stat().st_mtime_ns == written  # read, not fitted again

    kept.write_bytes(b"not a model")
    _same(kept_or_fitted(), fitted)
    assert kept.read_bytes() != b"not a model"


def test_other_examples_are_fitted_not_read_from_the_kept_model(
    install_cache: Path, tmp_path: Path
) -> None:
    kept_or_fitted()
    examples = json.loads(DATA.read_text(encoding="utf-8"))
    dropped = sorted(examples)[0]
    examples[dropped] = examples[dropped][1:]
    other = tmp_path / "examples.json"
    other.write_text(json.dumps(examples, ensure_ascii=False), encoding="utf-8")

    _same(kept_or_fitted(other), fit(other))
    assert len(list(install_cache.glob("incident-categories-*.npz"))) == 1  # the stale one went


def test_without_an_install_cache_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "no-install"
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(missing))
    _same(kept_or_fitted(), fit())
    assert not missing.exists()
