"""The routing model's file: a fitted `brain.semantic.scorer.SemanticScorer` as numpy arrays in one
uncompressed `.npz`, with a JSON header.

Why not a pickle: joblib's unpickler is pure Python, and the two TF-IDF vocabularies (about
51,000 n-grams) made loading the shipped model most of a warm `brain ask`'s model time; here a
vocabulary is one UTF-8 string and its boundaries, split in one pass. Loading is
`np.load(..., allow_pickle=False)`: a file (or a replica's shared artifact) holds data only,
never code to run, and nothing but numpy and scipy is imported to read it. The same model
writes the same bytes (zip entries carry a fixed date, arrays are written in a fixed order).

What is stored is what the query path reads: the expert weights, the naive Bayes' sparse
log-ratios, the lexical expert (when fitted: its coefficients and chosen weights), the TF-IDF
vocabularies and IDF, the out-of-scope model's coefficients, the
nearest-example reference rows, and a tuned encoder top (weights and ONNX graph) when there is
one. `FILE_FORMAT` changes whenever this layout does.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.semantic.experts import Ensemble, FastTfidf, Linear, NaiveBayes
from brain.semantic.files import FORMAT_VERSION
from brain.semantic.lexical import Lexical
from core.loaded_files import LoadedFiles

if TYPE_CHECKING:
    from core.text.encoder_tail import EncoderTail

#: The layout of the arrays below (not the fit: `brain.semantic.scorer.FORMAT_VERSION` is in the
#: key).
FILE_FORMAT = "brain-semantic-npz/1"
HEADER = "header"
_NONE = np.zeros(0, dtype=np.float32)


@dataclass(slots=True)
class ModelParts:
    """What a fitted `brain.semantic.scorer.SemanticScorer` stores: its query path's data."""

    names: list[str]
    ensemble: Ensemble
    none_column: int | None
    reference: Any
    """Nearest-example reference rows: a dense array, or a CSR matrix without the dense model."""
    oos_model: Any | None
    """The out-of-scope model (`coef_`, `intercept_`): sklearn's after a fit, a `Linear` read."""
    gate_reference: np.ndarray
    dense: bool
    declare_threshold: float
    tail: EncoderTail | None
    tfidf: tuple[FastTfidf, FastTfidf]
    """The character and word TF-IDF transforms."""
    out_of_fold: tuple[np.ndarray, np.ndarray] = field(default_factory=lambda: (_NONE, _NONE))
    """The example texts' and the negatives' out-of-fold P(out of scope) (older files: none)."""
    multilingual: bool = False
    """The dense view holds the multilingual encoder's vector beside MiniLM's (older files: no)."""

    def scorer_fields(self) -> dict[str, Any]:
        """The scorer's constructor arguments these parts give (its vectorizers aside)."""
        return {
            "names": self.names,
            "ensemble": self.ensemble,
            "none_column": self.none_column,
            "reference": self.reference,
            "oos_model": self.oos_model,
            "gate_reference": self.gate_reference,
            "dense": self.dense,
            "declare_threshold": self.declare_threshold,
            "tail": self.tail,
            "multilingual": self.multilingual,
        }


def to_bytes(parts: ModelParts) -> bytes:
    """A model's parts as the bytes of its `.npz` file (written by `SemanticScorer.save`)."""
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **_arrays(parts))
    return buffer.getvalue()


#: Model files read in this process (the shipped model, a few homes' fits).
_READ: LoadedFiles[ModelParts] = LoadedFiles()


def read_shared(path: Path) -> ModelParts:
    """`read(path)` once per process while the file is unchanged (`core.loaded_files`): every
    brain of a process loads the same shipped model, and its vocabularies took 20 ms to build.
    The parts are shared by every scorer loaded from the file, which only read them."""
    return _READ.load(path, read)


def read(path: Path) -> ModelParts:
    """The model parts in `path`; ValueError when the file is not one of ours."""
    with np.load(path, allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files}
    if HEADER not in arrays:
        raise ValueError("not a semantic model file")
    header = json.loads(arrays.pop(HEADER).tobytes().decode("utf-8"))
    if header.get("file") != FILE_FORMAT or header.get("format") != FORMAT_VERSION:
        raise ValueError("not a semantic model of this version")
    bayes = NaiveBayes(alpha=header["bayes_alpha"])
    bayes.log_ratio = _csr(arrays, "bayes.log_ratio")
    bayes.mass = arrays["bayes.mass"]
    ensemble = Ensemble(
        header["classes"],
        arrays["ensemble.coef"],
        arrays["ensemble.intercept"],
        arrays["ensemble.labels"],
        bayes,
    )
    if header.get("lexical"):
        ensemble.lexical = Lexical(
            arrays["lexical.coef"], arrays["lexical.intercept"], arrays["lexical.labels"]
        )
        ensemble.lexical_weight = float(header["lexical"]["weight"])
        ensemble.bayes_scale = float(header["lexical"]["bayes"])
    oos = None
    if header["oos"]:
        oos = Linear(arrays["oos.coef"], arrays["oos.intercept"])
    char, word = (_tfidf(arrays, kind) for kind in ("char", "word"))
    return ModelParts(
        names=list(header["names"]),
        ensemble=ensemble,
        none_column=header["none_column"],
        reference=_csr(arrays, "reference") if header["sparse_reference"] else arrays["reference"],
        oos_model=oos,
        gate_reference=arrays["gate_reference"],
        dense=header["dense"],
        declare_threshold=header["declare_threshold"],
        tail=_tail(header["tail"], arrays),
        tfidf=(char, word),
        out_of_fold=(
            arrays.get("out_of_fold.examples", _NONE),
            arrays.get("out_of_fold.negatives", _NONE),
        ),
        multilingual=bool(header.get("multilingual", False)),
    )


