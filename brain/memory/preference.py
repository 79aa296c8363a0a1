"""Memory-assisted understanding (docs/design.md, "Learning from feedback"): a correction
is a preference.

A user who moved a message to another controller has said where messages like it belong. The
next near-identical message from that user goes there (its dry-run checks it can take it);
once enough distinct users (`[memory] agreement_users`, default 3) moved similar messages to
the same controller, it is the organisation's lesson and applies to everyone. Users who moved
similar messages to different controllers disagree: that is a conflict, reported by
`brain memory conflicts` and not applied beyond each user's own preference.

The dual channel's order holds: compliance hard constraints (`[memory] compliance`, e.g.
security incidents always go to `incident`) > the preference from memory > the knowledge
base's and the signals' defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from brain.memory.entry import CONFIRMED, MOVED_TO, Lesson, gram_set
from brain.memory.lessons import LessonRecall
from brain.memory.scan import similarity
from core.text.language import is_chinese

__all__ = ["MOVED_TO", "Conflict", "Preference", "conflicts", "find_preference"]


@dataclass(frozen=True, slots=True)
class Preference:
    """Where memory says a message like this one belongs, and why."""

    controller: str
    #: "user" (the asker's own correction) or "org" (agreed by several users).
    scope: str
    #: The lesson closest to the message (the one named in the rationale).
    lesson: Lesson
    similarity: float
    users: tuple[str, ...]
    #: From the online layer (`brain.memory.online_layer`): the blend of the model's
    #: confidence and the examples' vote for it, and for the model's own first choice.
    odds: tuple[float, float] | None = None

    def describe(self) -> str:
        """The rationale's words for it."""
        snippet = self.lesson.text if len(self.lesson.text) <= 60 else self.lesson.text[:57] + "..."
        day = self.lesson.created_at[:10]
        learned = (
            ""
            if self.odds is None
            else f"; the online layer, the model and the examples seen together, gives it "
            f"{self.odds[0]:.0%}, the model's own choice {self.odds[1]:.0%}"
        )
        if self.scope == "user":
            said = (
                f"you confirmed a message like this ({snippet!r}) belongs to {self.controller}"
                if self.lesson.kind == CONFIRMED
                else f"you moved a message like this ({snippet!r}) to {self.controller}"
            )
            return f"{said} on {day} (your preference, similarity {self.similarity:.2f}{learned})"
        return (
            f"{len(self.users)} people moved messages like this to {self.controller} "
            f"(latest on {day}: {snippet!r}; an organisation lesson, similarity "
            f"{self.similarity:.2f}{learned})"
        )


@dataclass(frozen=True, slots=True)
class Conflict:
    """Users who moved similar messages to different controllers."""

    lesson: Lesson
    #: controller -> the users who moved similar messages there.
    targets: Mapping[str, tuple[str, ...]]


def latest_per_user(
    near: Sequence[tuple[Lesson, float]],
) -> dict[str, tuple[Lesson, float]]:
    """Each user's latest move among similar lessons (a later correction replaces an earlier)."""
    latest: dict[str, tuple[Lesson, float]] = {}
    for entry, factor in near:
        seen = latest.get(entry.user)
        if seen is None or (entry.created_at, factor) > (seen[0].created_at, seen[1]):
            latest[entry.user] = (entry, factor)
    return latest


