"""Type A consolidation: the same unknown problem, solved by the same plan and confirmed
`[evolution] repeats` times (3), becomes a controller of its own (Type A consolidation).

The new controller is a declarative one written to `BRAIN_HOME/evolved/` with the confirmed
messages as examples, their shared words as keywords, a description and the plan it replays
(`controllers.evolved`). Added to the live registry, it changes the registry's version, so the
semantic model and keyword index refit on the next decision and the next occurrence can take
the fast path. With `require_approval` it waits, `pending`, for `approve`. `report` lists the
evolved controllers, the clusters on their way, and repeated boundaries (evolution signals).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.dynamic.cases import Case, CaseBook
from controllers.evolved import (
    EvolvedSpec,
    controller_of,
    load_evolved,
    path_of,
    read_spec,
    write_spec,
)
from core.config import Settings
from core.errors import UnknownController
from core.plans import Plan
from core.stores.forgetting import REDACTED
from core.text.sparse import normalize
from core.vector_text import decode_vector

if TYPE_CHECKING:
    from controllers.registry import ControllerRegistry
    from core.records import Decision

_WORD = re.compile(r"[a-z][a-z]+|[\u3400-\u9fff]{2,}")
_STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "for",
        "on",
        "in",
        "at",
        "to",
        "of",
        "and",
        "or",
        "is",
        "are",
        "be",
        "can",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "it",
        "this",
        "that",
        "with",
        "please",
        "need",
        "want",
        "get",
        "do",
        "does",
        "how",
        "what",
        "when",
        "where",
        "who",
        "would",
        "could",
        "should",
        "will",
        "from",
        "by",
        "next",
        "up",
        "any",
        "some",
        "there",
        "here",
        "am",
        "pm",
    ]
)


#: How much less alike (the case book's similarity) the confirmed cases of one plan may be
#: than `[dynamic] same_problem` asks of a memory draft and still be one problem: one plan
#: confirmed for each of them is evidence of its own that they are the same request. At
#: `same_problem` (0.58) alone, three wordings one person resolved with one plan were seldom
#: linked (benchmarks/evolution_stories.py, dev: 1 of 8 stories evolved; pairs at 0.46-0.47
#: beside one at 0.72).
SAME_PLAN_SLACK = 0.13


def one_plan_bar(settings: Settings) -> float:
    """The similarity at which confirmed cases of one plan are linked as one problem."""
    return settings.dynamic.same_problem - SAME_PLAN_SLACK


@dataclass(slots=True)
class Cluster:
    """Cases of one unknown problem (similar messages), with what happened to them."""

    cases: list[Case] = field(default_factory=list)

    @property
    def texts(self) -> list[str]:
        return [str(c.get("text", "")) for c in self.cases]


def cluster(cases: Sequence[Case], minimum: float) -> list[Cluster]:
    """Greedy single-link clusters by the case book's similarity, biggest first."""
    clusters: list[Cluster] = []
    for case in cases:
        vector = _vector(case)
        home = next(
            (
                group
                for group in clusters
                if any(
                    CaseBook.similarity(str(case.get("text", "")), vector, other) >= minimum
                    for other in group.cases
                )
            ),
            None,
        )
        if home is None:
            clusters.append(Cluster([case]))
        else:
            home.cases.append(case)
    clusters.sort(key=lambda g: -len(g.cases))
    return clusters


