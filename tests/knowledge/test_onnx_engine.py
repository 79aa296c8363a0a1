"""ONNX Runtime as the embedding engine: PyTorch's vectors, one export shared safely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from core.text.embedder import DenseEmbedder, open_embedder
from tests.extras import needs_torch

TEXTS = [
    "hi",
    "VPN 连不上，报错 691，工单 #10086",
    "process ticket 2025060300011279027",
    "the laptop will not boot after the update, the screen stays black " * 30,  # truncated
]

_EXPORT = """
import sys
from pathlib import Path
import numpy as np
from core.text.embedder import _fork_layer, _model_dir
from core.text.onnx_encoder import OnnxEncoder, read_tokenizer
from core.text.onnx_export import ensure_exported

model_dir = _model_dir()
files = ensure_exported(model_dir, Path(sys.argv[1]), _fork_layer(model_dir))
encoder = OnnxEncoder(files.lower, files.upper, read_tokenizer(model_dir))
print(" ".join(f"{x:.6f}" for x in encoder.embed(["printer jams on every page"])[0][:8]))
"""


@needs_torch
def test_onnx_vectors_are_pytorch_s(embedder: DenseEmbedder) -> None:
    assert embedder.engine == "onnx"
    reference = open_embedder("torch").embed(TEXTS)
    got = embedder.embed(TEXTS)
    assert np.min(np.sum(reference * got, axis=1)) >= 0.9999
    embedder.clear_cache()
    single = np.stack([embedder.embed_query(text) for text in TEXTS])
    assert np.min(np.sum(reference * single, axis=1)) >= 0.9999


@needs_torch
def test_two_processes_exporting_at_once_share_one_good_export(tmp_path: Path) -> None:
    cache = tmp_path / "encoder"
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", _EXPORT, str(cache)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (_, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
    assert outputs[0][0] == outputs[1][0] and outputs[0][0].strip()
    graphs = sorted(p.name for p in cache.glob("*.onnx"))
    assert len(graphs) == 2  # lower and upper, written once
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # no temp file left


def test_batches_of_similar_length_keep_each_texts_own_vector(embedder: DenseEmbedder) -> None:
    # More texts than one batch, lengths mixed so that sorting by tokens reorders them (and
    # Chinese is longer in tokens than in characters): each row is still its own text's.
    texts = [
        f"{word} " * (1 + (7 * i) % 23) + ("打印机卡纸" * (i % 4))
        for i, word in enumerate(
            ["printer", "VPN", "ticket", "disk", "laptop", "deploy", "password", "报错"] * 5
        )
    ]
    batched = embedder.embed(texts)
    embedder.clear_cache()
    one_by_one = np.stack([embedder.embed([text])[0] for text in texts])
    assert float(np.min(np.sum(batched * one_by_one, axis=1))) >= 0.99999
    through_states = embedder.upper(embedder.lower_states(texts))
    assert float(np.min(np.sum(batched * through_states, axis=1))) >= 0.99999
