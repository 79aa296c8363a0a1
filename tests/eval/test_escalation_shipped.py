"""The escalation weights shipped beside the data are the ones `scripts/build_escalation_set.py
--fit` writes for the shipped rows, with the MiniLM embedder and without: a home opens them
instead of fitting at start (a stale copy would be passed over and the model fitted in every
new home). The shipped model reads the multilingual sentence vectors, so a Chinese or mixed
message is read by an encoder trained on both languages, and the live contrast fitted on the
twins; its bars are the fixed ones, so a refit moves no bar, except the "asked_now" contrast's,
calibrated on its own twins out of fold."""

from __future__ import annotations

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
