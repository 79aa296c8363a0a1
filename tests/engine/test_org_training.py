"""Organisation lessons become training examples of the semantic model ("scope by
agreement"): refitted off the decision path, swapped into the running brain, seen by other
processes through the fit's cache key, never trained on a conflict, and gone after a forget."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brain.engine import Brain
from brain.learning.control import conflict_views
from brain.learning.org_training import OrgTrainedModel
from core.config import MemoryConfig, Settings
from core.records import Message
from tests.cli_process import brain_out

MOVED = [
    ("U1", "the money for order 88231 has still not arrived"),
    ("U2", "order 99127: funds still not received"),
    ("U3", "the payment for order 55120 never arrived"),
]
#: A fourth user's paraphrases (none of them is a training text).
PARAPHRASES = [
    "money for order 66001 still missing",
    "payment for order 70011 is still pending, not arrived",
    "funds for purchase 31337 not received",
]
#: Waiting on the refit thread's idle event; a bound only so a broken refit fails the test.
REFIT_BOUND_S = 1800
#: Waiting on a closed brain's refit thread to end; a bound only so a thread that never ends fails.
CLOSE_BOUND_S = 60


@pytest.fixture
def learning(home: Path) -> Iterator[Brain]:
    """A warmed brain (it follows the lessons) refitting at once after a correction."""
    settings = Settings(home=home, memory=MemoryConfig(org_refit_delay_s=0))
    with Brain(settings) as opened:
        opened.org_training.follow()
        yield opened


def _top(scores: dict[str, float]) -> str:
    return max(scores, key=lambda name: scores[name])


def _correct(brain: Brain, moves: list[tuple[str, str]], to: str) -> None:
    for index, (user, text) in enumerate(moves):
        decision = brain.decide(Message(text, user=user, channel=f"C-move-{index}"))
        brain.feedback(decision.decision_id, "correct", controller=to, user=user)


@pytest.mark.slow
def test_agreed_corrections_train_the_semantic_model_and_a_forget_untrains_it(
    learning: Brain, home: Path
) -> None:
    brain = learning
    base = brain.semantic_model
    assert base is not None
    before = {text: _top(dict(base.score(text))) for text in PARAPHRASES}
    assert "consultation" not in before.values(), before

    _correct(brain, MOVED[:2], "consultation")
    assert brain.org_training.wait_idle(REFIT_BOUND_S)
    assert brain.org_training.rows() == []  # two users are not the organisation
    assert brain.org_training.model() is None

    _correct(brain, MOVED[2:], "consultation")
    assert brain.org_training.wait_idle(REFIT_BOUND_S), brain.org_training.last_error
    model = brain.semantic_model
    assert isinstance(model, OrgTrainedModel), brain.org_training.last_error
    assert sorted(row.text for row in model.rows) == sorted(text for _, text in MOVED)
    assert {row.controller for row in model.rows} == {"consultation"}

    # The model itself learned it: the fourth user's paraphrases now score consultation first.
    after = {text: _top(dict(model.score(text))) for text in PARAPHRASES}
    assert list(after.values()).count("consultation") >= 2, after
    learned = [text for text, top in after.items() if top == "consultation"]
    decision = brain.decide(Message(learned[0], user="U4", channel="C-new"))
    assert decision.controller == "consultation", decision.tier_path
    assert "the semantic model learned from 3 organisation lesson(s)" in decision.rationale
    assert "the semantic model learned" in json.dumps(brain.explain(decision.decision_id).to_dict())

    # Another process (the CLI) finds the same fit by its key and lists the rows.
    shown = json.loads(brain_out("memory", "show", "--org", "--json"))
    assert shown["fitted"] is True and shown["key"] == model.key
    assert sorted(row["user"] for row in shown["rows"]) == ["U1", "U2", "U3"]
    assert (home / "models" / f"semantic-{model.key}.npz").is_file()

    # Forgetting U1: the rows lose the message (and the group its agreement), the fit that
    # held it is deleted, and the brain goes back to the model without the lessons.
    brain.forget_user("U1")
    assert not (home / "models" / f"semantic-{model.key}.npz").exists()
    assert brain.org_training.wait_idle(REFIT_BOUND_S)
    assert brain.org_training.rows() == []
    assert brain.semantic_model is base
    for path in (home / "models").rglob("*"):
        if path.is_file():
            assert b"88231" not in path.read_bytes(), path


def test_a_split_group_is_not_trained_on(learning: Brain) -> None:
    brain = learning
    against = [
        ("U4", "the money for order 12345 has not arrived yet"),
        ("U5", "payment for order 40404 still not received"),
    ]
    _correct(brain, against, "ticket")
    _correct(brain, MOVED, "consultation")  # three against two: no clear majority
    assert brain.org_training.wait_idle(REFIT_BOUND_S)

    assert conflict_views(brain)  # reported ...
    assert brain.org_training.rows() == []  # ... and not learned
    assert brain.org_training.model() is None
    assert brain.org_training.refits == 0


def test_a_clear_majority_of_a_mixed_neighbourhood_trains_the_model(learning: Brain) -> None:
    """Many people's corrections of a desk's varied messages never form a group whose users
    all agree: one dissenter used to keep three people's lesson out of the refit for good."""
    brain = learning
    _correct(brain, [("U4", "the money for order 12345 has not arrived yet")], "ticket")
    _correct(brain, MOVED, "consultation")
    assert brain.org_training.wait_idle(REFIT_BOUND_S), brain.org_training.last_error

    assert conflict_views(brain)  # the dissent is still reported ...
    rows = brain.org_training.rows()
    # ... and learned by no one, while the clear majority's messages are training rows
    assert sorted(row.text for row in rows) == sorted(text for _, text in MOVED)
    assert {row.controller for row in rows} == {"consultation"}
    assert all(row.users == ("U1", "U2", "U3") for row in rows)
    model = brain.semantic_model
    assert isinstance(model, OrgTrainedModel), brain.org_training.last_error
    after = [_top(dict(model.score(text))) for text in PARAPHRASES]
    assert after.count("consultation") >= 2, after


