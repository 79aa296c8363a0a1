"""A process that has fitted the routing model once sends only new texts through MiniLM at its
next fit (`core.text.embedding_caches.TrainingVectors`): the shipped examples and negatives are
the same in every refit; and a process's first fit reads their vectors from the installation's
copy (`brain.learning.shipped_vectors`). The refit is the one a fresh fit gives, score for
score."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from brain.engine import Brain
from brain.learning import shipped_vectors
from core.config import load_settings
from core.files import copy_tree
from core.records import Decision, Message
from core.text.embedder import get_dense_embedder
from core.text.embedding_caches import TrainingVectors

PAYROLL = """
name: payroll
label: Payroll desk
description: Salary, payslips and payroll tax forms of employees.
keywords: [payroll, payslip, salary, 工资条]
examples: ["Where is my payslip for May?", "my salary was paid twice", "我的工资条在哪里看"]
handler: none
"""
TEXT = "my payslip for May shows the wrong salary"


def _decided(home: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Decision, int]:
    """The decision of TEXT in `home` (a new controller set: a fit) and the texts the fit
    sent through the model."""
    monkeypatch.setenv("BRAIN_HOME", str(home))
    embedder = get_dense_embedder(load_settings())
    assert embedder is not None
    before = embedder.texts_embedded
    brain = Brain.open()
    try:
        decision = brain.decide(Message(TEXT))
    finally:
        brain.close()
    return decision, embedder.texts_embedded - before


def test_a_second_fit_embeds_nothing_again_and_scores_as_the_first(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a process, and in every later process of the installation: the shipped texts'
    vectors are kept in its install cache (here an empty one), and a damaged copy is
    embedded again and replaced."""
    install_cache = tmp_path / "install-cache"
    install_cache.mkdir()
    monkeypatch.setattr(shipped_vectors, "kept_folder", lambda: install_cache)
    (home / "controllers").mkdir(exist_ok=True)
    (home / "controllers" / "payroll.yaml").write_text(PAYROLL, encoding="utf-8")
    twins = [tmp_path / f"twin-home-{n}" for n in range(3)]
    for twin in twins:
        copy_tree(home, twin)  # the same controllers, no fitted model yet
    embedder = get_dense_embedder(load_settings())
    assert embedder is not None
    embedder.clear_cache()  # nothing kept from an earlier test of this process

    first, embedded_first = _decided(home, monkeypatch)
    [kept] = install_cache.glob("training-vectors-*.npy")
    second, embedded_second = _decided(twins[0], monkeypatch)
    embedder.clear_cache()  # as a new process starts: nothing in memory, the kept file read
    third, embedded_third = _decided(twins[1], monkeypatch)
    kept.write_bytes(b"not a vector file")
    embedder.clear_cache()
    fourth, embedded_fourth = _decided(twins[2], monkeypatch)

    assert embedded_first > 1000  # the shipped examples and negatives, fitted
    assert embedded_second < 10  # the message itself, not the fit's texts
    assert embedded_third <= 10  # the new controller's nine texts and the message: no shipped one
    assert embedded_fourth > 1000  # a damaged copy is not read: embedded again, and replaced
    assert np.load(kept).shape == (len(np.load(kept)), embedder.dim)
    assert first.candidates[0] == second.candidates[0] == "payroll"
    assert first.signals == second.signals == third.signals == fourth.signals
    assert first.confidence == second.confidence == third.confidence == fourth.confidence


def test_kept_vectors_are_the_fresh_ones_and_the_newest_are_kept() -> None:
    embedder = get_dense_embedder(load_settings())
    assert embedder is not None
    embedder.clear_cache()
    texts = [f"ticket {n}: " + "the printer jams again " * (n % 5) for n in range(12)]
    fresh = embedder.embed(texts)
    before = embedder.texts_embedded
    first = embedder.embed(texts[:8], training=True)
    again = embedder.embed(texts, training=True)  # other batches, other padding
    assert embedder.texts_embedded - before == 8 + 4
    assert first.tobytes() == fresh[:8].tobytes()
    assert again.tobytes() == fresh.tobytes()
    embedder.clear_cache()
    before = embedder.texts_embedded
    embedder.embed(texts[:3], training=True)
    assert embedder.texts_embedded - before == 3  # forgotten with the query caches

    kept = TrainingVectors(size=3)
    runs: list[list[str]] = []

    def embed(new: list[str]) -> np.ndarray:
        runs.append(new)
        return np.asarray([[float(len(t)), 1.0] for t in new], dtype=np.float32)

    words = ["a", "bb", "ccc", "dddd", "bb"]
    assert kept.vectors(words, embed, 2)[:, 0].tolist() == [1.0, 2.0, 3.0, 4.0, 2.0]
    assert kept.vectors(["dddd", "ccc", "bb"], embed, 2)[:, 0].tolist() == [4.0, 3.0, 2.0]
    assert kept.vectors(["a"], embed, 2)[:, 0].tolist() == [1.0]  # beyond the size: again
    assert runs == [["a", "bb", "ccc", "dddd"], ["a"]]
    assert kept.vectors([], embed, 2).shape == (0, 2)
