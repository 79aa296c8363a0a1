"""The signals' weights learned from a home's labelled history: fitted on held-out decisions
with the seed's weights as prior and default, kept in the home's routing-fit.json, applied by
the next brain and shown by `brain why`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from brain.engine import Brain
from brain.routing.combiner import fit_weights
from brain.routing.fitted import FILE
from cli import main
from core.config import load_settings
from tests.eval.test_controllers_import import _csv, _rows

SEED = {"keyword": 0.3, "semantic": 0.3, "knowledge": 0.2, "session": 0.1, "memory": 0.1}


def _decisions(n: int, seed: int = 0) -> list[tuple[dict[str, dict[str, float]], str]]:
    """Five controllers; the semantic signal finds the right one, the keyword signal is as
    strong on a wrong one as often as not (mined keywords shared between categories)."""
    rng = np.random.default_rng(seed)
    decided = []
    for _ in range(n):
        right = int(rng.integers(5))
        decoy = (right + 1 + int(rng.integers(4))) % 5
        rows = {}
        for c in range(5):
            semantic = rng.uniform(0.5, 0.9) if c == right else rng.uniform(0.0, 0.45)
            keyword = rng.uniform(0.6, 1.0) if c in (right, decoy) else 0.0
            if c == decoy and rng.uniform() < 0.5:
                keyword = 1.0
            rows[f"c{c}"] = {"keyword": keyword, "semantic": semantic, "knowledge": 0.0}
        decided.append((rows, f"c{right}"))
    return decided


def test_weights_are_learned_where_they_rank_better_and_the_seeds_kept_elsewhere() -> None:
    learned = fit_weights(_decisions(300), SEED)
    assert learned.fitted and learned.top1 > learned.prior_top1
    assert learned.weights["semantic"] > 1.5 * learned.weights["keyword"]
    # Signals silent in the history keep the seed's weight; the rest share what is left.
    for name in ("knowledge", "session", "memory"):
        assert learned.weights[name] == SEED[name]
    assert sum(learned.weights.values()) == pytest.approx(1.0)
    # Too few decisions to learn from: the seed's weights.
    few = fit_weights(_decisions(10), SEED)
    assert not few.fitted and few.weights == SEED


@pytest.mark.slow
def test_the_import_keeps_its_weights_and_brain_why_shows_them(
    tmp_path: Path,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    isolated_env.mkdir(parents=True, exist_ok=True)  # no brain.toml: weights learned by default
    source = _csv(tmp_path / "desk.csv", _rows(240, 10))
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    fitted = json.loads((isolated_env / FILE).read_text())
    assert sum(report["weights"].values()) == pytest.approx(1.0)
    assert fitted["weights"] in ({}, report["weights"])
    assert "held-out decisions" in fitted["weights_source"]

    # A learned set is what the next brain weighs with (written here as a fit would).
    weights = {"keyword": 0.1, "semantic": 0.5, "knowledge": 0.2, "session": 0.1, "memory": 0.1}
    fitted.update(weights=weights, weights_source="learned from 24 held-out decisions")
    (isolated_env / FILE).write_text(json.dumps(fitted))
    with Brain.open(load_settings()) as brain:
        assert brain.settings.routing.signal_weights() == weights
    assert main(["ask", "my payslip is wrong for march", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert main(["why", decision["decision_id"], "--json"]) == 0
    explained = json.loads(capsys.readouterr().out)
    assert explained["weights"] == weights
    assert explained["weights_source"] == "learned from 24 held-out decisions"
    assert main(["why", decision["decision_id"]]) == 0
    assert "weights: keyword 0.10, semantic 0.50" in capsys.readouterr().out

    # A weight set in the configuration wins over the fit.
    (isolated_env / "brain.toml").write_text(
        "[routing]\nweight_keyword = 0.2\nweight_semantic = 0.4\n"
    )
    with Brain.open(load_settings()) as brain:
        assert brain.settings.routing.signal_weights()["semantic"] == 0.4
    assert main(["why", decision["decision_id"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["weights_source"] == "configured"
