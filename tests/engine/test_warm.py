"""`Brain.warm()` opens everything a decision needs before the first message."""

from __future__ import annotations

from pathlib import Path

from brain.engine import Brain
from core.records import Message


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


def test_prefetch_opens_the_parts_in_the_background_and_close_waits_for_it(home: Path) -> None:
    """`brain ask` prefetches; a brain closed at once must not leave a shard open behind it
    (its lock would refuse the next process)."""
    brain = Brain.open()
    brain.prefetch()
    brain.close()
    with Brain.open() as again:
        again.prefetch()
        assert again.parts.knowledge is not None  # not refused: the first one let go
        assert again.memory.open_index(strict=True)
        decision = again.decide(Message("VPN error 691 since this morning"))
        embedder = again.parts.embedder_if_loaded()
    assert embedder is not None and embedder.loaded
    assert decision.controller == "incident"
