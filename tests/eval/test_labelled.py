"""`brain.learning.labelled.read_rows`: labelled files for `brain eval` and the training data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.learning.labelled import LabelledFileError, LabelledRow, read_rows


def _write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_label_field_is_found_and_out_of_scope_labels_become_none(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "rows.jsonl",
        json.dumps({"text": "vpn drops", "controller": " access "}),
        "",
        json.dumps({"text": "book a table", "controller": "OOS"}),
        json.dumps({"text": "weather?", "controller": None}),
        json.dumps({"text": "hi", "controller": ""}),
    )
    rows, field = read_rows(path)
    assert field == "controller"
    assert rows == [
        LabelledRow("vpn drops", "access"),
        LabelledRow("book a table", None),
        LabelledRow("weather?", None),
        LabelledRow("hi", None),
    ]


def test_a_json_array_and_an_explicit_label_field(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"text": "a", "intent": "x", "domain": "d"}]), encoding="utf-8")
    assert read_rows(path, "domain") == ([LabelledRow("a", "d")], "domain")


def test_a_bad_row_raises_unless_a_handler_takes_it(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "rows.jsonl",
        json.dumps({"text": "good", "label": "ticket"}),
        "{not json",
        json.dumps(["not", "an", "object"]),
        json.dumps({"text": "   ", "label": "ticket"}),
        json.dumps({"text": "no label here"}),
        json.dumps({"text": "also good", "label": "change"}),
    )
    with pytest.raises(LabelledFileError, match="line 2: not valid JSON"):
        read_rows(path)

    problems: list[str] = []
    rows, field = read_rows(path, on_bad_row=problems.append)
    assert field == "label"
    assert rows == [LabelledRow("good", "ticket"), LabelledRow("also good", "change")]
    assert len(problems) == 4
    assert "line 2" in problems[0]
    assert "row 2: expected an object" in problems[1]
    assert "row 3: 'text' is missing" in problems[2]
    assert "row 4: label field 'label' is missing" in problems[3]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("\n\n", "has no rows"),
        ("[1, 2", "not valid JSON"),
        ('{"text": "hi"}\n', "no label field found"),
    ],
    ids=["missing", "empty", "broken-array", "no-label-field"],
)
def test_a_file_that_cannot_be_used_always_raises(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "rows.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(LabelledFileError, match=message):
        read_rows(path, on_bad_row=lambda problem: None)