def _arrays(scorer: ModelParts) -> dict[str, np.ndarray]:
    """Every array of the file, the header first, in a fixed order."""
    import scipy.sparse as sp

    ensemble = scorer.ensemble
    sparse_reference = sp.issparse(scorer.reference)
    tail = scorer.tail
    header: dict[str, Any] = {
        "file": FILE_FORMAT,
        "format": FORMAT_VERSION,
        "names": list(scorer.names),
        "none_column": scorer.none_column,
        "dense": bool(scorer.dense),
        "declare_threshold": float(scorer.declare_threshold),
        "classes": int(ensemble.classes),
        "bayes_alpha": float(ensemble.bayes.alpha),
        "oos": scorer.oos_model is not None,
        "sparse_reference": sparse_reference,
        "tail": None if tail is None else {"key": tail.key, "weights": list(tail.weights)},
    }
    if scorer.multilingual:  # absent key: MiniLM alone
        header["multilingual"] = True
    if ensemble.lexical is not None:  # absent key: a model without the lexical expert
        header["lexical"] = {"weight": ensemble.lexical_weight, "bayes": ensemble.bayes_scale}
    blob = json.dumps(header, ensure_ascii=False, sort_keys=True).encode("utf-8")
    arrays: dict[str, np.ndarray] = {HEADER: np.frombuffer(blob, dtype=np.uint8)}
    arrays["ensemble.coef"] = np.asarray(ensemble.coef)
    arrays["ensemble.intercept"] = np.asarray(ensemble.intercept)
    arrays["ensemble.labels"] = np.asarray(ensemble.labels)
    assert ensemble.bayes.log_ratio is not None
    arrays.update(_csr_arrays("bayes.log_ratio", ensemble.bayes.log_ratio))
    arrays["bayes.mass"] = np.asarray(ensemble.bayes.mass)
    if ensemble.lexical is not None:
        arrays["lexical.coef"] = np.asarray(ensemble.lexical.coef)
        arrays["lexical.intercept"] = np.asarray(ensemble.lexical.intercept)
        arrays["lexical.labels"] = np.asarray(ensemble.lexical.labels)
    if scorer.oos_model is not None:
        arrays["oos.coef"] = np.asarray(scorer.oos_model.coef_)
        arrays["oos.intercept"] = np.asarray(scorer.oos_model.intercept_)
    if sparse_reference:
        arrays.update(_csr_arrays("reference", sp.csr_matrix(scorer.reference)))
    else:
        arrays["reference"] = np.asarray(scorer.reference)
    arrays["gate_reference"] = np.asarray(scorer.gate_reference)
    for name, values in zip(("examples", "negatives"), scorer.out_of_fold, strict=True):
        if len(values):
            arrays[f"out_of_fold.{name}"] = np.asarray(values, dtype=np.float32)
    for fast in scorer.tfidf:
        terms = sorted(fast.vocabulary, key=fast.vocabulary.__getitem__)
        if [fast.vocabulary[t] for t in terms] != list(range(len(terms))):
            raise ValueError("a TF-IDF vocabulary's columns are not 0..n-1")
        arrays[f"{fast.kind}.terms"] = np.frombuffer("".join(terms).encode("utf-8"), np.uint8)
        arrays[f"{fast.kind}.ends"] = np.cumsum([len(t) for t in terms], dtype=np.int64)
        arrays[f"{fast.kind}.idf"] = np.asarray(fast.idf)
    if tail is not None:
        for index, name in enumerate(tail.weights):
            arrays[f"tail.weight{index}"] = np.asarray(tail.weights[name])
        arrays["tail.onnx"] = np.frombuffer(tail.onnx, dtype=np.uint8)
    return arrays


def _csr_arrays(name: str, matrix: Any) -> dict[str, np.ndarray]:
    return {
        f"{name}.data": matrix.data,
        f"{name}.indices": matrix.indices,
        f"{name}.indptr": matrix.indptr,
        f"{name}.shape": np.asarray(matrix.shape, dtype=np.int64),
    }


def _csr(arrays: dict[str, np.ndarray], name: str) -> Any:
    import scipy.sparse as sp

    rows, columns = (int(n) for n in arrays[f"{name}.shape"])
    return sp.csr_matrix(
        (arrays[f"{name}.data"], arrays[f"{name}.indices"], arrays[f"{name}.indptr"]),
        shape=(rows, columns),
    )


def _tfidf(arrays: dict[str, np.ndarray], kind: str) -> FastTfidf:
    """A TF-IDF transform from its vocabulary (terms in column order) and IDF."""
    text = arrays[f"{kind}.terms"].tobytes().decode("utf-8")
    ends = arrays[f"{kind}.ends"].tolist()
    starts = [0, *ends[:-1]]
    vocabulary = {text[a:b]: column for column, (a, b) in enumerate(zip(starts, ends, strict=True))}
    return FastTfidf(kind, vocabulary, arrays[f"{kind}.idf"])


def _tail(spec: dict[str, Any] | None, arrays: dict[str, np.ndarray]) -> EncoderTail | None:
    if spec is None:
        return None
    from core.text.encoder_tail import EncoderTail

    weights = {name: arrays[f"tail.weight{i}"] for i, name in enumerate(spec["weights"])}
    return EncoderTail(weights=weights, key=spec["key"], onnx=arrays["tail.onnx"].tobytes())
