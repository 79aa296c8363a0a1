"""MiniLM split in two: shared lower layers and a top that can be fine-tuned per controller set.

all-MiniLM-L6-v2 has six transformer layers. The bottom FORK_LAYER of them are used as shipped
by everything; the top TUNED_LAYERS can be copied and fine-tuned (`train_tail`) into an
`EncoderTail`, the semantic scorer's own view of a text. A query runs through the lower layers
once (`lower_states`), then through the shipped top (the knowledge-base vector, identical to
`SentenceTransformer.encode`) and through the tuned copy (`upper(..., tail)`): the tuned view
costs TUNED_LAYERS / 6 of an embedding, not a second one.

Training is a cosine classifier over the controllers' texts (and a "none" class of negatives),
its class weights starting at the class centroids, with cross-entropy at a fixed scale. The
lower layers' outputs are computed once, so an epoch costs only the top layers' passes.

torch is imported lazily: importing this module is cheap.
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Layers of all-MiniLM-L6-v2 that are fine-tuned (the top ones); the rest are shared.
TUNED_LAYERS = 2
#: Passes over the training texts.
EPOCHS = 3
#: AdamW learning rate (linear warm-up over WARMUP of the steps, then linear decay).
LEARNING_RATE = 1e-4
WARMUP = 0.1
#: Texts per optimisation step.
BATCH_SIZE = 32
#: Fewest optimisation steps, however few the texts.
MIN_STEPS = 20
#: Cosine-classifier logit scale (a temperature of 1/20).
SCALE = 20.0
#: Texts per batch when only running the model (no gradients).
INFERENCE_BATCH = 64


@dataclass
class EncoderTail:
    """Fine-tuned weights of the top TUNED_LAYERS layers (picklable: numpy arrays and bytes)."""

    weights: dict[str, np.ndarray]
    key: str = ""
    #: The tuned layers as an ONNX graph (`core.text.onnx_export.export_top`), for ONNX Runtime.
    onnx: bytes = field(default=b"", repr=False, compare=False)
    _module: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.key:
            digest = hashlib.sha256()
            for name in sorted(self.weights):
                digest.update(name.encode())
                digest.update(np.ascontiguousarray(self.weights[name]).tobytes())
            self.key = digest.hexdigest()[:16]

    def __getstate__(self) -> dict[str, Any]:
        return {"weights": self.weights, "key": self.key, "onnx": self.onnx, "_module": None}

    def module(self, model: Any) -> Any:
        """The tuned layers as torch modules, built from the shipped ones once."""
        if self._module is None:
            import torch

            layers = copy.deepcopy(_layers(model)[-TUNED_LAYERS:])
            layers.load_state_dict({k: torch.from_numpy(v) for k, v in self.weights.items()})
            layers.eval()
            self._module = layers
        return self._module


def fork_layer(model: Any) -> int:
    """How many layers are shared (run once per text)."""
    return len(_layers(model)) - TUNED_LAYERS


def lower_states(model: Any, texts: Sequence[str]) -> list[Any]:
    """Each text's token states after the shared layers: one (tokens, dim) tensor per text."""
    import torch

    bert = _bert(model)
    shared = _layers(model)[: fork_layer(model)]
    states: list[Any] = [None] * len(texts)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # less padding per batch
    with torch.no_grad():
        for start in range(0, len(order), INFERENCE_BATCH):
            batch = order[start : start + INFERENCE_BATCH]
            features = _tokenize(model, [texts[i] for i in batch])
            mask = features["attention_mask"]
            hidden = bert.embeddings(
                input_ids=features["input_ids"], token_type_ids=features.get("token_type_ids")
            )
            hidden = run_layers(shared, hidden, mask)
            for row, index in enumerate(batch):
                states[index] = hidden[row, : int(mask[row].sum())].clone()
    return states


def upper(model: Any, states: Sequence[Any], tail: EncoderTail | None = None) -> np.ndarray:
    """L2-normalised sentence vectors from lower states, through the shipped or tuned top."""
    import torch

    layers = _layers(model)[fork_layer(model) :] if tail is None else tail.module(model)
    dim = int(_bert(model).config.hidden_size)
    out = np.zeros((len(states), dim), dtype=np.float32)
    with torch.no_grad():
        for start in range(0, len(states), INFERENCE_BATCH):
            hidden, mask = _pad(states[start : start + INFERENCE_BATCH])
            out[start : start + len(hidden)] = _pool(run_layers(layers, hidden, mask), mask).numpy()
    return out


