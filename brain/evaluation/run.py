"""`brain eval`: routing quality of the full decision chain on a labelled file.

Rows are JSON lines `{"text": ..., <label>: ...}`; a label of `oos`, `none`, "" or null means no
controller should take the message. Every row goes through `Brain.decide` (no LLM unless
ANTHROPIC_API_KEY is set), each with its own user so no row's session colours another's.

- With `train`: one `DeclarativeController` per label, built from its examples (label as name,
  description from the label's words, keywords mined from its examples), in a THROWAWAY home
  (temp BRAIN_HOME, empty knowledge base, no sample ingest). Out-of-scope training rows become
  the semantic scorer's negatives. The calibrator is fitted on `val` when given, else on
  held-out folds of `train` (5-fold for small sets, one 20% fold for large ones), then the
  brain is refitted on all of `train` and run on `test`, asking back only below the confidence
  where a question costs less than a wrong route on those calibration decisions
  (`brain.routing.cost`; `setup.ask_below`).
- Without `train`: the current home's controllers on a throwaway COPY of the home (so the
  evaluation adds nothing to its decision log or memory); with `val`, the fitted calibrator is
  saved to `$BRAIN_HOME/calibration.json`, where the engine reads it, but only when one fitted
  on 4/5 of val scores no worse (Brier) on the other fifth than the home's current calibration;
  otherwise the old one is kept and the report says so (`calibration_replaced: false`).

"Correct in scope" = decision.controller == label; "OOS detected" = decision.controller is None
(not routed: declared out of scope, or asked back). "Declared out of scope" = outcome fallback
(the brain said no controller covers it), reported separately (declared_oos_recall/precision).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.evaluation.controllers import controllers_from_rows
from brain.evaluation.fitting import calibrator_from, fit_routing, top_features
from brain.evaluation.metrics import Outcome, summarise, way_of
from brain.learning.labelled import LabelledRow
from brain.routing.calibration import Calibrator, publish
from brain.routing.cost import CrossFitted
from brain.routing.fitted import FILE as FITTED_ROUTING
from brain.routing.fitted import FittedRouting
from core.config import RoutingConfig, Settings, load_settings
from core.errors import EvalError
from core.files import copy_tree
from core.stores import open_stores

if TYPE_CHECKING:
    from brain.engine import Brain
    from core.records import Decision

log = logging.getLogger(__name__)

#: Rows embedded in one batch before they are decided (the embedder's LRU cache holds them).
PRIME_BATCH = 512
#: Above this many training rows, calibration uses one held-out fold instead of all five.
SINGLE_FOLD_ABOVE = 2000
FOLDS = 5
#: At most this many held-out decisions calibrate a large set (4,000 are plenty for a handful
#: of features; on 34k IT tickets a full fifth was 6,854 decisions, minutes of the fit budget).
MAX_CALIBRATION_ROWS = 4000
#: Environment variables not carried into a throwaway home (it must stay local and empty).
_NOT_INHERITED = (
    "BRAIN_HOME",
    "BRAIN_CONFIG",
    "BRAIN_QDRANT_URL",
    "BRAIN_QDRANT_API_KEY",
    "BRAIN_VECTOR_STORE",
)


def throwaway_settings(home: Path) -> Settings:
    """Settings of a temp home: local, empty KB, no sample ingest, same embedder and LLM."""
    from core.text.embedder import encoder_cache_dir

    env = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    # The model's ONNX export is the user's, not the throwaway home's: exported once.
    env["BRAIN_ENCODER_CACHE"] = str(encoder_cache_dir(load_settings()))
    env["BRAIN_HOME"] = str(home)
    settings = load_settings(env)
    settings.knowledge.ingest_sample = False
    settings.training.shipped = False  # the built-ins' examples and calibration don't apply
    return settings


@contextmanager
def trained_brain(
    train: Sequence[LabelledRow],
    home: Path,
    calibrator: Calibrator | None = None,
    fitted: FittedRouting | None = None,
) -> Iterator[tuple[Brain, dict[str, str]]]:
    """A brain whose controllers are built from `train`, in `home` (created, then left);
    `fitted`: the weights and where it asks back (`brain.evaluation.fitting.fit_routing`)."""
    from brain.engine import Brain
    from brain.semantic.files import NEGATIVES_FILE
    from controllers.registry import ControllerRegistry

    controllers, names = controllers_from_rows(train)
    home.mkdir(parents=True, exist_ok=True)
    models = home / "models"
    models.mkdir(exist_ok=True)
    with (models / NEGATIVES_FILE).open("w", encoding="utf-8") as handle:
        for row in train:
            if row.label is None:
                handle.write(json.dumps({"text": row.text}, ensure_ascii=False) + "\n")
    if calibrator is not None:
        calibrator.save(home / "calibration.json")
    if fitted is not None:  # read back by the brain, as after `brain controllers import`
        fitted.save(home)
    # The throwaway brain routes among the label controllers only (no entry points, no YAML).
    settings = throwaway_settings(home)
    brain = Brain.open(settings, registry=ControllerRegistry(controllers))
    try:
        yield brain, names
    finally:
        brain.close()


def _features(decision: Decision) -> tuple[str | None, dict[str, float]]:
    """The best-ranked candidate and its calibration features (as `Brain` computes them, from
    the signals stored with the decision)."""
    rows = {name: row for name, row in decision.signals.items() if row.confidence is not None}
    if not rows:
        return None, {}
    # The engine's own order comes first in `candidates`; a fallback names none.
    top = next((name for name in decision.candidates[:1] if name in rows), None) or max(
        rows, key=lambda name: (rows[name]["confidence"], rows[name]["total"])
    )
    signals = {name: row.signals for name, row in decision.signals.items()}
    totals = {name: float(row.total) for name, row in decision.signals.items()}
    return top, top_features(signals, totals, top)


def decide_rows(
    brain: Brain,
    rows: Sequence[LabelledRow],
    names: Mapping[str, str] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    what: str = "test",
) -> list[Outcome]:
    """Run `Brain.decide` on every row; labels are mapped to controller names via `names`."""
    from core.records import Message

    labels = {v: k for k, v in (names or {}).items()}
    outcomes: list[Outcome] = []
    for start in range(0, len(rows), PRIME_BATCH):
        batch = rows[start : start + PRIME_BATCH]
        brain.prime([r.text for r in batch])  # one batch; decisions stay per row
        for offset, row in enumerate(batch):
            index = start + offset
            began = time.perf_counter()
            decision = brain.decide(Message(text=row.text, user=f"eval-{index}", channel="eval"))
            elapsed = (time.perf_counter() - began) * 1000
            top, features = _features(decision)
            outcomes.append(
                Outcome(
                    row=row,
                    controller=labels.get(decision.controller or "", decision.controller),
                    confidence=float(decision.confidence),
                    tier=decision.tier,
                    outcome=decision.outcome,
                    escalate=bool(decision.escalate),
                    latency_ms=elapsed,
                    llm_calls=int(decision.llm_calls),
                    features=features,
                    top=labels.get(top or "", top),
                    signals={
                        labels.get(name, name): dict(scores.signals)
                        for name, scores in decision.signals.items()
                    },
                    out_of_scope=_out_of_scope(brain, row.text),
                    way=way_of(
                        decision.controller, decision.outcome, decision.tier, decision.tier_path
                    ),
                )
            )
        if progress is not None:
            progress(f"{what}: {min(start + PRIME_BATCH, len(rows))}/{len(rows)} rows decided")
    return outcomes


def _out_of_scope(brain: Brain, text: str) -> float | None:
    """The semantic model's P(out of scope) of `text` (its vectors were primed: no embedding)."""
    model = brain.semantic_model
    return None if model is None else float(model.analyse(text).out_of_scope)