class Evolution:
    """Consolidates confirmed unknown cases into evolved controllers of one home."""

    def __init__(
        self,
        settings: Settings,
        cases: CaseBook,
        registry: Callable[[], ControllerRegistry],
    ) -> None:
        self.settings = settings
        self.cases = cases
        self._registry = registry

    def after_feedback(self, decision: Decision, kind: str, user: str) -> str | None:
        """Keep the feedback with the decision's case; the evolved controller's name when
        this confirmation completed a cluster."""
        case_id = decision.dcr.case_id if decision.dcr is not None else None
        if case_id is None and self.cases.store.get(decision.decision_id) is not None:
            case_id = decision.decision_id  # a person's resolution made the case (resolution.keep)
        if case_id is None:
            return None
        case = self.cases.feedback(case_id, user=user, confirmed=kind == "confirm")
        if case is None or kind != "confirm" or not self.settings.evolution.enabled:
            return None
        return self.consider(case)

    def consider(self, case: Case) -> str | None:
        """Write an evolved controller when `case`'s cluster is complete."""
        signature = case.get("signature")
        if not signature or case.get("evolved"):
            return None
        minimum = one_plan_bar(self.settings)
        solved = [
            other
            for other in self.cases.cases()
            if other.get("signature") == signature
            and other.get("confirmed_by")
            and not other.get("rejected_by")
            and not other.get("evolved")
        ]
        # The case's cluster: the cases linked to it by similarity, one step or several
        # (three wordings of one request need not all be alike pairwise).
        members = next(
            (
                g.cases
                for g in cluster(solved, minimum)
                if any(c["case_id"] == case["case_id"] for c in g.cases)
            ),
            [],
        )
        if len(members) < self.settings.evolution.repeats:
            return None
        plan = Plan.from_dict(case["plan"])
        spec = self._spec(members, plan)
        write_spec(self.settings.home, spec)
        self.cases.mark_evolved([m["case_id"] for m in members], spec.name)
        if spec.status == "active":
            self._activate(spec)
        return spec.name

    def approve(self, name: str, by: str = "admin") -> EvolvedSpec:
        """Let a pending evolved controller route (and add it to the live registry)."""
        spec = self._read(name)
        spec.status = "active"
        spec.approved_by = by
        write_spec(self.settings.home, spec)
        self._activate(spec)
        return spec

    def retire(self, name: str) -> None:
        """Remove an evolved controller: its file, and from the live registry."""
        path = path_of(self.settings.home, name)
        if not path.is_file():
            raise UnknownController(name, [s.name for s in self.listed()])
        path.unlink()
        self._registry().remove(name)

    def forget_cases(self, cases: Sequence[dict[str, Any]]) -> int:
        """Remove forgotten cases' messages from the evolved controllers made of them (their
        examples and the description that quotes one); the registry reloads the files. How
        many controllers changed."""
        gone_ids = {str(c.get("case_id")) for c in cases}
        texts = {str(c.get("text", "")) for c in cases if c.get("text")}
        if not gone_ids:
            return 0
        changed = 0
        folder = path_of(self.settings.home, "x").parent
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
            spec = read_spec(path)
            if not gone_ids & set(spec.cases) and not texts & set(spec.examples):
                continue
            spec.cases = [c for c in spec.cases if c not in gone_ids]
            spec.examples = [e for e in spec.examples if e not in texts]
            for text in texts:
                for form in (text, text[:80]):
                    spec.description = spec.description.replace(repr(form), repr(REDACTED))
                    spec.description = spec.description.replace(form, REDACTED)
            write_spec(self.settings.home, spec)
            if spec.status == "active" and spec.name in self._registry().names():
                self._activate(spec)
            changed += 1
        return changed

    def listed(self) -> list[EvolvedSpec]:
        loaded = load_evolved(self.settings.home)
        folder = path_of(self.settings.home, "x").parent
        active = [read_spec(folder / f"{c.name}.yaml") for c in loaded.active]
        return active + loaded.pending

    def report(self) -> dict[str, Any]:
        """Evolved controllers, clusters on their way, and repeated boundaries."""
        cases = self.cases.cases()
        minimum = self.settings.dynamic.same_problem
        solved = [c for c in cases if c.get("signature") and not c.get("evolved")]
        on_their_way = _by_signature(solved, one_plan_bar(self.settings))
        boundaries = [c for c in cases if c.get("result") in ("boundary", "clarify")]
        return {
            "evolved": [
                {
                    "name": s.name,
                    "status": s.status,
                    "plan": Plan.from_dict(s.plan).describe() if s.plan else "",
                    "examples": len(s.examples),
                    "created_at": s.created_at,
                }
                for s in self.listed()
            ],
            "candidates": [
                {
                    "signature": group.cases[0].get("signature"),
                    "cases": len(group.cases),
                    "confirmed": sum(1 for c in group.cases if c.get("confirmed_by")),
                    "needed": self.settings.evolution.repeats,
                    "example": group.texts[0][:120],
                }
                for group in on_their_way
            ],
            "boundaries": [
                {"cases": len(group.cases), "examples": [t[:120] for t in group.texts[:3]]}
                for group in cluster(boundaries, minimum)
                if len(group.cases) >= 2
            ],
            "boundary_cases": len(boundaries),
            "cases": len(cases),
        }

    # -- helpers -----------------------------------------------------------------------------
    def _read(self, name: str) -> EvolvedSpec:
        path = path_of(self.settings.home, name)
        if not path.is_file():
            raise UnknownController(name, [s.name for s in self.listed()])
        return read_spec(path)

    def _activate(self, spec: EvolvedSpec) -> None:
        registry = self._registry()
        registry.remove(spec.name)
        registry.add(controller_of(spec))

    def _spec(self, members: Sequence[Case], plan: Plan) -> EvolvedSpec:
        texts = [str(m.get("text", "")) for m in members]
        words = _shared_words(texts)
        taken = set(self._registry().names()) | {s.name for s in self.listed()}
        name = _name_of(words, texts, taken)
        hook = plan.topology == "hook" and self.settings.dynamic.hook_url
        replays = plan.describe() if plan.steps or plan.topology == "hook" else repr(plan.note)
        handler, options = (
            ("webhook", {"url": self.settings.dynamic.hook_url}) if hook else ("none", {})
        )
        approval = self.settings.evolution.require_approval
        return EvolvedSpec(
            name=name,
            label="Evolved: " + (" ".join(words[:3]) or name),
            description=(
                (f"{plan.note}. " if plan.note and not plan.steps else "")
                + f"Learned from {len(members)} confirmed unknown requests like "
                f"{texts[0][:80]!r}; replays {replays}."
            ),
            keywords=words[:8],
            examples=texts,
            handler=handler,
            options=options,
            status="pending" if approval else "active",
            plan=plan.to_dict(),
            cases=[str(m["case_id"]) for m in members],
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )


def _by_signature(cases: Sequence[Case], minimum: float) -> list[Cluster]:
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(str(case.get("signature")), []).append(case)
    found: list[Cluster] = []
    for members in groups.values():
        found.extend(cluster(members, minimum))
    found.sort(key=lambda g: -len(g.cases))
    return found


def _shared_words(texts: Sequence[str]) -> list[str]:
    """Content words in at least two of the texts (all of them when there is one)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update({w for w in _WORD.findall(normalize(text)) if w not in _STOPWORDS})
    need = 2 if len(texts) > 1 else 1
    # Ties in alphabetical order: a set's order changes with each process's hash seed, and
    # the first eight become the keywords, so the controller would differ from run to run.
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [w for w, n in ranked if n >= need]


def _name_of(words: Sequence[str], texts: Sequence[str], taken: set[str]) -> str:
    ascii_words = [w for w in words if w.isascii()][:3]
    base = "evolved_" + ("_".join(ascii_words) if ascii_words else "")
    if not ascii_words:
        base += hashlib.sha1("\n".join(texts).encode("utf-8")).hexdigest()[:8]
    base = base[:56]
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def _vector(case: Case) -> np.ndarray | None:
    return decode_vector(case.get("vector"))
