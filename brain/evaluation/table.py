"""A desk's exported history as labelled rows: CSV (Jira Service Management, ServiceNow, a
spreadsheet) or JSON lines, read for `brain controllers import`.

Every problem is a `TableError` naming the file, the line and the column, raised before
anything is written, so a bad export leaves the home as it was: a missing column, an empty
label or text, a cell over MAX_CELL_CHARS, a line that is not JSON, bytes that are not UTF-8.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

from brain.learning.labelled import LabelledRow, normalise_label
from core.errors import BrainError

#: Longest cell taken (characters): a ticket is a few pages at most; a 1 MB cell is an
#: attachment or a broken export, and would weigh as much as thousands of tickets.
MAX_CELL_CHARS = 100_000
#: Rows taken from one file.
MAX_ROWS = 1_000_000
CSV_SUFFIXES = frozenset({".csv", ".tsv"})


class TableError(BrainError, ValueError):
    """The file cannot be imported as asked; the message names the line and what to fix."""


def read_table(path: Path | str, text: str, label: str) -> list[LabelledRow]:
    """Every row of `path` as (text, label); labels like `oos` mean no controller."""
    source = Path(path)
    try:
        raw = source.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise TableError(f"cannot read {source}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        line = source.read_bytes()[: exc.start].count(b"\n") + 1
        raise TableError(f"{source} line {line}: not UTF-8 text ({exc.reason})") from exc
    is_csv = source.suffix.lower() in CSV_SUFFIXES or not raw.lstrip().startswith(("{", "["))
    records = _csv_records(raw, source, (text, label)) if is_csv else _json_records(raw, source)
    rows: list[LabelledRow] = []
    for line, record in records:
        for column in (text, label):
            if column not in record:
                known = ", ".join(sorted(record)) or "none"
                raise TableError(f"{source} line {line}: no column {column!r} (columns: {known})")
            value = record[column]
            if value is not None and len(str(value)) > MAX_CELL_CHARS:
                raise TableError(
                    f"{source} line {line}: column {column!r} holds {len(str(value)):,} "
                    f"characters, over the limit of {MAX_CELL_CHARS:,}"
                )
        body = "" if record[text] is None else str(record[text])
        if not body.strip():
            raise TableError(f"{source} line {line}: column {text!r} is empty")
        tag = "" if record[label] is None else str(record[label]).strip()
        if not tag:
            raise TableError(
                f"{source} line {line}: column {label!r} is empty (use 'oos' for a row no "
                "controller should take)"
            )
        rows.append(LabelledRow(text=body, label=normalise_label(tag)))
        if len(rows) > MAX_ROWS:
            raise TableError(f"{source}: more than {MAX_ROWS:,} rows")
    if not rows:
        raise TableError(f"{source} has no rows")
    return rows


def _csv_records(
    raw: str, source: Path, required: tuple[str, ...]
) -> Iterator[tuple[int, dict[str, str | None]]]:
    dialect = "excel-tab" if source.suffix.lower() == ".tsv" else "excel"
    limit = csv.field_size_limit()
    csv.field_size_limit(MAX_CELL_CHARS)  # a longer cell stops the reader at its line
    try:
        reader = csv.reader(io.StringIO(raw, newline=""), dialect=dialect)
        try:
            header = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise TableError(f"{source} line 1: not a CSV header ({exc})") from exc
        columns = [name.strip() for name in header]
        for column in required:
            if column not in columns:
                known = ", ".join(columns) or "none"
                raise TableError(f"{source} line 1: no column {column!r} (columns: {known})")
        while True:
            line = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                if "field larger" in str(exc):
                    raise TableError(
                        f"{source} line {line}: a cell holds over {MAX_CELL_CHARS:,} characters, "
                        "over the limit"
                    ) from exc
                raise TableError(f"{source} line {line}: not valid CSV ({exc})") from exc
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(columns):
                raise TableError(
                    f"{source} line {line}: {len(cells)} cells but {len(columns)} columns"
                )
            yield line, dict(zip(columns, cells, strict=False))
    finally:
        csv.field_size_limit(limit)


def _json_records(raw: str, source: Path) -> Iterator[tuple[int, dict[str, str | None]]]:
    if raw.lstrip().startswith("["):
        try:
            records = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TableError(f"{source} line {exc.lineno}: not valid JSON ({exc.msg})") from exc
        numbered = list(enumerate(records if isinstance(records, list) else [], start=1))
        what = "item"
    else:
        numbered = []
        for number, text in enumerate(raw.splitlines(), start=1):
            if not text.strip():
                continue
            try:
                numbered.append((number, json.loads(text)))
            except json.JSONDecodeError as exc:
                raise TableError(f"{source} line {number}: not valid JSON ({exc.msg})") from exc
        what = "line"
    for number, record in numbered:
        if not isinstance(record, dict):
            raise TableError(f"{source} {what} {number}: expected an object with named fields")
        yield number, {str(k): None if v is None else str(v) for k, v in record.items()}
