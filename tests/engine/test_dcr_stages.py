"""Draft, critique and refine on hand-made situations (no model): what each stage concludes."""

from __future__ import annotations

from brain.dynamic.critique import critique
from brain.dynamic.draft import Constraints, draft
from brain.dynamic.refine import refine
from brain.dynamic.situation import Situation
from brain.routing.plan import Candidate
from core.records import DryRunRecord, IntentResult, SignalScores

FEEDS = {"alarm": ("ticket", "incident")}


def _situation(
    signals: dict[str, dict[str, float]],
    *,
    ids: dict[str, str] | None = None,
    failing: tuple[str, ...] = (),
) -> Situation:
    names = ["alarm", "ticket", "consultation", "access"]
    candidates = [Candidate(n, n.title(), 0.3 - 0.05 * i) for i, n in enumerate(names)]
    return Situation(
        text="CPU alarm on settlement-batch-02, ticket 2025060300011279027 opened for it",
        intent=IntentResult.from_dict({}, urgency="low", entities={}),
        entities={"host": ["settlement-batch-02"]},
        candidates=candidates,
        signals={n: SignalScores(signals=signals.get(n, {})) for n in names},
        ids=ids or {},
        vector=None,
        names=names,
        labels={n: n.title() for n in names},
        feeds=FEEDS,
        dry_run=lambda n: DryRunRecord(n, n not in failing, "no" if n in failing else "ok"),
        chinese=False,
    )


def test_clues_for_a_producer_and_a_consumer_draft_a_pipeline_with_its_contract() -> None:
    situation = _situation(
        {"alarm": {"keyword": 0.8, "knowledge": 0.7}, "ticket": {"keyword": 0.6}},
        ids={"2025060300011279027": "ticket"},
    )

    drafts = draft(situation, Constraints())

    best = drafts[0].plan
    assert best.topology == "pipeline" and best.controllers == ["alarm", "ticket"]
    assert [b.describe() for b in best.contract] == ["alarm.summary+data -> ticket.upstream"]
    assert [s.role for s in best.steps] == ["primary", "supporting"]
    checks = critique(drafts[0], drafts[1:], situation)
    assert all(c.ok for c in checks), checks


def test_a_failed_dry_run_excludes_that_controller_in_the_next_round() -> None:
    situation = _situation(
        {"alarm": {"keyword": 0.8, "knowledge": 0.7}, "ticket": {"keyword": 0.6}},
        ids={"2025060300011279027": "ticket"},
        failing=("ticket",),
    )
    constraints = Constraints()
    first = draft(situation, constraints)
    checks = critique(first[0], first[1:], situation)
    boundary = next(c for c in checks if c.name == "boundary")
    assert not boundary.ok and boundary.reason.startswith("ticket's dry-run failed")

    refine(first[0], checks, first[1:], constraints)

    assert constraints.excluded_controllers == {"ticket"}
    second = draft(situation, constraints)
    assert second[0].plan.controllers == ["alarm"]
    assert all(c.ok for c in critique(second[0], second[1:], situation))


def test_one_weak_clue_is_not_enough_to_route() -> None:
    situation = _situation({"consultation": {"keyword": 0.55}})

    drafts = draft(situation, Constraints())

    assert [d.plan.controllers for d in drafts] == [["consultation"]]
    boundary = next(c for c in critique(drafts[0], [], situation) if c.name == "boundary")
    assert not boundary.ok and "do not cover it" in boundary.reason
    # The clue it has is shown as too few, not as the reason it is refused.
    assert "(1 of the 2 needed: its keywords match (0.55))" in boundary.reason


def test_two_equally_backed_plans_tie_and_both_are_ruled_out() -> None:
    situation = _situation(
        {
            "consultation": {"keyword": 0.7, "knowledge": 0.7},
            "access": {"keyword": 0.7, "knowledge": 0.7},
        }
    )
    constraints = Constraints()
    drafts = draft(situation, constraints)
    checks = critique(drafts[0], drafts[1:], situation)
    comparison = next(c for c in checks if c.name == "comparison")
    assert not comparison.ok

    refinement = refine(drafts[0], checks, drafts[1:], constraints)

    assert sorted(refinement.tied) == ["access", "consultation"]
    assert draft(situation, constraints) == []


def test_no_clue_means_no_draft() -> None:
    assert draft(_situation({}), Constraints()) == []


def test_clues_do_not_outweigh_an_out_of_scope_verdict_but_an_identifier_does() -> None:
    signals = {"incident": {"keyword": 0.8, "knowledge": 0.7}}
    situation = _situation({"alarm": signals["incident"]})
    situation.declared_out_of_scope = True
    drafts = draft(situation, Constraints())
    boundary = next(c for c in critique(drafts[0], [], situation) if c.name == "boundary")
    assert not boundary.ok and "out-of-scope verdict" in boundary.reason

    anchored = _situation({"ticket": {"keyword": 0.6}}, ids={"2025060300011279027": "ticket"})
    anchored.declared_out_of_scope = True
    drafts = draft(anchored, Constraints())
    assert all(c.ok for c in critique(drafts[0], [], anchored))
