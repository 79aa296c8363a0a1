"""Labelled rows: JSON lines (or a JSON array) of `{"text": ..., <label>: ...}`.

A label of `oos`, `none`, `null`, `out_of_scope`, "" or null means no controller should take
the message; an optional boolean `urgent` says whether it must be escalated to on-call. Read by
`brain eval` (brain.evaluation) and by the training data (brain.training).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import BrainError

#: Label values that mean "no controller should take this".
OUT_OF_SCOPE = frozenset({"oos", "none", "null", "out_of_scope", ""})
#: Label fields tried, in order, when none is given.
LABEL_FIELDS = ("label", "controller", "intent")


class LabelledFileError(BrainError):
    """A labelled file cannot be read as asked; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class LabelledRow:
    """One message and the controller that should take it (None: none should)."""

    text: str
    label: str | None
    #: Must the message be escalated to on-call? None when the file does not say
    #: (an optional boolean field `urgent`).
    urgent: bool | None = None
    #: What kind of escalation case it is ("security", "outage", "resolved_alert", ...), when
    #: the row says (an optional string field `kind`).
    kind: str | None = None


def normalise_label(value: object) -> str | None:
    """A label string, or None for out of scope."""
    if value is None:
        return None
    text = str(value).strip()
    return None if text.lower() in OUT_OF_SCOPE else text


def read_rows(
    path: Path | str,
    label_field: str | None = None,
    *,
    on_bad_row: Callable[[str], None] | None = None,
) -> tuple[list[LabelledRow], str]:
    """Rows of a JSON-lines file (or a JSON array) and the label field used.

    A bad line or row raises LabelledFileError, or, with `on_bad_row`, is reported to it and
    skipped. An unreadable file, or one without rows or a label field, always raises.
    """

    def bad(message: str) -> None:
        if on_bad_row is None:
            raise LabelledFileError(message)
        on_bad_row(message)

    source = Path(path)
    try:
        raw = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelledFileError(f"cannot read {source}: {exc}") from exc
    records: list[Any]
    stripped = raw.lstrip()
    if stripped.startswith("["):
        try:
            records = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LabelledFileError(f"{source}: not valid JSON: {exc}") from exc
    else:
        records = []
        for number, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                bad(f"{source} line {number}: not valid JSON: {exc.msg}")
    if not records:
        raise LabelledFileError(f"{source} has no rows")
    field_name = label_field or next(
        (f for f in LABEL_FIELDS if isinstance(records[0], dict) and f in records[0]), None
    )
    if field_name is None:
        raise LabelledFileError(
            f"{source}: no label field found (tried {', '.join(LABEL_FIELDS)}); use --label FIELD"
        )
    rows = []
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            bad(f"{source} row {number}: expected an object with text and a label")
            continue
        text = record.get("text")
        if not isinstance(text, str) or not text.strip():
            bad(f"{source} row {number}: 'text' is missing or empty")
            continue
        if field_name not in record:
            bad(f"{source} row {number}: label field {field_name!r} is missing")
            continue
        # `escalate` (must on-call be paged?) or its older name `urgent`.
        urgent = record.get("escalate", record.get("urgent"))
        if urgent is not None and not isinstance(urgent, bool):
            bad(f"{source} row {number}: 'escalate' / 'urgent' must be true or false")
            continue
        kind = record.get("kind")
        rows.append(
            LabelledRow(
                text=text,
                label=normalise_label(record[field_name]),
                urgent=urgent,
                kind=kind if isinstance(kind, str) else None,
            )
        )
    return rows, field_name


__all__ = [
    "LABEL_FIELDS",
    "OUT_OF_SCOPE",
    "LabelledFileError",
    "LabelledRow",
    "normalise_label",
    "read_rows",
]
