"""One-off: write the intent taxonomy, today Python data in brain/intent/taxonomy.py, to
brain/intent/taxonomy.yaml, so the data is generated from the code rather than retyped."""

from __future__ import annotations

from pathlib import Path

import yaml

from brain.intent.taxonomy import INTENTS

TARGET = Path(__file__).resolve().parent.parent / "brain" / "intent" / "taxonomy.yaml"
HEADER = """\
# The intent taxonomy: broad intents, their fine-grained children and stand-alone intents.
# Validated on load by brain/intent/taxonomy.py (unknown parents, duplicate names, empty
# keywords and unknown keys are refused, naming the entry).
#
# name         lower_snake_case, unique
# parent       the broad intent this one refines (omit for broad and stand-alone intents)
# group        the controller domain that usually takes the intent: a routing hint, not a table
# description  one sentence, shown to the LLM voter
# keywords     cues of the keyword voter (case-insensitive substrings)
# examples     sentences of the semantic voter, English and Chinese
"""


def _dump(data: dict[str, object], *, flow: bool | None) -> str:
    return yaml.safe_dump(
        data, allow_unicode=True, sort_keys=False, width=84, default_flow_style=flow
    )


def main() -> None:
    parts = [HEADER]
    group = None
    for intent in INTENTS:
        if intent.group != group:
            group = intent.group
            parts.append(f"\n# --- {group} " + "-" * max(3, 90 - len(group)) + "\n")
        entry: dict[str, object] = {"name": intent.name}
        if intent.parent is not None:
            entry["parent"] = intent.parent
        entry["group"] = intent.group
        entry["description"] = intent.description
        text = _dump(entry, flow=False)
        text += _dump({"keywords": list(intent.keywords)}, flow=None)
        text += _dump({"examples": list(intent.examples)}, flow=False)
        lines = text.splitlines()
        parts.append("\n".join(["- " + lines[0], *("  " + line for line in lines[1:])]) + "\n")
    TARGET.write_text("".join(parts), encoding="utf-8")


if __name__ == "__main__":
    main()
