"""Engine test fixtures: one pre-ingested template home per worker, copied into each test's home.

The knowledge base is ingested once per test process (with the process-wide MiniLM embedder);
every test still gets its own BRAIN_HOME (a copy), so tests share no state.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from brain.config import Settings
from brain.engine import Brain, new_decision_id
from brain.types import Decision


@pytest.fixture(scope="session")
def template_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A brain home with the sample KB ingested and the semantic model cached."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    home = tmp_path_factory.mktemp("engine-template")
    brain = Brain(Settings(home=home))
    try:
        from brain.types import Message

        brain.decide(Message("warm up: VPN error 691"))
    finally:
        brain.close()
    for state in ("decisions", "memory.json", "tickets.json"):
        path = home / state
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    return home


@pytest.fixture
def home(isolated_env: Path, template_home: Path) -> Path:
    """This test's BRAIN_HOME, a copy of the template."""
    shutil.copytree(template_home, isolated_env, dirs_exist_ok=True)
    return isolated_env


@pytest.fixture
def brain(home: Path) -> Iterator[Brain]:
    """A Brain on this test's home (no LLM: the environment has no API key)."""
    opened = Brain.open()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def make_decision() -> Callable[..., Decision]:
    """Builds a routed Decision from neutral values; keyword arguments override any field."""

    def build(**fields: Any) -> Decision:
        values: dict[str, Any] = {
            "decision_id": new_decision_id(),
            "text": f"message from {fields.get('user', 'u1')}",
            "user": "u1",
            "channel": "C1",
            "thread": None,
            "controller": "incident",
            "supporting": [],
            "confidence": 0.5,
            "tier": "verify",
            "outcome": "routed",
            "escalate": False,
            "urgency": "low",
            "intent": {},
            "entities": {},
            "signals": {},
            "rationale": "",
        }
        return Decision(**{**values, **fields})

    return build
