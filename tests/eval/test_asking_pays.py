"""Where a fit on labelled history starts asking back reads what a question is worth from the
held-out decisions: a question names at most three controllers, and when none of them is the
right one the asker is routed again as after a wrong route. On 8,000 IT tickets the decisions
asked back (calibrated 0.45, right 44% of the time when routed) were asked about at the cost of
a turn each as if every question offered the right category; 9% did not."""

from __future__ import annotations

from dataclasses import replace

from brain.evaluation.fitting import fit_routing
from brain.evaluation.metrics import Outcome
from brain.learning.labelled import LabelledRow
from tests.eval.test_out_of_scope_bar import PRIOR
from tests.eval.test_out_of_scope_bar import _outcome as decision


def _outcome(top: str, semantic: dict[str, float], index: int) -> Outcome:
    """An in-scope decision labelled "a" whose candidates score `semantic` (the best: `top`)."""
    signals = {
        name: {"semantic": value, "keyword": 0.0, "knowledge": 0.0, "session": 0.0, "memory": 0.0}
        for name, value in semantic.items()
    }
    decided = decision("a", top, max(semantic.values()), 0.0)
    return replace(decided, row=LabelledRow(f"ticket {index}", "a"), signals=signals)


def _decisions(missed: int) -> list[Outcome]:
    """900 sure and right; 100 unsure (0.45), 44 right, 56 wrong, of which `missed` have the
    right controller behind three others (a question would not offer it)."""
    rows = [_outcome("a", {"a": 0.9, "b": 0.1}, i) for i in range(900)]
    rows += [_outcome("a", {"a": 0.45, "b": 0.4}, 900 + i) for i in range(44)]
    for i in range(56):
        behind = (
            {"b": 0.45, "c": 0.44, "d": 0.43, "a": 0.1} if i < missed else {"b": 0.45, "a": 0.4}
        )
        rows.append(_outcome("b", behind, 1000 + i))
    return rows


def test_asking_back_starts_where_a_question_pays_for_itself() -> None:
    arguments = {"source": "test", "share": 0.1, "prior": PRIOR, "learn": False}
    # Every question would name the right controller: one turn beats a wrong route 56% of the
    # time (2 turns), so the unsure decisions are asked about.
    calibrator, fitted = fit_routing(_decisions(missed=0), **arguments)
    unsure = calibrator.apply(0.45, margin=0.225)
    assert unsure < fitted.ask_below
    # A fifth of those questions miss it: asking costs 1 + 0.2 x 2 = 1.4 turns on average,
    # routing 1.12. They are routed (before, they were still asked about).
    calibrator, fitted = fit_routing(_decisions(missed=20), **arguments)
    assert calibrator.apply(0.45, margin=0.225) >= fitted.ask_below
    assert calibrator.apply(0.9, margin=0.45) >= fitted.ask_below
