"""Organisation lessons as training rows of the semantic model (seed 000, "scope by agreement").

When `[memory] agreement_users` distinct users moved similar messages to the same controller,
the lesson is the organisation's (`brain.preference`): it applies to everyone through memory,
and the corrected messages also become training examples of that controller, so the semantic
model itself learns them (`brain.org_training` refits it in the background).

The grouping is the one agreement and `brain memory conflicts` use: a correction's group is the
corrections of similar messages (`preference.similar_moves`), each user's latest counting once
(`preference.latest_per_user`). A group whose users all moved their messages to one controller,
with at least `agreement` users, gives its messages as rows; a correction that belongs to any
group whose users disagree is never trained on (a conflict is reported, not learned).

The rows are derived from the lessons each time, never stored on their own: a forgotten user's
lessons leave the lesson store, so their messages leave the rows (and a group that falls below
agreement leaves with them). Texts are the lessons' own, redacted when the lesson was stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from brain.labelled import LabelledRow
from brain.memory import MemoryEntry, MemoryStore
from brain.preference import MOVED_TO, latest_per_user, similar_moves


@dataclass(frozen=True, slots=True)
class OrgRow:
    """One corrected message the organisation agreed on: a training example of `controller`."""

    text: str
    #: The controller the users moved such messages to (the row's label).
    controller: str
    #: The lesson the text comes from, and who taught it.
    memory_id: str
    user: str
    created_at: str
    #: The users who agreed (distinct teachers of the row's group), sorted.
    users: tuple[str, ...]

    def labelled(self) -> LabelledRow:
        """The row as a labelled training row (`brain.training`)."""
        return LabelledRow(self.text, self.controller)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "controller": self.controller,
            "memory_id": self.memory_id,
            "user": self.user,
            "created_at": self.created_at,
            "users": list(self.users),
        }


def org_rows(
    store: MemoryStore,
    *,
    names: Sequence[str],
    min_similarity: float,
    agreement: int,
) -> list[OrgRow]:
    """The corrected messages of every agreed, conflict-free group, oldest first; one row per
    (text, controller)."""
    known = set(names)
    moves = [e for e in store.entries() if e.kind == MOVED_TO]
    agreed: dict[str, tuple[MemoryEntry, tuple[str, ...]]] = {}
    disputed: set[str] = set()
    for entry in moves:
        latest = latest_per_user(similar_moves(store, entry, min_similarity=min_similarity))
        targets: dict[str, set[str]] = {}
        for other, _ in latest.values():
            targets.setdefault(other.controller, set()).add(other.user)
        if len(targets) > 1:
            disputed.update(other.memory_id for other, _ in latest.values())
            continue
        controller, users = next(iter(targets.items()))
        if len(users) < agreement or controller not in known:
            continue
        group = tuple(sorted(users))
        for other, _ in latest.values():
            seen = agreed.get(other.memory_id)
            if seen is None or len(group) > len(seen[1]):
                agreed[other.memory_id] = (other, group)
    rows: dict[tuple[str, str], OrgRow] = {}
    for memory_id, (entry, group) in sorted(
        agreed.items(), key=lambda item: (item[1][0].created_at, item[0])
    ):
        if memory_id in disputed or not entry.text.strip():
            continue
        rows.setdefault(
            (entry.text, entry.controller),
            OrgRow(entry.text, entry.controller, memory_id, entry.user, entry.created_at, group),
        )
    return list(rows.values())


def examples_of(rows: Sequence[OrgRow]) -> dict[str, list[str]]:
    """Example texts per controller, as the semantic model's `extra_examples` take them."""
    examples: dict[str, list[str]] = {}
    for row in rows:
        examples.setdefault(row.controller, []).append(row.text)
    return examples


def digest(rows: Sequence[OrgRow]) -> str:
    """What a fit with these rows depends on (their texts and labels), as a short hash."""
    blob = json.dumps([[r.controller, r.text] for r in rows], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
