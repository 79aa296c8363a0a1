"""The backend is chosen in configuration alone: the brain runs the same on the in-memory one."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.engine import Brain
from core.records import Message


def test_the_brain_decides_and_learns_on_the_memory_backend(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_STORE_BACKEND", "memory")
    with Brain.open() as brain:
        decision = brain.ask(Message("VPN error 691 since this morning", user="u1", channel="C"))
        brain.feedback(decision.decision_id, "correct", controller="access", user="u1")
    with Brain.open() as again:  # same process, same home: the same memory
        stored = again.get_decision(decision.decision_id)
        assert [f.controller for f in stored.feedback] == ["access"]
        assert any(entry.decision_id == decision.decision_id for entry in again.memory.entries())
    assert not (home / "decisions").exists()
    assert not (home / "memory").exists()
