"""Store fixtures: the same contract runs on every backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from core.config import Settings, StorageConfig
from core.records import Decision, IntentResult
from core.stores import Stores, open_stores

BACKENDS = ("tinydb", "memory")


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings of a fresh home on one backend."""
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
        values: dict[str, Any] = {
            "decision_id": f"d-{next(_counter):012x}",
            "text": "vpn error 691",
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
            "intent": IntentResult.from_dict({}, urgency="low", entities={}),
            "entities": {},
            "signals": {},
            "rationale": "",
        }
        values.update(fields)
        return Decision(**values)

    return build
