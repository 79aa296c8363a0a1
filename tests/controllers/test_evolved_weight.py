"""An evolved controller's examples weigh as many as the confirmed requests it came from."""

from __future__ import annotations

from pathlib import Path

from brain.semantic.files import cache_key
from controllers.base import example_weight_of
from controllers.evolved import MAX_EXAMPLE_WEIGHT, EvolvedSpec, load_evolved, write_spec


def _spec(cases: list[str]) -> EvolvedSpec:
    return EvolvedSpec(
        name="evolved_room",
        description="Book a meeting room",
        keywords=["room"],
        examples=["book the big room friday", "reserve room 5 for 3pm", "need the room"],
        cases=cases,
    )


def test_three_confirmed_cases_weigh_three_and_change_the_fit_key(tmp_path: Path) -> None:
    write_spec(tmp_path, _spec(["c1", "c2", "c3"]))
    (controller,) = load_evolved(tmp_path).active
    assert example_weight_of(controller) == 3.0
    (tmp_path / "evolved" / "evolved_room.yaml").unlink()
    write_spec(tmp_path, _spec([]))
    (unweighted,) = load_evolved(tmp_path).active
    assert example_weight_of(unweighted) == 1.0
    # A cached fit of the same texts at other weights is not read back as this one's.
    assert cache_key([controller], [], dense=False) != cache_key([unweighted], [], dense=False)


def test_the_weight_is_capped_and_never_below_one(tmp_path: Path) -> None:
    write_spec(tmp_path, _spec([f"c{i}" for i in range(40)]))
    (controller,) = load_evolved(tmp_path).active
    assert example_weight_of(controller) == MAX_EXAMPLE_WEIGHT
    assert example_weight_of(object()) == 1.0
    assert example_weight_of(type("Odd", (), {"example_weight": "lots"})()) == 1.0
