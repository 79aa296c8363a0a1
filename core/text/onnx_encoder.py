"""MiniLM through ONNX Runtime: the inference engine of every embedding.

Texts are tokenised with `tokenizers` straight from the packaged model's tokenizer.json (as
sentence-transformers does: truncated at the model's max_seq_length, padded to the longest text
of a batch), run through the exported lower and upper graphs (`core.text.onnx_export`), mean
pooled over real tokens and L2-normalised in numpy. Importing onnxruntime and tokenizers takes
a tenth of a second, against seconds for PyTorch; the graphs load in about as long.

A fine-tuned top (`EncoderTail`) runs as its own small graph on the lower layers' states. Training
one, or exporting one that was trained without its graph, needs PyTorch: those two are given
by the caller (`tuner`, `tail_exporter`; `core.text.embedder`), so this module never imports
PyTorch nor the exporter.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from core.text.encoder_tail import EncoderTail

__all__ = ["OnnxEncoder", "Tuner", "read_tokenizer"]

#: Fine-tunes the top layers on lower states, labels and weights; the tail has its ONNX graph.
Tuner = Callable[[Sequence[Any], np.ndarray, np.ndarray], "EncoderTail"]

#: Texts per model run when embedding many (KB chunks, training texts). Batches hold texts of
#: similar token length; 16 padded less than 32 and ran 1.16x more chunks per CPU-second on the
#: sample KB (benchmarks/HISTORY.md).
BATCH_SIZE = 16
#: Texts tokenised at once (their ids are then cut into batches of similar length).
TOKENIZE_GROUP = 1024
#: Fine-tuned tops kept as loaded sessions.
TAIL_SESSIONS = 4
#: sentence-transformers' max_seq_length for MiniLM, when the model does not say.
DEFAULT_MAX_LENGTH = 256


def read_tokenizer(model_dir: Path) -> Tokenizer:
    """The model's fast tokenizer, truncating and padding as sentence-transformers does."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    max_length = DEFAULT_MAX_LENGTH
    config = model_dir / "sentence_bert_config.json"
    if config.is_file():
        max_length = int(json.loads(config.read_text()).get("max_seq_length") or max_length)
    tokenizer.enable_truncation(max_length=max_length)
    pad_id = tokenizer.token_to_id("[PAD]") or 0
    tokenizer.enable_padding(pad_id=pad_id, pad_token="[PAD]")  # to the batch's longest text
    return tokenizer


