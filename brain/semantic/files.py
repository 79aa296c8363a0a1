"""Where fitted semantic models live and what names them: the shipped fit, a home's cache, the
cache key (a hash of everything a fit depends on), the controllers' texts a fit reads and the
negatives it uses.

Fitted scorers are cached on disk (`cache_dir/semantic-<key>.npz`, numpy arrays:
`brain.semantic.npz`; the key hashing the controllers' texts, the negatives and the embedder
kind), so `brain ask` never refits. The model of the built-in controllers on the shipped
training data is fitted at build time too (`scripts/fit_default_semantic.py` ->
`brain/data/semantic-<key>.npz`) and loaded when a home's key is that one, so a fresh home does
not spend its first ask fitting it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.semantic.features import MULTILINGUAL_SHARE, wants_multilingual
from brain.semantic.lexical import LEXICAL_MIN_EXAMPLES
from controllers.base import example_weight_of

if TYPE_CHECKING:
    from controllers.base import Controller
    from core.stores.protocols import ArtifactStore

log = logging.getLogger(__name__)

#: Where the build-time fit of the built-in controllers lives (`semantic-<key>.npz`).
SHIPPED_DIR = Path(__file__).parent.parent / "data"
#: A fitted model's file name: `semantic-<key>` and this (`brain.semantic.npz`).
MODEL_SUFFIX = ".npz"
#: Fits cached by versions before the .npz files, never read (a home refits once instead).
LEGACY_SUFFIX = ".joblib"

#: In the cache key: 6 since the .npz files, so that no version reads another's files or
#: replicas' shared artifacts.
FORMAT_VERSION = 6
#: Example texts (not keywords) needed before the encoder's top layers are fine-tuned: with
#: fewer, a tuned encoder memorises them rather than learning the controllers apart.
TUNE_MIN_EXAMPLES = 200
NEGATIVES_FILE = "negatives.jsonl"
#: Used when the home has no negatives file: everyday texts outside IT operations (CLINC150).
DEFAULT_NEGATIVES = Path(__file__).parent.parent / "data" / "semantic_negatives.jsonl"
#: Sample weight of a keyword or label as a training text (examples weigh 1).
SHORT_TEXT_WEIGHT = 0.5


def shipped_model(key: str) -> Path:
    """Where the build-time fit for `key` is (it exists only for the built-in controllers on
    the shipped training data: `scripts/fit_default_semantic.py`)."""
    return model_path(SHIPPED_DIR, key)


def model_path(folder: Path, key: str) -> Path:
    """The file of the fit with cache key `key` in `folder`."""
    return folder / f"semantic-{key}{MODEL_SUFFIX}"


def chosen_negatives(
    cache: Path | None, negatives: Sequence[str] | None, extra: Sequence[str]
) -> list[str]:
    """The negatives a fit uses: given ones, else the cache's own file, else the shipped."""
    if negatives is None:
        own = cache / NEGATIVES_FILE if cache is not None else None
        negatives = read_negatives(own if own is not None and own.exists() else DEFAULT_NEGATIVES)
    return [*negatives, *extra]


def fit_key(
    controllers: Sequence[Controller],
    *,
    dense: bool,
    cache_dir: Path | str | None = None,
    negatives: Sequence[str] | None = None,
    extra_examples: Mapping[str, Sequence[str]] | None = None,
    extra_negatives: Sequence[str] = (),
    tune: bool = False,
    weights: Mapping[str, float] | None = None,
    multilingual: bool = False,
) -> str:
    """The cache key `SemanticScorer.fit` uses for these arguments (without fitting)."""
    cache = Path(cache_dir) if cache_dir is not None else None
    chosen = chosen_negatives(cache, negatives, extra_negatives)
    extra = extra_examples or {}
    multilingual = multilingual and uses_multilingual(controllers, chosen, dense, extra)
    return cache_key(controllers, chosen, dense, extra, tune, weights, multilingual)


def shared_fit(
    shared: ArtifactStore,
    lock: Callable[[str], AbstractContextManager[None]] | None,
    name: str,
    path: Path,
    fitted: Callable[[], Any],
    load: Callable[[], Any],
    names: list[str],
) -> Any:
    """A model fitted once for every replica: taken from `shared` under `name` (written to
    `path` and `load`ed), or `fitted` (holding `lock` of the name, so one replica fits while
    the others wait) and stored there for the rest. A shared model that cannot be read, or is
    of other controllers than `names`, is refitted and replaced."""
    with lock(f"fit:{name}") if lock is not None else nullcontext():
        blob = shared.get(name)
        if blob is not None:
            try:
                write_atomically(path, blob)
                loaded = load()
                if loaded.names == names:
                    return loaded
            except Exception as exc:  # refit (and replace it) rather than fail
                log.warning("shared semantic model %s unusable (%s); refitting", name, exc)
        scorer = fitted()
        if path.is_file():
            shared.put(name, path.read_bytes())
        return scorer


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".semantic-", suffix=MODEL_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:  # no half-written temporary left beside the models
        Path(tmp).unlink(missing_ok=True)
        raise


