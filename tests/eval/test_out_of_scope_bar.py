"""Messages no controller should take are stopped by their own bar, fitted on held-out
decisions and kept in the home, not by asking back: a question naming controllers helps a
message one of them should take, never one none should. Before, the out-of-scope rows also chose
where asking back starts, and a few of them (19 of a CLINC150 fold) raised it so far that 3% of
in-scope messages were asked back to stop them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from brain.evaluation.fitting import fit_routing
from brain.evaluation.metrics import Outcome
from brain.learning.labelled import LabelledRow
from brain.routing.cost import CrossFitted, out_of_scope_bar
from brain.routing.fitted import FILE, FittedRouting
from cli import main

PRIOR = {"keyword": 0.3, "semantic": 0.3, "knowledge": 0.2, "session": 0.1, "memory": 0.1}


def _outcome(label: str | None, top: str, total: float, out_of_scope: float) -> Outcome:
    signals = {"semantic": total, "keyword": 0.0, "knowledge": 0.0, "session": 0.0, "memory": 0.0}
    return Outcome(
        row=LabelledRow(f"text {label} {total} {out_of_scope}", label),
        controller=None,
        confidence=total,
        tier="verify",
        outcome="routed",
        escalate=False,
        latency_ms=1.0,
        llm_calls=0,
        features={"total": total, "margin": total / 2},
        top=top,
        signals={top: signals, "other": {**signals, "semantic": 0.0}},
        out_of_scope=out_of_scope,
    )


def _decisions() -> list[Outcome]:
    """900 in-scope decisions sure and right, 100 at 0.45 (60 right), all with P(out of scope)
    under 0.5; 20 out-of-scope ones at 0.45 that the semantic model reads as out of scope."""
    rng = np.random.default_rng(0)
    rows = [_outcome("a", "a", 0.9, float(rng.uniform(0.0, 0.3))) for _ in range(900)]
    rows += [
        _outcome("a", "a" if i < 60 else "b", 0.45, float(rng.uniform(0.0, 0.5)))
        for i in range(100)
    ]
    rows += [_outcome(None, "a", 0.45, float(rng.uniform(0.85, 0.99))) for _ in range(20)]
    return rows


def test_out_of_scope_rows_set_their_own_bar_not_where_asking_back_starts() -> None:
    rows = _decisions()
    calibrator, fitted = fit_routing(rows, source="test", share=0.1, prior=PRIOR, learn=False)
    # The in-scope decisions at 0.45 are right 60% of the time: routing them costs less than
    # asking back, whatever the out-of-scope rows do (before, they were all asked back).
    assert calibrator.apply(0.45, margin=0.225) >= fitted.ask_below
    # The out-of-scope rows are declared by the bar instead, hardly any in-scope one.
    bar = fitted.out_of_scope_above
    assert bar is not None and bar < 0.85
    assert sum(o.out_of_scope >= bar for o in rows if o.row.label is not None) <= 20


def test_the_bar_needs_out_of_scope_rows_and_never_overrules_the_fast_path() -> None:
    # No out-of-scope decision: nothing says what such messages look like.
    args = {"ask_below": 0.3, "fast": 0.8}
    assert out_of_scope_bar([0.1, 0.9], [0.5, 0.5], [True, True], [False, False], **args) is None
    # 500 in-scope decisions (P(out of scope) spread under 0.5) and 10 out-of-scope ones.
    p = [*np.linspace(0.0, 0.5, 500), *np.linspace(0.9, 0.99, 10)]
    right, outside = [True] * 500 + [False] * 10, [False] * 500 + [True] * 10
    # Out-of-scope messages the fast path takes anyway: declaring them changes nothing, so no
    # bar is worth turning an in-scope message away.
    confidence = [0.5] * 500 + [0.9] * 10
    assert out_of_scope_bar(p, confidence, right, outside, **args) is None
    # Below the fast path they are declared, at a bar between the two kinds.
    bar = out_of_scope_bar(p, [0.5] * 510, right, outside, **args)
    assert bar is not None and 0.5 < bar < 0.9


def _sigmoid(logits: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-logits)))


def test_the_bar_is_the_same_whichever_texts_a_fold_decides() -> None:
    """A large home decides one held-out fold: of CLINC150's 93 out-of-scope rows, 19, and 2,850
    of its 14,000 in-scope ones. Which ones is the fold's order, and the bar chosen on them
    alone moved with it (0.934 -> 0.898). The semantic model scored the rest out of fold too
    (its cross-fitted training texts): fitted on all the scores, the bar is the same whichever
    texts the fold decided."""
    rng = np.random.default_rng(3)
    inside = _sigmoid(rng.normal(-3.0, 1.5, 14000))
    outside = _sigmoid(rng.normal(3.0, 2.0, 93))
    # No fast path: every message may be declared.
    arguments = {"source": "test", "share": 0.1, "prior": PRIOR, "learn": False, "fast": 1.0}
    bars = []
    for order in (1, 2):
        mixed = np.random.default_rng(order)
        ins, outs = mixed.permutation(inside), mixed.permutation(outside)
        rows = [_outcome("a", "a", 0.6, float(p)) for p in ins[:2850]]
        rows += [_outcome(None, "a", 0.45, float(p)) for p in outs[:19]]
        alone = fit_routing(rows, **arguments)[1].out_of_scope_above
        scored = CrossFitted(inside=ins[2850:], outside=outs[19:])
        both = fit_routing(rows, **arguments, scored=scored)[1].out_of_scope_above
        bars.append((alone, both))
    (alone_1, both_1), (alone_2, both_2) = bars
    assert alone_1 is not None and alone_2 is not None and both_1 is not None
    assert abs(alone_1 - alone_2) > 0.005  # the fold's own rows alone: the bar moves
    assert both_2 == pytest.approx(both_1, abs=1e-6)
    # Turning an in-scope message away costs 2, an out-of-scope one asked back 1: declared
    # where a text is twice as likely out of scope as not at the stated share.
    assert 0.6 < both_1 < 0.9


@pytest.mark.slow
def test_the_home_declares_at_its_fitted_bar(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # P(out of scope) about 0.86 on the built-in model, under its own level (0.93): not
    # declared (turned away only for fitting no controller).
    text = "the meeting notes from monday"
    assert main(["ask", text, "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert not any("declares it out of scope" in step for step in before["tier_path"])
    # A fit that chose a bar of 0.5 (kept in routing-fit.json): the next ask declares it.
    FittedRouting(0.4, 0.0, "a test's fit", out_of_scope_above=0.5).save(isolated_env)
    assert json.loads((isolated_env / FILE).read_text())["out_of_scope_above"] == 0.5
    assert main(["ask", text, "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["outcome"] == "fallback" and after["controller"] is None
    assert any("declares it out of scope" in step for step in after["tier_path"])
    # The configuration still wins over the fit.
    (isolated_env / "brain.toml").write_text("[routing]\nout_of_scope_above = 0.99\n")
    assert main(["ask", text, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert not any("declares it out of scope" in step for step in again["tier_path"])


TWIN = """
name: {name}
label: {title} desk
description: The office {name}, its lunch menu, opening hours and food.
keywords: [lunch, menu, food]
examples: ["what is on the lunch menu today", "is the {name} open", "the food at lunch was cold"]
handler: none
"""


@pytest.mark.slow
def test_a_message_declared_out_of_scope_is_not_asked_between_tied_weak_plans(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two controllers alike in every word: the dynamic tier's drafts for a message the model
    declares out of scope fail on that verdict and tie. Before, the tie was asked back ("Cafeteria
    desk or Canteen desk?") for a lunch with an aunt; the verdict now stands."""
    (isolated_env / "controllers").mkdir(parents=True)
    for name in ("cafeteria", "canteen"):
        spec = TWIN.format(name=name, title=name.title())
        (isolated_env / "controllers" / f"{name}.yaml").write_text(spec, encoding="utf-8")
    FittedRouting(0.4, 0.0, "a test's fit", out_of_scope_above=0.3).save(isolated_env)
    assert main(["ask", "lunch with my aunt on sunday", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert any("declares it out of scope" in step for step in decision["tier_path"])
    assert any("as likely" in step for step in decision["tier_path"])  # the drafts tied
    assert (decision["outcome"], decision["controller"]) == ("fallback", None)
    assert "Cafeteria desk" not in (decision["clarification"] or "")
