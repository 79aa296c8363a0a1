"""How feedback items combine with their decision, the same for every backend."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: The fields that make two feedback items "the same feedback" (time and notes aside), with
#: the reason given (`same_feedback`).
IDENTITY = ("kind", "controller", "user", "source")


def same_feedback(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """True when both items say the same thing by the same person through the same surface,
    with the same reason (an item stored before reasons existed has none)."""
    return all(first.get(name) == second.get(name) for name in IDENTITY) and (
        first.get("reason") or ""
    ) == (second.get("reason") or "")


def merged_feedback(
    stored: Sequence[Mapping[str, Any]], incoming: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Stored items first, then incoming ones not already there: an update of a decision
    written from a stale copy never drops feedback another thread or process recorded."""
    merged = [dict(item) for item in stored]
    merged.extend(
        dict(item) for item in incoming if not any(same_feedback(item, s) for s in merged)
    )
    return merged


def add_entry(feedback: list[dict[str, Any]], entry: Mapping[str, Any]) -> bool:
    """Append `entry` unless the same feedback is there; True when it was added."""
    if any(same_feedback(entry, item) for item in feedback):
        return False
    feedback.append(dict(entry))
    return True