def test_one_users_many_corrections_teach_the_refit_nothing(learning: Brain) -> None:
    """One person (or one person's clicks) cannot steer everyone's routing through the refit,
    however many of their messages they correct."""
    brain = learning
    many = [
        "the money for order 88231 has still not arrived",
        "order 99127: funds still not received",
        "the payment for order 55120 never arrived",
        "money for order 77001 is still missing",
        "order 31000 paid but the money never came",
    ]
    _correct(brain, [("U1", text) for text in many], "consultation")
    assert brain.org_training.wait_idle(REFIT_BOUND_S)

    assert brain.org_training.rows() == []
    assert brain.org_training.model() is None
    stranger = brain.decide(Message(PARAPHRASES[0], user="U9", channel="C-stranger"))
    assert stranger.controller != "consultation", stranger.rationale


@pytest.mark.slow
def test_a_refit_after_organisation_lessons_reaches_every_replica(
    postgres_settings: Settings, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from brain.semantic.scorer import SemanticScorer
    from core.files import copy_tree

    org_fits: list[int] = []
    real_fit = SemanticScorer._fit.__func__  # type: ignore[attr-defined]

    def counted(cls: type[SemanticScorer], *args: Any, **kwargs: Any) -> SemanticScorer:
        if args[-1]:  # weighted rows: a fit with organisation lessons
            org_fits.append(len(args[-1]))
        scorer: SemanticScorer = real_fit(cls, *args, **kwargs)
        return scorer

    monkeypatch.setattr(SemanticScorer, "_fit", classmethod(counted))
    other_home = tmp_path / "replica-2"
    copy_tree(home, other_home, dirs_exist_ok=True)
    memory = MemoryConfig(org_refit_delay_s=0)
    first_settings = postgres_settings.model_copy(update={"home": home, "memory": memory})
    second_settings = postgres_settings.model_copy(update={"home": other_home, "memory": memory})
    with Brain(first_settings) as first, Brain(second_settings) as second:
        first.org_training.follow()
        second.org_training.follow()
        assert second.org_training.model() is None

        _correct(first, MOVED, "consultation")  # all through the first replica
        assert first.org_training.wait_idle(REFIT_BOUND_S), first.org_training.last_error
        fitted = first.org_training.model()
        assert fitted is not None

        # The second replica's next look (decisions look at most once per delay) finds the
        # lessons, and takes the first replica's fit from the database instead of fitting.
        second.org_training.schedule(delay=0.0)
        assert second.org_training.wait_idle(REFIT_BOUND_S), second.org_training.last_error
        taken = second.org_training.model()
        assert taken is not None and taken.key == fitted.key
        assert org_fits == [3]
        assert (other_home / "models" / f"semantic-{fitted.key}.npz").is_file()


def _refit_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "brain-org-refit"]


def test_closing_a_brain_ends_its_refit_thread(home: Path) -> None:
    """The refit thread holds the brain's models and stores: a closed brain's thread left
    waiting kept them for the rest of the process, one more per brain a process opened (a
    replay's sandboxes, a bot restarted in-process)."""
    before = set(_refit_threads())
    settings = Settings(home=home, memory=MemoryConfig(org_refit_delay_s=0))
    with Brain(settings) as opened:
        opened.org_training.follow()
        assert opened.org_training.wait_idle(REFIT_BOUND_S)
        started = [t for t in _refit_threads() if t not in before]
        assert len(started) == 1  # a following brain refits in the background
        opened.org_training.schedule(delay=3600.0)  # a check far ahead: the thread waits
    started[0].join(CLOSE_BOUND_S)
    assert not started[0].is_alive()
