"""Persistent memory: similarity-gated, 90-day decay, other users' lessons weigh less."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.memory.lessons import CORRECTION_RIGHT, CORRECTION_WRONG, LessonRecall
from core.config import Settings
from core.records import Decision
from core.stores import open_stores

NAMES = ["consultation", "ticket", "incident"]


@pytest.fixture
def store(tmp_path: Path, make_decision: Callable[..., Decision]) -> LessonRecall:
    memory = LessonRecall(open_stores(Settings(home=tmp_path)).lessons)
    lesson = make_decision(
        text="order 88123 money not arrived yet, what is going on?",
        channel="D1",
        controller="consultation",
    )
    memory.add(
        controller="consultation",
        weight=CORRECTION_WRONG,
        kind="correction-wrong",
        decision=lesson,
        vector=None,
        ids=[],
    )
    memory.add(
        controller="ticket",
        weight=CORRECTION_RIGHT,
        kind="correction-right",
        decision=lesson,
        vector=None,
        ids=["2025060300011279027"],
    )
    return memory


def _signal(store: LessonRecall, text: str, **kwargs: object) -> dict[str, float]:
    values, _ = store.signal(
        text,
        vector=None,
        ids=kwargs.get("ids", []),  # type: ignore[arg-type]
        user=str(kwargs.get("user", "u1")),
        names=NAMES,
        now=kwargs.get("now"),  # type: ignore[arg-type]
    )
    return dict(zip(NAMES, values.tolist(), strict=True))


def test_similar_message_is_influenced_and_unrelated_one_is_not(store: LessonRecall) -> None:
    similar = _signal(store, "order 88123 money not arrived yet, what's going on")
    unrelated = _signal(store, "the printer on floor 3 is jammed again")

    assert similar["consultation"] == pytest.approx(0.5 + CORRECTION_WRONG)
    assert similar["ticket"] == pytest.approx(0.5 + CORRECTION_RIGHT)
    assert similar["incident"] == 0.5
    assert unrelated == {name: 0.5 for name in NAMES}


def test_the_same_ticket_id_makes_messages_related(store: LessonRecall) -> None:
    values = _signal(store, "totally different words", ids=["2025060300011279027"])

    assert values["ticket"] == pytest.approx(0.5 + CORRECTION_RIGHT)


def test_lessons_older_than_90_days_weigh_half(store: LessonRecall) -> None:
    later = datetime.now(UTC) + timedelta(days=91)
    values = _signal(store, "order 88123 money not arrived yet, what's going on", now=later)

    assert values["ticket"] == pytest.approx(0.5 + CORRECTION_RIGHT / 2)


def test_another_users_lesson_applies_only_once_enough_users_agree(
    store: LessonRecall, tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    """Scope by agreement: u1's lesson is u1's; after two more users taught it, everyone's."""
    reopened = LessonRecall(open_stores(Settings(home=tmp_path)).lessons, agreement=3)
    text = "order 88123 money not arrived yet, what's going on"
    assert len(reopened) == 2
    assert _signal(reopened, text, user="u9")["ticket"] == 0.5

    for teacher in ("u2", "u3"):
        lesson = make_decision(text=f"order 4711 money not arrived yet ({teacher})")
        reopened.add(
            controller="ticket",
            weight=CORRECTION_RIGHT,
            kind="correction-right",
            decision=lesson,
            vector=None,
            ids=[],
            user=teacher,
        )
    assert _signal(reopened, text, user="u9")["ticket"] > 0.5


def test_a_lesson_written_by_another_process_is_seen_without_reopening(
    store: LessonRecall, tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    """The running bot's store follows the lesson feed that `brain feedback` writes to."""
    other = LessonRecall(open_stores(Settings(home=tmp_path)).lessons)
    lesson = make_decision(text="the coffee machine on floor 2 is leaking", user="u1")
    other.add(
        controller="incident",
        weight=CORRECTION_RIGHT,
        kind="correction-right",
        decision=lesson,
        vector=None,
        ids=[],
    )

    assert len(store.entries()) == 3
    assert _signal(store, "the coffee machine on floor 2 is leaking")["incident"] > 0.5
    other.forget([e.memory_id for e in other.entries() if e.controller == "incident"])
    assert len(store.entries()) == 2
