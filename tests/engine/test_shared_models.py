"""Fitted models shared by replicas on PostgreSQL: fitted once (one replica fits while the
others wait on the key's advisory lock), stored under their content key, loaded by the rest."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from brain.semantic.scorer import SemanticScorer
from core.config import Settings
from core.stores import open_stores
from tests.toy_controllers import printer_and_payroll

NEGATIVES = ["book a table for four tonight", "what is the weather in paris", "order a pizza"]


def test_three_replicas_fit_the_model_once_and_share_it(
    postgres_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fits = 0
    guard = threading.Lock()
    real_fit = SemanticScorer._fit.__func__  # type: ignore[attr-defined]

    def counted(cls: type[SemanticScorer], *args: Any, **kwargs: Any) -> SemanticScorer:
        nonlocal fits
        with guard:
            fits += 1
        scorer: SemanticScorer = real_fit(cls, *args, **kwargs)
        return scorer

    monkeypatch.setattr(SemanticScorer, "_fit", classmethod(counted))
    replicas = [open_stores(postgres_settings) for _ in range(3)]

    def start(index: int) -> SemanticScorer:
        stores = replicas[index]
        return SemanticScorer.fit(
            printer_and_payroll(),
            None,
            cache_dir=tmp_path / f"home{index}" / "models",
            negatives=NEGATIVES,
            shared=stores.artifacts,
            lock=stores.coordinator.serialized,
        )

    try:
        with ThreadPoolExecutor(max_workers=3) as pool:
            scorers = list(pool.map(start, range(3)))
        assert fits == 1
        assert all(s.names == ["printer", "payroll"] for s in scorers)
        for index in range(3):  # every replica has it in its own home now
            assert list((tmp_path / f"home{index}" / "models").glob("semantic-*.npz"))
        # New training data is a new key: fitted once more, again shared.
        more = {"printer": ["the plotter is out of paper"]}
        for stores in replicas[:2]:
            SemanticScorer.fit(
                printer_and_payroll(),
                None,
                cache_dir=tmp_path / "late" / str(id(stores)),
                negatives=NEGATIVES,
                extra_examples=more,
                shared=stores.artifacts,
                lock=stores.coordinator.serialized,
            )
        assert fits == 2
    finally:
        for stores in replicas:
            stores.close()
