"""The escalation weights shipped beside the data are the ones `scripts/build_escalation_set.py
--fit` writes for the shipped rows, with the MiniLM embedder and without: a home opens them
instead of fitting at start (a stale copy would be passed over and the model fitted in every
new home). The shipped model reads the multilingual sentence vectors, so a Chinese or mixed
message is read by an encoder trained on both languages, and the live contrast fitted on the
twins; its bars are the fixed ones, so a refit moves no bar, except the "asked_now" contrast's,
calibrated on its own twins out of fold."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from brain.escalation.contrast import CONTRASTS, LIVE_WIDTH
from brain.escalation.model import (
    ALONE_BAR,
    FAILING_BAR,
    FILES,
    NOW_BAR,
    THRESHOLD,
    VETO_BAR,
    EscalationModel,
    labelled_rows,
    model_key,
)
from core.model_files import shipped_file

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("with_embedding", [True, False], ids=["minilm", "no-embedder"])
def test_the_shipped_weights_are_those_of_the_shipped_rows(with_embedding: bool) -> None:
    key = model_key(labelled_rows("train"), with_embedding)
    path = shipped_file(FILES.package, FILES.name, key)
    assert path.is_file(), f"refit with scripts/build_escalation_set.py --fit ({key})"
    model = EscalationModel.load(path, key)
    assert model.with_embedding is with_embedding
    assert model.with_multilingual
    bars = (model.threshold, model.alone, model.failing, model.veto)
    assert bars == (THRESHOLD, ALONE_BAR, FAILING_BAR, VETO_BAR)
    assert model.contrast_coef is not None and model.contrast_intercept is not None
    assert model.contrast_coef.shape == (len(CONTRASTS), LIVE_WIDTH)
    assert abs(model.contrast_coef).sum() > 0  # fitted on the twins, not a zero column
    assert 0.0 < model.now < NOW_BAR  # the "asked_now" bar calibrated on its twins


def test_no_stale_weights_are_shipped() -> None:
    keys = {model_key(labelled_rows("train"), e) for e in (True, False)}
    folder = shipped_file(FILES.package, FILES.name, "x").parent
    shipped = {p.stem.removeprefix(f"{FILES.name}-") for p in folder.glob(f"{FILES.name}-*.npz")}
    assert shipped == keys


def _key_of(brain: Path) -> str:
    """The escalation model's key (fitted without the embedder) as a fresh process computes it
    with the `brain` package at `brain`."""
    code = (
        "from brain.escalation.model import labelled_rows, model_key; "
        "print(model_key(labelled_rows('train'), False))"
    )
    path = os.pathsep.join([str(brain.parent), str(REPO)])
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": path},
        cwd=brain.parent,  # `python -c` puts the working directory first on the path
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        (
            "escalation/priority.py",
            "CAUSE_BEFORE, CAUSE_AFTER = 40, 4",
            "CAUSE_BEFORE = 41\nCAUSE_AFTER = 4",
        ),
        ("escalation/contrast.py", "SCALE = 2.0", "SCALE = 3.0"),
        (
            "intent/urgency.py",
            "from __future__ import annotations",
            "from __future__ import annotations\nX = 1",
        ),
    ],
    ids=["rule-feature", "contrast", "imported-rule"],
)
def test_a_code_change_to_the_features_changes_the_key(
    tmp_path: Path, module: str, old: str, new: str
) -> None:
    """A change to the code that computes the model's input, with the rows and the cue files
    unchanged, names another model: a home's cache and the shipped copy fitted with the old code
    are not read, so the model never weighs features it was not fitted on. A comment, a
    docstring or a reformatting keeps the key (no refit for them)."""
    brain = tmp_path / "brain"
    shutil.copytree(
        REPO / "brain", brain, ignore=shutil.ignore_patterns("data", "__pycache__", "*.pyc")
    )
    (brain / "data").symlink_to(REPO / "brain" / "data", target_is_directory=True)
    before = _key_of(brain)
    assert before == model_key(labelled_rows("train"), False)
    _edit(brain / module, old, f"# a comment\n{old}  # another")
    _edit(brain / "escalation/features.py", '"""What the escalation', '"""What, reworded, the')
    assert _key_of(brain) == before
    _edit(brain / module, old, new)
    assert _key_of(brain) != before
