"""The built-in controllers' routing model is fitted at build time and loaded, not refitted.

`scripts/fit_default_semantic.py` writes `brain/data/semantic-<key>.npz`; a fresh home whose
controllers, training rows and negatives hash to that key loads it on its first decision.
The first test fails whenever the built-in controllers, the shipped training data, the
negatives or the scorer's format change without the script being run again.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from brain.engine import Brain
from brain.learning.training import load_training
from brain.semantic.files import SHIPPED_DIR, fit_key, shipped_model
from controllers.registry import ControllerRegistry
from core.config import load_settings
from core.progress import PROGRESS_LOGGER


def _fresh_home_key(home: Path) -> str:
    settings = load_settings({"BRAIN_HOME": str(home)})
    training = load_training(settings)
    return fit_key(
        ControllerRegistry.load(settings).all(),
        dense=True,
        cache_dir=settings.home / "models",
        extra_examples=training.examples,
        extra_negatives=training.negatives,
        tune=settings.training.tune_encoder,
        multilingual=settings.training.multilingual_view,
    )


def test_the_shipped_fit_is_the_one_a_fresh_home_asks_for(tmp_path: Path) -> None:
    key = _fresh_home_key(tmp_path / "home")
    assert shipped_model(key).is_file(), "run scripts/fit_default_semantic.py"
    assert sorted(SHIPPED_DIR.glob("semantic-*.npz")) == [shipped_model(key)]  # none stale
    assert shipped_model(key).stat().st_size < 5 * 2**20


def test_a_fresh_home_loads_the_shipped_fit_without_fitting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("BRAIN_HOME", str(home))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    caplog.set_level(logging.INFO, logger=PROGRESS_LOGGER)
    with Brain.open(load_settings()) as brain:
        model = brain.semantic_model
        assert model is not None
        assert model.names == brain.registry.names()
        scores = model.score("my VPN keeps dropping, error 691")
    assert max(scores, key=scores.__getitem__) == "incident"
    assert not [r for r in caplog.records if "fitting the routing model" in r.getMessage()]
    assert not list((home / "models").glob("semantic-*.npz"))  # nothing fitted, nothing cached