def cross_fitted(brain: Brain, before: CrossFitted | None = None) -> CrossFitted:
    """The P(out of scope) that `brain`'s semantic model gave its own example texts and
    negatives from models fitted without them (after `before`'s): more evidence for the
    out-of-scope bar than the tails of one held-out fold (`brain.routing.cost.out_of_scope_bar`)."""
    model = brain.semantic_model
    before = before or CrossFitted()
    if model is None:
        return before
    return CrossFitted(
        [*before.inside, *map(float, model.examples_out_of_scope)],
        [*before.outside, *map(float, model.negatives_out_of_scope)],
    )


def calibration_folds(
    rows: Sequence[LabelledRow],
) -> list[tuple[list[LabelledRow], list[LabelledRow]]]:
    """(fit, held-out) pairs stratified by label; for large sets one 20% fold of at most
    MAX_CALIBRATION_ROWS rows (the rest of that fold is fitted on)."""
    rng = np.random.default_rng(0)
    by_label: dict[str | None, list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        by_label[row.label].append(index)
    assignment = np.zeros(len(rows), dtype=int)
    share = min(1.0, MAX_CALIBRATION_ROWS / max(1.0, len(rows) / FOLDS))
    for indices in by_label.values():
        order = rng.permutation(len(indices))
        kept = int(np.ceil(share * len(order[::FOLDS])))  # of this label's first-fold rows
        for rank, position in enumerate(order):
            fold = rank % FOLDS
            if fold == 0 and rank // FOLDS >= kept and len(rows) > SINGLE_FOLD_ABOVE:
                fold = 1  # beyond the cap: fitted on, not held out
            assignment[indices[position]] = fold
    used = range(1) if len(rows) > SINGLE_FOLD_ABOVE else range(FOLDS)
    return [
        (
            [r for r, f in zip(rows, assignment, strict=True) if f != fold],
            [r for r, f in zip(rows, assignment, strict=True) if f == fold],
        )
        for fold in used
    ]


# -- the whole evaluation ----------------------------------------------------------------
@dataclass(slots=True)
class EvalReport:
    """Metrics plus how they were obtained."""

    metrics: dict[str, Any]
    outcomes: list[Outcome]
    setup: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: metrics at the top level, the setup under "setup"."""
        return {**self.metrics, "setup": self.setup}


def evaluate(
    test: Sequence[LabelledRow],
    *,
    train: Sequence[LabelledRow] | None = None,
    val: Sequence[LabelledRow] | None = None,
    settings: Settings | None = None,
    progress: Callable[[str], None] | None = None,
) -> EvalReport:
    """Run the evaluation described in the module docstring."""
    if not test:
        raise EvalError("the test file has no rows")
    setup: dict[str, Any] = {"test_rows": len(test)}
    started = time.perf_counter()
    with (
        embedding_once(settings or load_settings()) as embedded,
        tempfile.TemporaryDirectory(prefix="brain-eval-") as scratch,
    ):
        root = Path(scratch)
        if train:
            setup["mode"] = "train"
            setup["train_rows"] = len(train)
            routing = (settings or load_settings()).routing
            calibrator, fitted = _calibrate_trained(train, val, root, setup, progress, routing)
            fit_started = time.perf_counter()
            with trained_brain(train, root / "final", calibrator, fitted) as (brain, names):
                _warm(brain, progress)
                setup["fit_seconds"] = round(time.perf_counter() - fit_started, 1)
                setup["controllers"] = len(names)
                outcomes = decide_rows(brain, test, names, progress=progress)
        else:
            setup["mode"] = "home"
            home_settings = settings or load_settings()
            outcomes = _evaluate_home(home_settings, test, val, root, setup, progress)
        setup["texts_embedded"] = embedded()
    setup["seconds"] = round(time.perf_counter() - started, 1)
    return EvalReport(metrics=summarise(outcomes), outcomes=outcomes, setup=setup)


@contextmanager
def embedding_once(settings: Settings) -> Iterator[Callable[[], int]]:
    """Each distinct text through MiniLM once in the run, however many brains fit on it (the
    calibration fold's fit, the final fit and the decisions share the vectors; identical to
    embedding them again: `DenseEmbedder.remembering`). Yields how many texts the model has
    embedded since (0 without the dense model)."""
    from core.text.embedder import get_dense_embedder

    embedder = get_dense_embedder(settings)
    before = embedder.texts_embedded if embedder is not None else 0
    with embedder.remembering() if embedder is not None else nullcontext():
        yield lambda: embedder.texts_embedded - before if embedder is not None else 0


def _warm(brain: Brain, progress: Callable[[str], None] | None) -> None:
    """Fit (or load) the semantic model before timing decisions."""
    from core.records import Message

    if progress is not None:
        progress(f"fitting the semantic model on {len(brain.registry)} controllers")
    brain.decide(Message(text="warm-up", user="eval-warmup", channel="eval-warmup"))


def _calibrate_trained(
    train: Sequence[LabelledRow],
    val: Sequence[LabelledRow] | None,
    root: Path,
    setup: dict[str, Any],
    progress: Callable[[str], None] | None,
    routing: RoutingConfig,
) -> tuple[Calibrator, FittedRouting]:
    """The weights, the calibration and where asking back starts, fitted on val (or held-out
    folds of train) decisions as `routing` says (`fit_routing`)."""
    outcomes: list[Outcome] = []
    scored = CrossFitted()
    if val:
        setup["calibration"] = f"fitted on val ({len(val)} rows)"
        with trained_brain(train, root / "calibrate") as (brain, names):
            _warm(brain, progress)
            outcomes = decide_rows(brain, val, names, progress=progress, what="val")
            scored = cross_fitted(brain)
    else:
        folds = calibration_folds(train)
        setup["calibration"] = f"fitted on {len(folds)} held-out fold(s) of train"
        for number, (fit_rows, held) in enumerate(folds):
            with trained_brain(fit_rows, root / f"fold{number}") as (brain, names):
                _warm(brain, progress)
                outcomes += decide_rows(
                    brain, held, names, progress=progress, what=f"fold {number + 1}"
                )
                scored = cross_fitted(brain, scored)
    prior = throwaway_settings(root / "prior").routing.signal_weights()
    share = routing.out_of_scope_share
    calibrator, fitted = fit_routing(
        outcomes,
        source=setup["calibration"],
        share=share,
        prior=prior,
        learn=routing.learn_weights,
        fast=routing.fast_threshold,
        scored=scored,
    )
    setup["calibrator"] = calibrator.to_dict()
    setup["ask_below"] = fitted.ask_below
    setup["out_of_scope_above"] = fitted.out_of_scope_above
    setup["out_of_scope_share"] = share
    setup["weights"] = fitted.weights or prior
    setup["weights_source"] = fitted.weights_source
    return calibrator, fitted


def _evaluate_home(
    settings: Settings,
    test: Sequence[LabelledRow],
    val: Sequence[LabelledRow] | None,
    root: Path,
    setup: dict[str, Any],
    progress: Callable[[str], None] | None,
) -> list[Outcome]:
    """The home's own controllers, on copies of the home (nothing is added to the real one)."""
    from brain.engine import Brain

    if val:
        copy = _copy_home(settings.home, root / "val-home")
        (copy / "calibration.json").unlink(missing_ok=True)  # val runs uncalibrated
        (copy / FITTED_ROUTING).unlink(missing_ok=True)  # and at the default thresholds
        with Brain.open(settings.model_copy(update={"home": copy})) as brain:
            _warm(brain, progress)
            decided = decide_rows(brain, val, progress=progress, what="val")
        _replace_calibration_if_better(settings, decided, len(val), setup, progress)
    copy = _copy_home(settings.home, root / "test-home")
    with Brain.open(settings.model_copy(update={"home": copy})) as brain:
        _warm(brain, progress)
        setup["controllers"] = len(brain.registry)
        setup.setdefault("calibration", brain.calibration.status)
        return decide_rows(brain, test, progress=progress)


#: Every HELD_OUT_EVERY-th val row is held out to compare the new calibration with the old.
HELD_OUT_EVERY = 5


def brier(calibrator: Calibrator, outcomes: Sequence[Outcome]) -> float | None:
    """Mean squared error of P(best candidate is right) on decided rows (lower is better)."""
    usable = [o for o in outcomes if o.features]
    if not usable:
        return None
    errors = [(calibrator.apply(**o.features) - float(o.top_right)) ** 2 for o in usable]
    return float(np.mean(errors))


def _replace_calibration_if_better(
    settings: Settings,
    decided: Sequence[Outcome],
    rows: int,
    setup: dict[str, Any],
    progress: Callable[[str], None] | None,
) -> None:
    """Fit a calibration on val, but save it only when it scores no worse on a held-out fold
    of val than the one the home decides with now; otherwise keep the old one and say so."""
    from brain.learning.training import shipped_calibration
    from brain.routing.calibration import HomeCalibration

    held = [o for i, o in enumerate(decided) if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1]
    fit = [o for i, o in enumerate(decided) if i % HELD_OUT_EVERY != HELD_OUT_EVERY - 1]
    current = HomeCalibration(settings.home, shipped_calibration(settings))
    new_score = brier(calibrator_from(fit, "held-out check"), held)
    old_score = brier(current.calibrator, held)
    setup["calibration_check"] = {
        "held_out_rows": len(held),
        "brier_new": None if new_score is None else round(new_score, 4),
        "brier_old": None if old_score is None else round(old_score, 4),
        "old": current.status,
    }
    if new_score is not None and old_score is not None and new_score > old_score:
        message = (
            f"kept the existing calibration ({current.status}): the one fitted on val scores "
            f"worse on a held-out fold of val (Brier {new_score:.4f} > {old_score:.4f})"
        )
        setup["calibration"] = message
        setup["calibration_replaced"] = False
        log.warning("%s", message)
        if progress is not None:
            progress(message)
        return
    calibrator = calibrator_from(decided, f"fitted on val ({rows} rows)")
    target = calibrator.save(settings.home / "calibration.json")
    setup["calibration"] = f"fitted on val, saved to {target}"
    shared = open_stores(settings).artifacts
    if shared is not None:  # replicas on PostgreSQL: every one takes it up (HomeCalibration)
        setup["calibration_shared_version"] = publish(shared, calibrator)
    setup["calibration_replaced"] = True
    setup["calibrator"] = calibrator.to_dict()


def _copy_home(home: Path, target: Path) -> Path:
    """A scratch copy of a brain home without its decision log."""
    if home.is_dir():
        copy_tree(home, target, ignore=shutil.ignore_patterns("decisions", "*.lock"))
    target.mkdir(parents=True, exist_ok=True)
    return target
