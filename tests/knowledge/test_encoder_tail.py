"""MiniLM split at the fork layer: the shipped view is unchanged; a tuned top is cheap, learns."""

from __future__ import annotations

import pickle

import numpy as np

from core.text.embedder import DenseEmbedder
from tests.extras import needs_torch

TEXTS = [
    "process ticket 2025060300011279027",
    "VPN 连不上，报错 691，工单 #10086",
    "hi",
    "the laptop will not boot after the update, the screen stays black " * 30,  # > 256 tokens
]

#: Two kinds of request whose wording overlaps ("my ... is not working").
PRINTER = [
    "the printer is not working",
    "printer jams on every page",
    "my printer shows an error",
    "cannot print anything today",
    "the printer on floor two is broken",
    "print jobs stay in the queue",
    "toner is empty again",
    "打印机卡纸了",
]
PAYROLL = [
    "my salary is not working out, it is wrong",
    "payslip shows an error",
    "salary was not paid this month",
    "cannot see my payslip today",
    "the bonus on my payslip is broken",
    "tax on my pay looks wrong",
    "where is my payslip",
    "工资还没发",
]


def test_forked_query_vector_is_the_models_own(embedder: DenseEmbedder) -> None:
    expected = embedder.embed(TEXTS)
    embedder.clear_cache()
    forked = np.stack([embedder.embed_query(text) for text in TEXTS])
    assert np.abs(forked - expected).max() < 1e-5


@needs_torch
def test_a_tuned_view_after_the_query_reuses_the_shared_layers(embedder: DenseEmbedder) -> None:
    labels = np.array([0] * len(PRINTER) + [1] * len(PAYROLL))
    texts = PRINTER + PAYROLL
    tail = embedder.train_tail(embedder.lower_states(texts), labels, np.ones(len(texts)))
    embedder.clear_cache()
    query = "the printer in room 4 shows an error"
    embedder.embed_query(query)
    calls = embedder.model_calls
    tuned = embedder.embed_query_tuned(query, tail)
    assert embedder.model_calls == calls  # only the tuned layers ran
    assert np.allclose(tuned, embedder.embed_tuned([query], tail)[0], atol=1e-5)
    assert not np.allclose(tuned, embedder.embed_query(query), atol=1e-3)


@needs_torch
def test_tuning_is_deterministic_and_pulls_each_class_closer(embedder: DenseEmbedder) -> None:
    texts = PRINTER + PAYROLL
    labels = np.array([0] * len(PRINTER) + [1] * len(PAYROLL))
    states = embedder.lower_states(texts)
    tail = embedder.train_tail(states, labels, np.ones(len(texts)))
    again = embedder.train_tail(states, labels, np.ones(len(texts)))
    assert tail.key == again.key

    def separation(vectors: np.ndarray) -> float:
        cosines = vectors @ vectors.T
        same = labels[:, None] == labels[None, :]
        off_diagonal = ~np.eye(len(texts), dtype=bool)
        return float(cosines[same & off_diagonal].mean() - cosines[~same].mean())

    assert separation(embedder.upper(states, tail)) > separation(embedder.upper(states))
    # A pickled tail (the semantic model's cache) gives the same vectors.
    restored = pickle.loads(pickle.dumps(tail))
    assert restored.key == tail.key
    assert np.allclose(embedder.embed_tuned(texts, restored), embedder.upper(states, tail))
