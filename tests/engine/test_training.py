"""Labelled routing examples and the shipped calibration, through the Brain API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.engine import Brain
from core.records import Message
from tests.extras import needs_torch

PAYROLL = """
name: payroll
label: Payroll desk
description: Salary and payslips of employees.
keywords: [payroll, 工资]
examples: ["Where is my payslip?", "我的工资条在哪里看"]
handler: none
"""

BONUS_ROWS = [
    "the thirteenth-month bonus did not show up on my December statement",
    "my overtime hours from November are missing from this month's pay",
    "why was my net pay lower after the tax bracket change",
    "the year-end bonus was paid into my old bank account",
    "overtime compensation for the weekend release is not on my pay statement",
    "年终奖为什么还没发到账户",
    "加班费没有算进这个月的薪水",
    "个税扣多了，实发工资少了两百",
]
QUESTION = "my overtime pay and the year-end bonus are both missing from the statement"


def _payroll_semantic(home: Path) -> float:
    (home / "controllers").mkdir(exist_ok=True)
    (home / "controllers" / "payroll.yaml").write_text(PAYROLL, encoding="utf-8")
    with Brain.open() as brain:
        decision = brain.decide(Message(QUESTION))
    return decision.signals["payroll"]["semantic"]


@pytest.mark.slow
def test_home_training_rows_teach_a_controller_more_ways_to_be_asked(home: Path) -> None:
    before = _payroll_semantic(home)
    training = home / "training"
    training.mkdir()
    with (training / "payroll.jsonl").open("w", encoding="utf-8") as handle:
        for text in BONUS_ROWS:
            handle.write(json.dumps({"text": text, "controller": "payroll"}) + "\n")
        handle.write("not json\n")  # a bad line is reported by the reader, not fatal
    (training / "broken.jsonl").write_text("{oops", encoding="utf-8")
    after = _payroll_semantic(home)
    assert after > before + 0.2, (before, after)


def test_the_shipped_calibration_is_used_until_the_home_has_its_own(home: Path) -> None:
    with Brain.open() as brain:
        assert brain.calibration.status.startswith("shipped")
        decision = brain.decide(Message("process ticket 2025060300011279027"))
    assert decision.tier == "fast"
    assert decision.controller == "ticket"
    assert 0.8 <= decision.confidence < 1.0  # calibrated, never claims certainty
    (home / "brain.toml").write_text("[training]\nshipped = false\n", encoding="utf-8")
    with Brain.open() as brain:
        assert brain.calibration.status.startswith("default")


def _travel_desk(examples: int) -> str:
    """A YAML controller with `examples` templated travel requests."""
    things = ["flight", "hotel booking", "train ticket", "visa letter", "rental car", "per diem"]
    frames = [
        "my {} is wrong",
        "can you change the {}",
        "the {} did not come through",
        "who approves the {}",
        "question about my {}",
        "I need a {} for next week",
        "cancel the {} please",
        "is the {} confirmed",
    ]
    texts = [frame.format(thing) for thing in things for frame in frames]
    texts = (texts * (examples // len(texts) + 1))[:examples]
    lines = "\n".join(f"  - {json.dumps(f'{t} ({i})')}" for i, t in enumerate(texts))
    return (
        "name: travel\nlabel: Travel desk\ndescription: Business trips, bookings and visas.\n"
        f"keywords: [travel, flight, hotel]\nexamples:\n{lines}\nhandler: none\n"
    )


@needs_torch
def test_tune_encoder_makes_the_brain_read_through_a_tuned_encoder(home: Path) -> None:
    (home / "controllers").mkdir(exist_ok=True)
    (home / "controllers" / "travel.yaml").write_text(_travel_desk(200), encoding="utf-8")
    config = home / "brain.toml"
    config.write_text("[training]\nshipped = false\n", encoding="utf-8")
    with Brain.open() as brain:
        assert brain.semantic_model.tail is None  # off by default
    config.write_text("[training]\nshipped = false\ntune_encoder = true\n", encoding="utf-8")
    with Brain.open() as brain:
        assert brain.semantic_model.tail is not None
        decision = brain.decide(Message("please book me a hotel and a flight to Lyon"))
    assert decision.candidates[0] == "travel"
