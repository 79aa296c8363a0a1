"""`dense_of`: a hit's stored dense vector as plain floats, or None for anything else."""

from __future__ import annotations

import pytest

from knowledge.vectors.base import DENSE, dense_of


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        ([0.25, -1.5, 0.0], [0.25, -1.5, 0.0]),
        ([1, 2.5], [1.0, 2.5]),  # ints become floats
        ([2**70, 1.0], [float(2**70), 1.0]),  # beyond int64 too
        ([], []),
    ],
)
def test_numbers_come_back_as_floats(stored: list[float], expected: list[float]) -> None:
    found = dense_of({DENSE: stored})
    assert found == expected and all(type(value) is float for value in found)


@pytest.mark.parametrize(
    "vectors",
    [
        None,
        {},
        {"other": [0.5]},
        {DENSE: "0.5"},
        {DENSE: ["0.5", 1.0]},  # a string is not a number, even one that reads as one
        {DENSE: [0.5, None]},
        {DENSE: [[0.5, 1.0]]},
        {DENSE: [0.5, [1.0]]},
        {DENSE: (0.5, 1.0)},
    ],
)
def test_anything_else_is_none(vectors: object) -> None:
    assert dense_of(vectors) is None
