"""A run that fits the routing model more than once (`brain eval --train`: every calibration
fold, then all rows; `brain controllers import`: without the held-out rows, then with them)
sends each distinct text through MiniLM once, and the vectors it reuses are the very ones a
fresh embedding gives."""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli import main
from core.config import load_settings
from core.text.embedder import get_dense_embedder
from core.text.onnx_encoder import OnnxEncoder


@pytest.fixture
def model_texts(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every text the ONNX model is run on (whole embeddings and shared-layer states)."""
    seen: Counter[str] = Counter()
    embed, lower_states = OnnxEncoder.embed, OnnxEncoder.lower_states

    def counted_embed(self: OnnxEncoder, texts: Sequence[str]) -> np.ndarray:
        seen.update(texts)
        return embed(self, texts)

    def counted_states(self: OnnxEncoder, texts: Sequence[str]) -> list[Any]:
        seen.update(texts)
        return lower_states(self, texts)

    monkeypatch.setattr(OnnxEncoder, "embed", counted_embed)
    monkeypatch.setattr(OnnxEncoder, "lower_states", counted_states)
    return seen


def _texts(path: Path) -> set[str]:
    return {json.loads(line)["text"] for line in path.read_text().splitlines()}


@pytest.mark.slow
def test_eval_with_train_embeds_each_text_once_over_all_its_fits(
    eval_files: dict[str, Path],
    model_texts: Counter[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    get_dense_embedder(load_settings()).clear_cache()  # no query vector from an earlier test
    argv = ["eval", "--train", str(eval_files["train"]), "--test", str(eval_files["test"])]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "5 held-out fold(s)" in report["setup"]["calibration"]  # six fits in all
    train = _texts(eval_files["train"])
    assert train <= set(model_texts)
    assert max(model_texts.values()) == 1, model_texts.most_common(3)
    assert report["setup"]["texts_embedded"] == sum(model_texts.values())
    # The six fits' rows and the test rows, plus the controllers' names and mined keywords.
    assert len(model_texts) < len(train | _texts(eval_files["test"])) + 3 * 32


@pytest.mark.slow
def test_import_embeds_each_text_once_for_the_held_out_and_the_final_fit(
    tmp_path: Path, model_texts: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    get_dense_embedder(load_settings()).clear_cache()
    source = tmp_path / "desk.csv"
    desks = {
        "Printer": ["the printer on floor {} jams", "toner empty on printer {}"],
        "Payroll": ["payslip {} is wrong", "salary for month {} not paid"],
    }
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["body", "queue"])
        for number in range(30):
            for queue, patterns in desks.items():
                writer.writerow([patterns[number % 2].format(number), queue])
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["held_out"] > 0
    assert max(model_texts.values()) == 1, model_texts.most_common(3)


def test_remembered_vectors_are_the_ones_a_fresh_embedding_gives() -> None:
    embedder = get_dense_embedder(load_settings())
    assert embedder is not None
    embedder.clear_cache()
    texts = [f"request {n}: " + "the vpn drops every hour " * (n % 7) for n in range(40)]
    fresh = embedder.embed(texts)
    with embedder.remembering():
        embedder.embed(texts[5:23])  # other batches, other padding
        embedder.prime(texts[30:])
        before = embedder.texts_embedded
        again = embedder.embed(texts)
        assert embedder.texts_embedded - before == len(texts) - 18 - 10
    assert again.tobytes() == fresh.tobytes()
    before = embedder.texts_embedded
    assert embedder.embed(texts[:3]).tobytes() == fresh[:3].tobytes()
    assert embedder.texts_embedded - before == 3  # nothing is kept after the run
