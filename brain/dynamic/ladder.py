"""The fallback ladder after three failed DCR rounds (docs/design.md, "How a decision is
made", step 4).

1. deep knowledge-base retrieval with expanded queries (glossary synonyms, the other
   language's term, the intent's description);
2. a full memory pass: every confirmed case, at a looser similarity;
3. the generic capability hook (`[dynamic] hook_url`, e.g. a documentation search webhook);
4. an honest explanation of the current boundary with next steps, recorded as an evolution
   signal (the case is kept; `brain evolution report` groups repeated boundaries).
Each rung's draft still has to pass the boundary check before it is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from brain.dynamic.critique import boundary, counter_example
from brain.dynamic.draft import Constraints, Draft, memory_drafts, standard_drafts
from brain.dynamic.situation import Situation
from controllers.webhook import post_json
from core.config import Settings
from core.records import ExecutionResult
from core.redact import redact
from core.text.kept import KeptDict
from core.wording import wording_for

if TYPE_CHECKING:
    from brain.dynamic.cases import CaseBook, SimilarCase
    from knowledge.skill import KnowledgeSkill

#: The full memory pass accepts cases this much less similar than a normal draft.
MEMORY_PASS_SLACK = 0.05
#: KB hits per expanded query.
DEEP_K = 8
HOOK_NAME = "capability_hook"


@dataclass(slots=True)
class Rung:
    """What the ladder found: a draft that passed the boundary, or the hook's answer."""

    draft: Draft | None = None
    answer: ExecutionResult | None = None
    lines: list[str] = field(default_factory=list)


class CapabilityHook:
    """The configured generic capability (a webhook); None-safe and bounded by [webhooks]."""

    def __init__(self, settings: Settings) -> None:
        self.url = settings.dynamic.hook_url
        self.timeout_s = settings.dynamic.hook_timeout_s
        self.policy = settings.webhooks
        self._answers: dict[str, ExecutionResult | None] = {}
        #: Keyed by what people asked: a forget empties it (`core.text.kept`).
        self._kept = KeptDict(self._answers, whole=True)

    def ask(self, situation: Situation, queries: Sequence[str]) -> ExecutionResult | None:
        """The hook's answer when it found one (`{"found": true, "summary": ...}`), else None."""
        if not self.url:
            return None
        key = situation.text
        if key in self._answers:
            return self._answers[key]
        payload: dict[str, Any] = {
            "controller": HOOK_NAME,
            "text": redact(situation.text),
            "queries": [redact(q) for q in queries],
            "intent": situation.intent.intent,
            "entities": situation.entities,
        }
        result = post_json(self.url, payload, timeout_s=self.timeout_s, policy=self.policy)
        body = result.data.get("response")
        found = result.ok and isinstance(body, dict) and body.get("found", True) is not False
        answer = None
        if found and isinstance(body, dict) and (body.get("summary") or body.get("text")):
            answer = ExecutionResult(
                controller=HOOK_NAME,
                role="primary",
                ok=True,
                summary=result.summary,
                data={k: v for k, v in result.data.items() if k != "url"},
                citations=[str(c) for c in body.get("citations") or []][:5],
            )
        if len(self._answers) > 256:
            self._answers.clear()
        self._answers[key] = answer
        return answer


def expanded_queries(situation: Situation, knowledge: KnowledgeSkill | None) -> list[str]:
    """The message, then it with glossary synonyms / the other language's terms, then the
    intent's description with the entities."""
    queries = [situation.text]
    if knowledge is not None:
        synonyms = knowledge.expand(situation.text)
        if synonyms:
            queries.append(f"{situation.text} {' '.join(synonyms)}")
    entities = " ".join(v for values in situation.entities.values() for v in values)
    described = f"{situation.intent.description} {entities}".strip()
    if described and situation.intent.intent != "other":
        queries.append(described)
    return queries


def climb(
    situation: Situation,
    constraints: Constraints,
    *,
    knowledge: KnowledgeSkill | None,
    cases: CaseBook,
    hook: CapabilityHook,
    same_problem: float,
    related: Sequence[SimilarCase] | None = None,
) -> Rung:
    """Try the rungs in order; the first that holds ends the climb (`related`: the cases at
    least `same_problem - MEMORY_PASS_SLACK` similar, when the caller has scored them)."""
    rung = Rung()
    queries = expanded_queries(situation, knowledge)
    # 1. deep KB retrieval
    if knowledge is not None:
        hits = []
        for query in queries:
            try:
                hits.extend(knowledge.search(query, k=DEEP_K))
            except Exception as exc:  # the KB is a help, never a requirement
                rung.lines.append(f"deep KB retrieval failed: {type(exc).__name__}")
                break
        deep = Situation(**{**_fields(situation), "kb_hits": hits})
        found = _first_valid(standard_drafts(deep), deep, constraints)
        rung.lines.append(
            f"deep KB retrieval ({len(queries)} queries, {len(hits)} passages): "
            + (found.plan.note if found else "no standard solution")
        )
        if found is not None:
            rung.draft = found
            return rung
    else:
        rung.lines.append("deep KB retrieval: no knowledge base open")
    # 2. full memory pass
    loose = (
        list(related)
        if related is not None
        else cases.similar(
            situation.text, situation.vector, minimum=same_problem - MEMORY_PASS_SLACK
        )
    )
    wide = Situation(**{**_fields(situation), "similar": loose})
    found = _first_valid(memory_drafts(wide), wide, constraints)
    rung.lines.append(
        f"full memory pass ({len(loose)} related cases): "
        + (found.plan.note if found else "no confirmed plan")
    )
    if found is not None:
        rung.draft = found
        return rung
    # 3. the generic capability hook
    if hook.url:
        answer = hook.ask(situation, queries)
        rung.lines.append("capability hook: " + ("answered" if answer is not None else "no answer"))
        if answer is not None:
            rung.answer = answer
            return rung
    else:
        rung.lines.append("capability hook: none configured")
    # 4. the honest boundary
    rung.lines.append("nothing on the ladder covers it (evolution signal recorded)")
    return rung


def _first_valid(
    drafts: Sequence[Draft], situation: Situation, constraints: Constraints
) -> Draft | None:
    for item in drafts:
        if not constraints.allows(item.plan) or any(
            n not in situation.names for n in item.plan.controllers
        ):
            continue
        if item.plan.topology == "hook":
            continue  # the hook is its own rung
        if counter_example(item, situation).ok and boundary(item, situation).ok:
            return item
    return None


def _fields(situation: Situation) -> dict[str, Any]:
    return {name: getattr(situation, name) for name in situation.__dataclass_fields__}


def contact_in(contact: str, chinese: bool) -> str:
    """The help contact in the reply's language: never an English phrase inside Chinese (the
    default contact's name is the catalog's `contacts` term; another is a name, shown without
    an English "the")."""
    if not chinese:
        return contact
    shown = contact.removeprefix("the ").strip()
    return wording_for(chinese).term("contacts", contact.strip().lower(), default=shown)


def next_steps(settings: Settings, chinese: bool) -> list[str]:
    """What the user can do at the boundary, on any surface (each surface draws its own
    button or command for the hand-off)."""
    words = wording_for(chinese)
    contact = contact_in(settings.dynamic.help_contact, chinese)
    return [
        words.say("dynamic.step_contact", contact=contact),
        words.say("dynamic.step_rephrase"),
        words.say("dynamic.step_person"),
    ]