class OnnxEncoder:
    """Sentence vectors, lower-layer states and fine-tuned views through ONNX Runtime.

    Not reentrant (the tokenizer's padding state): `DenseEmbedder` calls it under its lock.
    """

    def __init__(
        self,
        lower: Path | bytes,
        upper: Path | bytes,
        tokenizer: Tokenizer,
        *,
        threads: int = 1,
        workers: int = 1,
        tuner: Tuner | None = None,
        tail_exporter: Callable[[EncoderTail], bytes] | None = None,
    ) -> None:
        import onnxruntime

        self._options = onnxruntime.SessionOptions()
        self._options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._options.intra_op_num_threads = threads
        self._options.inter_op_num_threads = 1
        self._options.log_severity_level = 3  # errors only
        self._workers = max(1, workers)
        self._pool: ThreadPoolExecutor | None = None
        self._lower = self._session(lower)
        self._upper = self._session(upper)
        self._tokenizer = tokenizer
        self._tuner = tuner
        self._tail_exporter = tail_exporter
        self._tails: OrderedDict[str, Any] = OrderedDict()
        self.dim = int(self._upper.get_inputs()[0].shape[-1])

    def _session(self, model: Path | bytes) -> Any:
        import onnxruntime

        source = str(model) if isinstance(model, Path) else model
        return onnxruntime.InferenceSession(
            source, self._options, providers=["CPUExecutionProvider"]
        )

    # -- inference -------------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised sentence vectors, (len(texts), dim) float32."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)

        def run(batch: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
            ids, mask, rows = batch
            out[rows] = _pool(self._run_top(self._upper, self._run_lower(ids, mask), mask), mask)

        self._each(run, self._token_batches(texts))
        return out

    def lower_states(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's token states after the shared layers: one (tokens, dim) array each."""
        states: list[np.ndarray] = [np.zeros((0, self.dim), dtype=np.float32)] * len(texts)

        def run(batch: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
            ids, mask, rows = batch
            hidden = self._run_lower(ids, mask)
            for row, index in enumerate(rows):
                states[index] = hidden[row, : int(mask[row].sum())].copy()

        self._each(run, self._token_batches(texts))
        return states

    def _each(
        self,
        run: Callable[[tuple[np.ndarray, np.ndarray, np.ndarray]], None],
        batches: Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> None:
        """Run every batch: one at a time, or several at once on the workers' threads (ONNX
        Runtime releases the GIL; each run keeps one intra-op thread, so nothing spins while
        it waits, which made intra-op threads slower on a shared CPU). A single text (a
        query) never leaves the calling thread."""
        first = next(batches, None)
        if first is None:
            return
        second = next(batches, None)
        if second is None or self._workers == 1:
            for batch in (first, second, *batches):
                if batch is not None:
                    run(batch)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="onnx-batch")
        for future in [self._pool.submit(run, b) for b in (first, second, *batches)]:
            future.result()

    def upper(self, states: Sequence[Any], tail: EncoderTail | None = None) -> np.ndarray:
        """Sentence vectors from lower states, through the shipped or a fine-tuned top."""
        session = self._upper if tail is None else self._tail_session(tail)
        arrays = [np.asarray(s, dtype=np.float32) for s in states]
        out = np.zeros((len(arrays), self.dim), dtype=np.float32)
        for rows in _batches(np.array([len(a) for a in arrays], dtype=np.int64)):
            hidden, mask = _pad([arrays[i] for i in rows], self.dim)
            out[rows] = _pool(self._run_top(session, hidden, mask), mask)
        return out

    # -- fine-tuning (PyTorch, given by the caller) ---------------------------------------
    def train_tail(
        self, states: Sequence[Any], labels: np.ndarray, weights: np.ndarray
    ) -> EncoderTail:
        """Fine-tune a copy of the top layers (the caller's `tuner`), exported as a graph so
        queries through it run here."""
        if self._tuner is None:
            raise RuntimeError("this encoder was opened without a tuner")
        return self._tuner(states, labels, weights)

    def _tail_session(self, tail: EncoderTail) -> Any:
        session = self._tails.get(tail.key)
        if session is None:
            if not tail.onnx:  # trained by the PyTorch engine: export it once
                if self._tail_exporter is None:
                    raise RuntimeError("this encoder was opened without a tail exporter")
                tail.onnx = self._tail_exporter(tail)
            session = self._session(tail.onnx)
            self._tails[tail.key] = session
            while len(self._tails) > TAIL_SESSIONS:
                self._tails.popitem(last=False)
        self._tails.move_to_end(tail.key)
        return session

    # -- plumbing --------------------------------------------------------------------------
    def _token_batches(
        self, texts: Sequence[str]
    ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(input ids, attention mask, rows of `texts`) per model run: texts of similar token
        length together, each batch cut to its longest text, so little is padding (batches by
        character length padded twice the real tokens of the sample KB: Chinese is one token
        a character, English about one a word)."""
        for start in range(0, len(texts), TOKENIZE_GROUP):
            group = list(texts[start : start + TOKENIZE_GROUP])
            encoded = self._tokenizer.encode_batch(group)  # padded to the group's longest
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            for rows in _batches(mask.sum(axis=1)):
                longest = int(mask[rows].sum(axis=1).max())
                yield ids[rows, :longest], mask[rows, :longest], rows + start

    def _run_lower(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return np.asarray(self._lower.run(None, feed)[0])

    @staticmethod
    def _run_top(session: Any, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(session.run(None, {"hidden": hidden, "attention_mask": mask})[0])


def _batches(lengths: np.ndarray) -> list[np.ndarray]:
    """Row indices in batches of at most BATCH_SIZE, of similar token length."""
    order = np.argsort(lengths, kind="stable")
    return [order[i : i + BATCH_SIZE] for i in range(0, len(order), BATCH_SIZE)]


def _pad(states: Sequence[np.ndarray], dim: int) -> tuple[np.ndarray, np.ndarray]:
    longest = max(len(s) for s in states)
    hidden = np.zeros((len(states), longest, dim), dtype=np.float32)
    mask = np.zeros((len(states), longest), dtype=np.int64)
    for row, state in enumerate(states):
        hidden[row, : len(state)] = state
        mask[row, : len(state)] = 1
    return hidden, mask


def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over real tokens, L2-normalised: the model's own pooling and normalisation."""
    weights = mask[:, :, None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
    norms = np.maximum(np.linalg.norm(summed, axis=1, keepdims=True), 1e-12)
    return (summed / norms).astype(np.float32)
