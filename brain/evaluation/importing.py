"""`brain controllers import`: a desk's labelled history becomes the home's controllers, its
routing model and its calibration.

- **Controllers**: `--map` folds categories into controllers the home already has, and so is a
  category named like one of them ("Access" into the built-in `access`); every other
  category becomes one declarative controller (`controllers/import-<file>.yml`), described by
  its most typical tickets, with keywords mined from all of them (`mine_keywords`) and
  MAX_EXAMPLES examples chosen to cover it (the medoids of k-means clusters of its word TF-IDF:
  a category's varieties, not its 10,000 near-copies). Every row, mapped or not, goes to the
  home's training data (`training/import-<file>.jsonl`), so the routing model learns from all.
- **Held-out report and calibration**: a stratified HOLDOUT_SHARE of the rows (at most
  MAX_HOLDOUT) is decided by a brain fitted without them (a scratch copy of the home): per
  category accuracy, the most frequent confusions, the share asked back; the calibration is
  fitted on those decisions and saved in the home, and so is where asking back starts, chosen
  on them by expected cost exactly as `brain eval --train` chooses it (`routing-fit.json`,
  `brain.routing.fitted`: the next `brain ask` routes as the report measured). Then the
  routing model is fitted on every row and cached in `models/`, so the next `brain ask` loads
  it.
- **Idempotent, all or nothing**: the file's names come from its own name and content, so a
  re-import rewrites the same files (and loads the cached fit). The file is read and checked
  before anything is written; if the fit fails, the files written (the controllers, the rows,
  the calibration and the fitted routing) are put back as they were.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import yaml

from brain.evaluation.controllers import controller_name, label_name, mine_keywords
from brain.evaluation.fitting import fit_routing
from brain.evaluation.metrics import Outcome
from brain.evaluation.run import (
    _copy_home,
    _warm,
    cross_fitted,
    decide_rows,
    embedding_once,
)
from brain.learning.labelled import LabelledRow
from brain.routing.fitted import FILE as FITTED_ROUTING
from core.errors import EvalError
from core.progress import progress
from core.text.shortening import ELLIPSIS

if TYPE_CHECKING:
    from core.config import Settings

#: Examples kept in a new controller's YAML (all rows still train the routing model).
MAX_EXAMPLES = 40
#: Typical tickets quoted in a new controller's description, and their length.
DESCRIBED_BY = 3
QUOTE_CHARS = 90
#: Rows of one category clustered to choose its examples (a sample when it has more).
CLUSTER_SAMPLE = 4000
HOLDOUT_SHARE = 0.1
MAX_HOLDOUT = 2000
#: Confusion pairs listed in the report.
TOP_CONFUSIONS = 10


@dataclass(slots=True)
class ImportReport:
    """What an import did, and how the fitted brain does on rows it did not see."""

    source: str
    rows: int
    created: list[str]
    mapped: dict[str, str]
    held_out: int = 0
    accuracy: float | None = None
    routed_accuracy: float | None = None
    asked_back_share: float | None = None
    per_category: dict[str, dict[str, Any]] = field(default_factory=dict)
    confusions: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    ask_below: float | None = None
    """Where the home now starts asking back (`brain.routing.fitted`)."""
    out_of_scope_above: float | None = None
    """The out-of-scope bar the home now declares at (None: the model's own level)."""
    weights: dict[str, float] = field(default_factory=dict)
    """The signals' weights the home now routes with (learned, or the configured ones)."""

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


def parse_map(spec: str | None) -> dict[str, str]:
    """`"Access=access,Hardware=incident"` -> {category: controller}."""
    mapping: dict[str, str] = {}
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        category, sep, controller = part.partition("=")
        if not sep or not category.strip() or not controller.strip():
            raise EvalError(f"--map entry {part.strip()!r} is not Category=controller")
        mapping[category.strip()] = controller.strip()
    return mapping


def slug(path: Path) -> str:
    """The import's file-name part: the source file's stem, lower_snake."""
    return re.sub(r"[^a-z0-9_]+", "_", path.stem.lower()).strip("_") or "rows"


def typical(texts: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the most typical texts, MAX_EXAMPLES texts covering the category) of one category."""
    from sklearn.cluster import MiniBatchKMeans
    from sklearn.feature_extraction.text import TfidfVectorizer

    unique = list(dict.fromkeys(t.strip() for t in texts if t.strip()))
    if len(unique) > CLUSTER_SAMPLE:
        rng = np.random.default_rng(0)
        unique = [unique[i] for i in sorted(rng.choice(len(unique), CLUSTER_SAMPLE, False))]
    if len(unique) <= MAX_EXAMPLES:
        return unique[:DESCRIBED_BY], unique
    matrix = TfidfVectorizer(sublinear_tf=True, min_df=1).fit_transform(unique)
    centre = np.asarray(matrix.mean(axis=0)).ravel()
    closeness = np.asarray(matrix @ centre).ravel()
    short = np.array([len(t) <= 4 * QUOTE_CHARS for t in unique])
    order = np.argsort(-(closeness * np.where(short, 1.0, 0.5)), kind="stable")
    described = [unique[i] for i in order[:DESCRIBED_BY]]
    kmeans = MiniBatchKMeans(n_clusters=MAX_EXAMPLES, random_state=0, n_init=3, batch_size=1024)
    assigned = kmeans.fit_predict(matrix)
    chosen: list[tuple[int, str]] = []
    for cluster in range(MAX_EXAMPLES):
        members = np.flatnonzero(assigned == cluster)
        if not len(members):
            continue
        similarity = np.asarray(matrix[members] @ kmeans.cluster_centers_[cluster]).ravel()
        chosen.append((-len(members), unique[members[int(np.argmax(similarity))]]))
    return described, [text for _, text in sorted(chosen)]


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1].rstrip() + ELLIPSIS


def build_specs(
    examples: Mapping[str, Sequence[str]], names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The YAML mapping of every new controller (category -> name in `names`)."""
    keywords = mine_keywords(examples)
    specs = []
    for category in sorted(names):
        described, covering = typical(examples[category])
        quotes = "; ".join(f'"{_quote(t)}"' for t in described)
        specs.append(
            {
                "name": names[category],
                "label": category,
                "description": f"{category} requests, such as {quotes}",
                "keywords": keywords[category],
                "examples": covering,
                # A category is a queue of the desk: its tickets are filed in it.
                "handler": "local_ticket",
                "options": {"ticket_type": "ticket", "category": category},
            }
        )
    return specs


def import_rows(
    settings: Settings,
    source: Path,
    rows: Sequence[LabelledRow],
    mapping: Mapping[str, str],
    *,
    existing: Sequence[str],
    on_progress: Callable[[str], None] = progress,
) -> ImportReport:
    """Write the controllers and training rows, report on held-out rows, fit and calibrate."""
    name = slug(source)
    yaml_path = settings.home / "controllers" / f"import-{name}.yml"
    rows_path = settings.path("training") / f"import-{name}.jsonl"
    previous = _previous_names(yaml_path)
    unknown = sorted({c for c in mapping.values() if c not in existing or c in previous})
    if unknown:
        raise EvalError(f"--map names controllers this home does not have: {', '.join(unknown)}")
    held, test = _split(rows)
    by_category: dict[str, list[str]] = defaultdict(list)
    for index, row in enumerate(rows):  # held-out rows are never a controller's example
        if row.label is not None and index not in held:
            by_category[row.label].append(row.text)
    absent = sorted(set(mapping) - set(by_category))
    if absent:
        raise EvalError(f"--map names categories the file does not have: {', '.join(absent)}")
    taken = {n for n in existing if n not in previous}
    # A category named like a controller the home has is that controller's ("Access" is the
    # built-in `access`): a second `access_2` beside it split one queue's tickets in two, and
    # the built-in kept taking them. --map still says otherwise.
    mapping = {
        **{c: label_name(c) for c in by_category if label_name(c) in taken},
        **mapping,
    }
    names = {c: controller_name(c, taken) for c in sorted(by_category) if c not in mapping}
    if len(names) + len(set(mapping.values())) < 2 and len(existing) < 2:
        raise EvalError("an import needs at least two categories to tell apart")
    on_progress(f"{len(rows):,} rows, {len(by_category)} categories; choosing examples")
    specs = build_specs({c: by_category[c] for c in names}, names)
    route = {**names, **mapping}
    kept = {text for spec in specs for text in spec["examples"]}
    lines = [
        json.dumps({"text": r.text, "controller": route.get(r.label or "")}, ensure_ascii=False)
        for r in rows
        if r.text.strip() not in kept
    ]
    report = ImportReport(
        source=str(source),
        rows=len(rows),
        created=[s["name"] for s in specs],
        mapped=dict(mapping),
        files=[str(yaml_path), str(rows_path)],
    )
    fitted = (settings.home / "calibration.json", settings.home / FITTED_ROUTING)
    backup = {p: p.read_bytes() if p.is_file() else None for p in (yaml_path, rows_path, *fitted)}
    try:
        _write(yaml_path, yaml.safe_dump(specs, allow_unicode=True, sort_keys=False, width=100))
        _write(rows_path, "".join(line + "\n" for line in lines))
        with embedding_once(settings):  # the held-out fit's vectors serve the final fit
            _held_out(settings, {rows[i].text for i in held}, test, route, report, on_progress)
            _fit_home(settings, on_progress)
    except BaseException:
        for path, content in backup.items():
            if content is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(content)
        raise
    return report


def _previous_names(path: Path) -> set[str]:
    """Controller names an earlier import of the same file created (they may be rewritten)."""
    if not path.is_file():
        return set()
    loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return {str(spec.get("name")) for spec in loaded if isinstance(spec, dict)}


def _write(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(content, encoding="utf-8")
    temporary.replace(path)


def _split(rows: Sequence[LabelledRow]) -> tuple[set[int], list[LabelledRow]]:
    """Indices held out (stratified by category) and those rows."""
    rng = np.random.default_rng(0)
    by_label: dict[str | None, list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        by_label[row.label].append(index)
    share = min(HOLDOUT_SHARE, MAX_HOLDOUT / max(1, len(rows)))
    held: set[int] = set()
    for indices in by_label.values():
        count = int(len(indices) * share)
        if count and len(indices) - count >= 5:
            held.update(int(i) for i in rng.choice(indices, size=count, replace=False))
    return held, [rows[i] for i in sorted(held)]


def _held_out(
    settings: Settings,
    held_texts: set[str],
    test: Sequence[LabelledRow],
    route: Mapping[str, str],
    report: ImportReport,
    on_progress: Callable[[str], None],
) -> None:
    """Decide held-out rows with a brain fitted without them; report; save the calibration."""
    from brain.engine import Brain

    if not test:
        return
    with tempfile.TemporaryDirectory(prefix="brain-import-") as scratch:
        copy = _copy_home(settings.home, Path(scratch) / "home")
        (copy / "calibration.json").unlink(missing_ok=True)
        (copy / FITTED_ROUTING).unlink(missing_ok=True)  # decided as the calibration expects
        name = f"import-{slug(Path(report.source))}.jsonl"
        kept = (copy / "training" / name).read_text(encoding="utf-8").splitlines()
        (copy / "training" / name).write_text(
            "".join(line + "\n" for line in kept if json.loads(line)["text"] not in held_texts),
            encoding="utf-8",
        )
        on_progress(f"fitting on all but {len(test):,} held-out rows")
        with Brain.open(settings.model_copy(update={"home": copy})) as brain:
            _warm(brain, on_progress)
            labelled = [LabelledRow(r.text, route.get(r.label or "")) for r in test]
            outcomes = decide_rows(brain, labelled, progress=on_progress, what="held out")
            scored = cross_fitted(brain)
        shutil.rmtree(copy, ignore_errors=True)
    _summarise(outcomes, {v: k for k, v in route.items()}, report)
    source = f"fitted on {len(test)} held-out imported rows"
    # The weights, the calibration and where the next `brain ask` starts asking back: fitted
    # as `brain eval --train` fits them.
    calibrator, fitted = fit_routing(
        outcomes,
        source=source,
        share=settings.routing.out_of_scope_share,
        prior=settings.routing.signal_weights(),
        learn=settings.routing.learn_weights,
        fast=settings.routing.fast_threshold,
        scored=scored,
    )
    calibrator.save(settings.home / "calibration.json")
    report.files.append(str(settings.home / "calibration.json"))
    report.files.append(str(fitted.save(settings.home)))
    report.ask_below = fitted.ask_below
    report.out_of_scope_above = fitted.out_of_scope_above
    report.weights = fitted.weights or settings.routing.signal_weights()


def _summarise(
    outcomes: Sequence[Outcome], category_of: Mapping[str, str], report: ImportReport
) -> None:
    inscope = [o for o in outcomes if o.row.label is not None]
    right = [o.controller == o.row.label for o in inscope]
    routed = [o for o in inscope if o.controller is not None]
    report.held_out = len(outcomes)
    report.accuracy = round(float(np.mean(right)), 4) if inscope else None
    report.routed_accuracy = (
        round(float(np.mean([o.controller == o.row.label for o in routed])), 4) if routed else None
    )
    report.asked_back_share = (
        round(float(np.mean([o.outcome == "clarify" for o in inscope])), 4) if inscope else None
    )
    per: dict[str, list[bool]] = defaultdict(list)
    confusions: Counter[tuple[str, str]] = Counter()
    for outcome in inscope:
        label = str(outcome.row.label)
        per[label].append(outcome.controller == label)
        if outcome.controller is not None and outcome.controller != label:
            confusions[(label, outcome.controller)] += 1
    report.per_category = {
        category_of.get(label, label): {"rows": len(v), "accuracy": round(float(np.mean(v)), 4)}
        for label, v in sorted(per.items())
    }
    report.confusions = [
        {"category": category_of.get(a, a), "routed_to": b, "rows": n}
        for (a, b), n in confusions.most_common(TOP_CONFUSIONS)
    ]


def _fit_home(settings: Settings, on_progress: Callable[[str], None]) -> None:
    """Fit (and cache in `models/`) the routing model on every row, as `brain ask` will."""
    from brain.engine import Brain

    on_progress("fitting the routing model on every row")
    with Brain.open(settings) as brain:
        _ = brain.semantic_model  # fitted and cached; nothing is decided, nothing logged
