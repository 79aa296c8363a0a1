"""Store fixtures: the same contract runs on every backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from core.config import Settings, StorageConfig
from core.records import Decision
from core.stores import Stores, open_stores
from tests.records import make_decision as neutral_decision

BACKENDS = ("tinydb", "memory", "postgres")


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings of a fresh home on one backend (PostgreSQL: a fresh schema on the run's
    server, skipped where PostgreSQL is not installed)."""
    if request.param == "postgres":
        found: Settings = request.getfixturevalue("postgres_settings")
        return found
    return Settings(home=tmp_path / "home", storage=StorageConfig(backend=request.param))


@pytest.fixture
def stores(settings: Settings) -> Iterator[Stores]:
    opened = open_stores(settings)
    try:
        yield opened
    finally:
        opened.close()


_counter = iter(range(1, 1_000_000))


@pytest.fixture
def make_decision() -> Callable[..., Decision]:
    """A Decision from neutral values; keyword arguments override any field."""

    def build(**fields: Any) -> Decision:
        return neutral_decision(**{"decision_id": f"d-{next(_counter):012x}", **fields})

    return build