def uses_multilingual(
    controllers: Sequence[Controller],
    negatives: Sequence[str],
    dense: bool,
    extra: Mapping[str, Sequence[str]] | None = None,
) -> bool:
    """Whether the fit's dense view holds the multilingual encoder's vector beside MiniLM's
    (`brain.semantic.features.wants_multilingual` of its texts)."""
    return dense and wants_multilingual(training_rows(controllers, extra or {})[0] + [*negatives])


def cache_key(
    controllers: Sequence[Controller],
    negatives: Sequence[str],
    dense: bool,
    extra: Mapping[str, Sequence[str]] | None = None,
    tune: bool = False,
    weights: Mapping[str, float] | None = None,
    multilingual: bool = False,
) -> str:
    """Hash of everything the fitted model depends on (`multilingual`: the fit reads the
    multilingual encoder, `uses_multilingual`)."""
    from core.text import encoder_tail

    extra = extra or {}
    content: dict[str, Any] = {
        "tune": [
            encoder_tail.TUNED_LAYERS,
            encoder_tail.EPOCHS,
            encoder_tail.LEARNING_RATE,
            TUNE_MIN_EXAMPLES,
        ]
        if tune
        else None,
        "extra": {c.name: list(extra.get(c.name, ())) for c in controllers},
        "format": FORMAT_VERSION,
        "dense": dense,
        "controllers": [
            [
                c.name,
                str(getattr(c, "label", "")),
                str(c.description),
                [str(k) for k in c.keywords],
                [str(e) for e in c.examples],
            ]
            for c in controllers
        ],
        "negatives": list(negatives),
    }
    examples = sum(len(c.examples) + len(extra.get(c.name, ())) for c in controllers)
    if examples >= LEXICAL_MIN_EXAMPLES:  # only then: smaller fits are made as before
        content["short_texts"] = "chosen on the held-out fold"
    if multilingual:  # only then: the keys of other fits stay as they were
        content["multilingual"] = MULTILINGUAL_SHARE
    if weights:  # only then: the keys of fits without weights stay as they were
        content["weights"] = sorted(weights.items())
    weighed = {c.name: example_weight_of(c) for c in controllers if example_weight_of(c) != 1.0}
    if weighed:  # likewise
        content["example_weights"] = sorted(weighed.items())
    blob = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:20]


def training_rows(
    controllers: Sequence[Controller],
    extra: Mapping[str, Sequence[str]],
    weighted: Mapping[str, float] | None = None,
) -> tuple[list[str], list[int], list[float], list[bool]]:
    """Every controller's training texts, their controller's index, their sample weight and
    whether each is a short one: examples and the description at the controller's example
    weight (`weighted` overrides it per text), keywords and the label (short) at
    SHORT_TEXT_WEIGHT."""
    texts: list[str] = []
    labels: list[int] = []
    weights: list[float] = []
    short: list[bool] = []
    for index, controller in enumerate(controllers):
        full = [str(e) for e in controller.examples if str(e).strip()]
        full += [str(e) for e in extra.get(controller.name, ()) if str(e).strip()]
        if str(controller.description).strip():
            full.append(str(controller.description))
        label = str(getattr(controller, "label", "") or controller.name.replace("_", " "))
        brief = [str(k) for k in controller.keywords if str(k).strip()] + [label]
        for text in full:
            texts.append(text)
            labels.append(index)
            weights.append(float((weighted or {}).get(text, example_weight_of(controller))))
            short.append(False)
        for text in brief:
            texts.append(text)
            labels.append(index)
            weights.append(SHORT_TEXT_WEIGHT)
            short.append(True)
    return texts, labels, weights, short


def read_negatives(path: Path) -> list[str]:
    """Texts of a JSON-lines file ({"text": ...} per line); bad lines are skipped."""
    texts: list[str] = []
    if not path.is_file():
        return texts
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and isinstance(row.get("text"), str) and row["text"].strip():
            texts.append(row["text"])
    return texts