def train_tail(
    model: Any,
    states: Sequence[Any],
    labels: np.ndarray,
    weights: np.ndarray,
    *,
    seed: int = 0,
    threads: int | None = None,
) -> EncoderTail:
    """Fine-tune a copy of the top layers to tell the labels (0..k-1) apart; deterministic.
    Runs on `threads` PyTorch threads (`[training] torch_threads`), else every core."""
    import torch

    labels = np.asarray(labels)
    classes = int(labels.max()) + 1
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    layers = copy.deepcopy(_layers(model)[fork_layer(model) :])
    base = torch.from_numpy(upper(model, states))
    sample = torch.from_numpy(np.asarray(weights, dtype=np.float32))
    target = torch.from_numpy(labels.astype(np.int64))
    centroids = torch.zeros(classes, base.shape[1])
    centroids.index_add_(0, target, base * sample[:, None])
    head = torch.nn.Parameter(torch.nn.functional.normalize(centroids, dim=-1))
    parameters = [*layers.parameters(), head]
    optimiser = torch.optim.AdamW(parameters, lr=LEARNING_RATE)
    steps = max(MIN_STEPS, int(EPOCHS * len(states) / BATCH_SIZE))
    warmup = max(1, int(WARMUP * steps))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / steps)
    )
    layers.train()
    lengths = np.array([len(s) for s in states])
    batches: list[np.ndarray] = []
    with _training_threads(threads):
        for _ in range(steps):
            if not batches:
                batches = _length_batches(lengths, rng)
            batch = batches.pop()
            hidden, mask = _pad([states[i] for i in batch])
            vectors = _pool(run_layers(layers, hidden, mask), mask)
            logits = SCALE * vectors @ torch.nn.functional.normalize(head, dim=-1).T
            loss = torch.nn.functional.cross_entropy(logits, target[batch], reduction="none")
            loss = (loss * sample[batch]).sum() / sample[batch].sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
    layers.eval()
    state = {k: v.detach().numpy().copy() for k, v in layers.state_dict().items()}
    return EncoderTail(weights=state)


def _length_batches(lengths: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch of batches of texts of similar length (little padding), in random order."""
    jittered = lengths + rng.uniform(0.0, 3.0, len(lengths))
    order = np.argsort(jittered, kind="stable")
    batches = [order[i : i + BATCH_SIZE] for i in range(0, len(order), BATCH_SIZE)]
    return [batches[i] for i in rng.permutation(len(batches))]


# -- model internals -------------------------------------------------------------------------


def _bert(model: Any) -> Any:
    """The Hugging Face encoder inside a SentenceTransformer (its first module)."""
    return model[0].auto_model


def _layers(model: Any) -> Any:
    return _bert(model).encoder.layer


def _tokenize(model: Any, texts: list[str]) -> dict[str, Any]:
    tokenize = getattr(model, "preprocess", None) or model.tokenize
    return dict(tokenize(texts))


def run_layers(layers: Any, hidden: Any, mask: Any) -> Any:
    """Token states through transformer layers, padding masked out (additive mask)."""
    import torch

    additive = (1.0 - mask[:, None, None, :].to(hidden.dtype)) * torch.finfo(hidden.dtype).min
    for layer in layers:
        out = layer(hidden, additive)
        hidden = out[0] if isinstance(out, tuple) else out  # transformers 4 returns a tuple
    return hidden


def _pool(hidden: Any, mask: Any) -> Any:
    """Mean over real tokens, L2-normalised: the model's own pooling and normalisation."""
    import torch

    weights = mask[:, :, None].to(hidden.dtype)
    summed = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)
    return torch.nn.functional.normalize(summed, dim=-1)


def _pad(states: Sequence[Any]) -> tuple[Any, Any]:
    import torch

    hidden = torch.nn.utils.rnn.pad_sequence(list(states), batch_first=True)
    lengths = torch.tensor([len(s) for s in states])
    mask = (torch.arange(hidden.shape[1])[None, :] < lengths[:, None]).long()
    return hidden, mask


@contextmanager
def _training_threads(threads: int | None) -> Iterator[None]:
    """Training is batch work: every core, or `threads` when set (two processes training at
    once on two cores with two threads each run several times slower than with one each).
    Queries keep the embedder's own setting."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(max(1, threads or os.cpu_count() or 1))
    try:
        yield
    finally:
        torch.set_num_threads(before)