def find_preference(
    store: LessonRecall | None,
    text: str,
    *,
    vector: np.ndarray | None,
    ids: Sequence[str],
    scenario: str,
    user: str,
    names: Sequence[str],
    min_similarity: float,
    agreement: int,
    top: str | None = None,
    agreed: Mapping[str, tuple[str, ...]] | None = None,
    team: str | None = None,
) -> Preference | None:
    """The asker's own preference for a message like `text`, else the organisation's.

    A lesson applies to a message at least `min_similarity` like its own; one less alike (any
    similarity above the gates) applies when the message is the same mistake: the signals'
    confident choice `top` is none, the controller the lesson moved away from, or the one it
    moved to ("install Slack" is confidently `access`, so a lesson that moved "install Docker"
    from `consultation` to `coding` is not about it). `agreed` maps the corrections the organisation
    agreed on (`brain.learning.org_lessons.org_rows`) to their users: a message like
    any one of them is the organisation's lesson, however the others were worded."""
    if store is None:
        return None
    similar = store.similar(text, vector=vector, ids=ids, scenario=scenario, team=team)
    latin, grams = not is_chinese(text), gram_set(text)
    id_set = {i.upper() for i in ids}

    def alike(entry: Lesson) -> bool:
        if top in (None, entry.moved_from, entry.controller):
            return True
        if id_set & {i.upper() for i in entry.ids}:
            return True  # about the same ticket or asset
        # The same knowledge-base scenario alone is not "like it" against a confident choice.
        own = similarity(entry, vector=vector, grams=grams, latin=latin)
        return own >= min_similarity

    near = [
        (entry, factor)
        for entry, factor in similar
        if entry.kind == MOVED_TO and entry.controller in names and alike(entry)
    ]
    if not near:
        return None
    latest = latest_per_user(near)
    own = latest.get(user)
    if own is not None:
        return Preference(own[0].controller, "user", own[0], own[1], (user,))
    found = _agreed(near, agreed or {}, agreement)
    if found is not None:
        return found
    targets: dict[str, list[tuple[Lesson, float]]] = {}
    for entry, factor in latest.values():
        targets.setdefault(entry.controller, []).append((entry, factor))
    if len(targets) != 1:
        return None  # users disagree: a conflict, not a lesson for everyone
    controller, moves = next(iter(targets.items()))
    if len(moves) < agreement:
        return None
    entry, factor = max(moves, key=lambda move: (move[0].created_at, move[1]))
    users = tuple(sorted(e.user for e, _ in moves))
    return Preference(controller, "org", entry, factor, users)


def _agreed(
    near: Sequence[tuple[Lesson, float]],
    agreed: Mapping[str, tuple[str, ...]],
    agreement: int,
) -> Preference | None:
    """The organisation lesson of the agreed groups the message is like (None when it is like
    groups agreed on different controllers: that is for the signals to settle)."""
    hits = [
        (entry, factor, agreed[entry.memory_id])
        for entry, factor in near
        if len(agreed.get(entry.memory_id, ())) >= agreement
    ]
    if not hits or len({entry.controller for entry, _, _ in hits}) != 1:
        return None
    entry, factor, _ = max(hits, key=lambda hit: (hit[1], hit[0].created_at))
    users = tuple(sorted({u for _, _, group in hits for u in group}))
    return Preference(entry.controller, "org", entry, factor, users)


def similar_moves(
    store: LessonRecall, entry: Lesson, *, min_similarity: float, refresh: bool = True
) -> list[tuple[Lesson, float]]:
    """The corrections of messages similar to `entry`'s (itself included): its group
    (`refresh=False`: the caller just took in the lesson feed)."""
    return [
        (other, factor)
        for other, factor in store.similar(
            entry.text,
            vector=entry.vector,
            ids=entry.ids,
            scenario=entry.scenario,
            refresh=refresh,
        )
        if other.kind == MOVED_TO and factor >= min_similarity
    ]


def conflicts(store: LessonRecall, *, min_similarity: float) -> list[Conflict]:
    """Groups of similar corrections whose users moved them to different controllers."""
    moves = [e for e in store.entries() if e.kind == MOVED_TO]
    found: list[Conflict] = []
    reported: set[str] = set()
    for entry in moves:
        if entry.memory_id in reported:
            continue
        near = similar_moves(store, entry, min_similarity=min_similarity)
        latest = latest_per_user(near)
        targets: dict[str, set[str]] = {}
        for other, _ in latest.values():
            targets.setdefault(other.controller, set()).add(other.user)
        if len(targets) > 1:
            reported.update(other.memory_id for other, _ in near)
            found.append(
                Conflict(entry, {name: tuple(sorted(users)) for name, users in targets.items()})
            )
    return found
