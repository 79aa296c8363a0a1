"""Organisation lessons as training rows of the semantic model ("scope by agreement",
docs/design.md).

When `[memory] agreement_users` distinct users moved similar messages to the same controller,
the lesson is the organisation's (`brain.memory.preference`): it applies to everyone through memory,
and the corrected messages also become training examples of that controller, so the semantic
model itself learns them (`brain.learning.org_training` refits it in the background).

The grouping is the one the agreed examples move everyone by (`brain.memory.agreed`): a
correction's group is the corrections and confirmed routes (👍) within LINK of it
(`AgreedExamples.linked`: the embedding, or the multilingual encoder where Chinese is on either
side), each user's latest counting once (`preference.latest_per_user`). A group whose users all
put their messages with one controller (moved them there or confirmed them there), with at
least `agreement` users, gives its messages as rows, the confirmed ones too. Where a
correction's group is mixed (many people correcting a desk's varied tickets: at LINK every
group holds corrections to several controllers, so no group ever agreed and the refit learned
nothing from 1,000 streamed tickets, benchmarks/HISTORY.md), its nearest corrections vote, each
user once (`brain.memory.agreed.majority`, the rule the online layer and a message's
neighbourhood already follow): a controller with at least `agreement` users and a clear
majority makes the corrections to it rows, weighted by those users; a split (two people
against one, three against two) is a conflict, reported and learned by no one, and the
minority's corrections are never rows. One person's corrections, however many, are one vote.
Before, a person whose own message the model already routed right and who said so
counted for nothing, and two corrections and a confirmation taught the refit nothing. Grouped
by the memory's near-copy similarity instead (a cosine of 0.55 and more), three people's own
wordings of one problem rarely formed a group: the online layer moved a fourth person's
paraphrases and the refit learned nothing from the same corrections.

The rows are derived from the lessons each time, never stored on their own: a forgotten user's
lessons leave the lesson store, so their messages leave the rows (and a group that falls below
agreement leaves with them). Texts are the lessons' own, redacted when the lesson was stored.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.learning.labelled import LabelledRow
from brain.memory.agreed import VOTERS, AgreedGroup, majority
from brain.memory.entry import CONFIRMED, Lesson
from brain.memory.lessons import LessonRecall
from brain.memory.preference import MOVED_TO, latest_per_user
from brain.memory.reach import WINDOW

log = logging.getLogger(__name__)

#: Another value of the saved groups' schema recomputes them.
GROUPS_SCHEMA = 4
#: Lessons that say where a message belongs: a correction, or a route a person confirmed.
VOICES = (MOVED_TO, CONFIRMED)
#: A correction's group: (memory id, similarity) of the similar corrections, itself included.
Group = list[tuple[str, float]]
#: What finds a correction's group (`AgreedExamples.linked`).
Linker = Callable[[Lesson], Group]
#: Who agrees with a correction its linked group leaves with too few people
#: (`AgreedExamples.joined`: its controller's class example set).
Joiner = Callable[[Lesson], AgreedGroup | None]


@dataclass(frozen=True, slots=True)
class OrgRow:
    """One corrected (or confirmed) message the organisation agreed on: a training example of
    `controller`."""

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
        """The row as a labelled training row (`brain.learning.training`)."""
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


class MoveGroups:
    """Every correction's group, kept up to date from the lesson feed instead of recomputed.

    Finding a correction's group is a look-up in the lesson index (milliseconds); doing it for
    every correction on every check made a process's first decision take minutes at 10k
    lessons. The groups are therefore kept per correction and, when lessons change, only the
    changed corrections and those grouped with them (similarity is symmetric) are looked up
    again. They are saved beside the fits (`path`: memory ids and similarities, never a text
    or a user), so the next process starts from them; a file of another version than the feed
    reaches back to, or of another `linking` (how groups are found), is recomputed."""

    def __init__(self, path: Path | None, *, linked: Linker, linking: str) -> None:
        self.path = path
        self._linked = linked
        self.linking = linking
        self._lock = threading.Lock()
        self._version = -1
        self._groups: dict[str, Group] = {}
        self._loaded = False
        #: Corrections looked up by the last update (a report or a test may read it).
        self.looked_up = 0

    def current(self, store: LessonRecall) -> tuple[dict[str, Lesson], dict[str, Group]]:
        """The corrections and confirmed routes as the lessons stand now, and each correction's
        group (a confirmed route only joins groups: none is seeded by it, so a desk's many
        confirmations cost no look-up of their own beyond the one that places a new one)."""
        with self._lock:
            version, entries = store.snapshot()
            # A workspace's lessons stay in it (`LessonRecall.similar` recalls them per team,
            # its users' agreement is its organisation's): the agreed groups and the model
            # trained on them are made of one-workspace lessons only.
            voices = {e.memory_id: e for e in entries if e.kind in VOICES and e.team is None}
            moves = {key: e for key, e in voices.items() if e.kind == MOVED_TO}
            if not self._loaded:
                self._loaded = True
                self._load()
                if version == self._version and set(self._groups) != set(moves):
                    self._version = -1  # another store's file (e.g. a throwaway backend)
            if version != self._version:
                self._update(store, version, voices, moves)
            return voices, self._groups

    def _update(
        self,
        store: LessonRecall,
        version: int,
        voices: dict[str, Lesson],
        moves: dict[str, Lesson],
    ) -> None:
        self.looked_up = 0
        changed: list[str] | None = None
        if 0 <= self._version < version:
            _, changed = store.lessons.changed_since(self._version)
        if changed is None:
            todo = set(moves)
            self._groups = {}
        else:
            keys = set(changed)
            todo = set()
            for key in [k for k in keys if k in voices]:
                # A new correction or confirmation joins the groups of its own group.
                group = self._group_of(store, voices[key])
                if key in moves:
                    self._groups[key] = group
                todo.update(m for m, _ in group)
            todo.update(x for x, group in self._groups.items() if any(m in keys for m, _ in group))
            todo -= keys
        for gone in [x for x in self._groups if x not in moves]:
            del self._groups[gone]
        for key in todo:
            if key in moves:
                self._groups[key] = self._group_of(store, moves[key])
        self._version = version
        self._save()

    def _group_of(self, store: LessonRecall, entry: Lesson) -> Group:
        self.looked_up += 1
        return self._linked(entry)

    def _load(self) -> None:
        if self.path is None or not self.path.is_file():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("schema") != GROUPS_SCHEMA or data.get("linking") != self.linking:
                return
            groups = {
                str(key): [(str(m), float(f)) for m, f in members]
                for key, members in data["groups"].items()
            }
            self._version, self._groups = int(data["version"]), groups
        except (OSError, ValueError, KeyError, TypeError) as exc:  # recomputed instead
            log.warning("ignoring the saved correction groups %s: %s", self.path, exc)

    def _save(self) -> None:
        if self.path is None:
            return
        data = {
            "schema": GROUPS_SCHEMA,
            "linking": self.linking,
            "version": self._version,
            "groups": self._groups,
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, separators=(",", ":"))
            os.replace(temporary, self.path)
        except OSError as exc:  # a derived file: the next process recomputes it
            log.warning("could not save the correction groups %s: %s", self.path, exc)


def org_rows(
    store: LessonRecall,
    *,
    names: Sequence[str],
    agreement: int,
    groups: MoveGroups,
    joined: Joiner | None = None,
) -> list[OrgRow]:
    """The corrected and confirmed messages of every agreed, conflict-free group, and each
    correction its neighbourhood's vote agrees with (`voted`), oldest first; one row per
    (text, controller). `groups` keeps the groups between calls. A correction whose linked
    group has too few people may still be agreed with through `joined` (three people's own
    wordings of one request are often not within LINK of one another, yet online they move
    a fourth person's message through their controller's class example set): that group
    gives its messages as rows too. Only the latest WINDOW corrections are looked up so (the
    one that completes an agreement is a recent one; each look-up compares the correction
    with every other, about 2 ms at 1k corrections and 10 ms at 10k on a loaded machine, and a
    process computes the rows when it starts)."""
    known = set(names)
    by_id, group_of = groups.current(store)
    # Groups are seeded by corrections only: confirmed routes alone teach the model nothing.
    moves = sorted((e for e in by_id.values() if e.kind == MOVED_TO), key=lambda e: e.order)
    agreed: dict[str, tuple[Lesson, tuple[str, ...]]] = {}
    disputed: set[str] = set()
    voted: dict[str, tuple[Lesson, tuple[str, ...]]] = {}
    recent = {entry.memory_id for entry in moves[-WINDOW:]}
    for entry in moves:
        members = _members(group_of.get(entry.memory_id, []), by_id)
        latest = latest_per_user(members)
        targets: dict[str, set[str]] = {}
        for other, _ in latest.values():
            targets.setdefault(other.controller, set()).add(other.user)
        if len(targets) > 1:
            disputed.update(other.memory_id for other, _ in latest.values())
            won = _vote(entry, members, agreement)
            if won is not None and entry.controller in known and entry.text.strip():
                voted[entry.memory_id] = (entry, won)
            continue
        controller, users = next(iter(targets.items()))
        if controller not in known:
            continue
        teachers = [other for other, _ in latest.values()]
        if len(users) < agreement:
            joint = None
            if joined is not None and entry.memory_id in recent:
                joint = joined(entry)
            if joint is None:
                continue
            users, teachers = set(joint.users), list(joint.members)
        group = tuple(sorted(users))
        for other in teachers:
            seen = agreed.get(other.memory_id)
            if seen is None or len(group) > len(seen[1]):
                agreed[other.memory_id] = (other, group)
    chosen = {key: found for key, found in agreed.items() if key not in disputed}
    for key, found in voted.items():
        seen = chosen.get(key)
        if seen is None or len(found[1]) > len(seen[1]):
            chosen[key] = found
    rows: dict[tuple[str, str], OrgRow] = {}
    for memory_id, (entry, group) in sorted(
        chosen.items(), key=lambda item: (item[1][0].created_at, item[0])
    ):
        if not entry.text.strip():
            continue
        rows.setdefault(
            (entry.text, entry.controller),
            OrgRow(entry.text, entry.controller, memory_id, entry.user, entry.created_at, group),
        )
    return list(rows.values())


def _vote(
    entry: Lesson, members: Sequence[tuple[Lesson, float]], agreement: int
) -> tuple[str, ...] | None:
    """The users who agree with a correction whose group is mixed: its nearest corrections
    vote, each user once (`brain.memory.agreed.majority`, the rule a message's neighbourhood
    moves it by online), and a clear majority for the correction's own controller makes it a
    row; None otherwise (a split is a conflict, reported and learned by no one)."""
    nearest = [other for other, _ in heapq.nlargest(VOTERS, members, key=lambda item: item[1])]
    won = majority(nearest, agreement)
    if won is None or won[0] != entry.controller:
        return None
    return won[1]


def _members(group: Group, moves: Mapping[str, Lesson]) -> list[tuple[Lesson, float]]:
    return [(moves[m], factor) for m, factor in group if m in moves]


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
