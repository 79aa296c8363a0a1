"""`Brain.warm()` opens everything a decision needs before the first message."""

from __future__ import annotations

from pathlib import Path

from brain.engine import Brain


def test_warm_opens_the_knowledge_base_and_the_model_before_any_decision(home: Path) -> None:
    with Brain.open() as brain:
        assert brain.parts.knowledge_if_open() is None  # opening alone loads nothing heavy
        assert brain.parts.embedder_if_loaded() is None

        brain.warm()

        assert brain.parts.knowledge_if_open() is not None
        embedder = brain.parts.embedder_if_loaded()
        assert embedder is not None and embedder.loaded  # the model itself, not its wrapper
        assert brain.parts.semantic_if_fitted() is not None
        assert all(brain.parts.opened().values()), brain.parts.opened()
