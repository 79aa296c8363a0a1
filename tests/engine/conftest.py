"""Engine test fixtures: each test's home is a copy of the run's fitted home (tests/conftest.py).

The knowledge base is ingested and the semantic model fitted once per run; every test still
gets its own BRAIN_HOME (a copy), so tests share no state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from brain.engine import Brain
from core.files import copy_tree
from core.records import Decision
from tests.records import make_decision as neutral_decision


@pytest.fixture
def home(isolated_env: Path, fitted_home: Path) -> Path:
    """This test's BRAIN_HOME, a copy of the run's fitted home."""
    copy_tree(fitted_home, isolated_env, dirs_exist_ok=True)
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
        return neutral_decision(**{"text": f"message from {fields.get('user', 'u1')}", **fields})

    return build
