"""The `Brain` facade: the decision chain of seed 000 behind one small, thread-safe API.

Step 1 intent (IntentRecognizer, without the LLM first), step 2 the five signals and calibrated
confidence, progressive routing (brain.routing), step 4 the structured Decision (logged), step 5
the AUDNP memory ring. Heavy parts (knowledge base, embedder, semantic scorer, LLM) are opened
lazily, once, on first use, so `brain why` and `brain feedback` never load a model.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.calibration import HomeCalibration, rival_margin, top_two
from brain.decision_log import DecisionLog
from brain.explain import explain_decision
from brain.feedback import FeedbackService
from brain.memory import MemoryMatch, MemoryRing, MemoryStore, session_key_of
from brain.parts import SCORING_TEXT_CAP, BrainParts
from brain.rationale import build_rationale
from brain.routing import Candidate, MemoryLesson, Router, composition_of, is_chinese, tier_of
from brain.signals.base import SignalQuery
from brain.signals.keyword import NO_CONTEXT_GROUPS
from brain.signals.knowledge import id_domains
from brain.signals.memory import memory_matches
from brain.signals.semantic import SemanticModel, verdict_of
from brain.signals.session import SessionCache, SessionEntry
from brain.signals.table import SignalTable
from core.config import Settings, load_settings
from core.errors import UnknownController
from core.llm_calls import LLMCallCount, count_llm_calls
from core.records import (
    Decision,
    DryRunRecord,
    ExecutionPart,
    ExecutionResult,
    IntentResult,
    Message,
    Role,
)

if TYPE_CHECKING:
    from brain.intent import IntentRecognizer
    from controllers.base import ControllerContext, ControllerServices
    from controllers.registry import ControllerRegistry
    from core.llm import LLMClient
    from core.text.embedder import DenseEmbedder
    from knowledge.skill import KnowledgeSkill

log = logging.getLogger(__name__)

#: Text kept in the decision record; longer messages are cut (and say so).
STORED_TEXT_CAP = 20_000
#: Controllers calibrated and considered by routing (the rest are far behind).
TOP_K = 8
#: How long an earlier decision of the session counts as the ongoing context.
CONTEXT_WINDOW = timedelta(hours=4)
#: Entity kinds a vague follow-up message inherits from the ongoing decision.
CONTEXT_ENTITY_KINDS = ("ticket_id", "asset_tag", "error_code", "host", "service")

#: A correction on a message at least this similar makes routing try the corrected controller.
LESSON_MIN_SIMILARITY = 0.6
#: A message with no keyword, identifier or entity is treated as vague (never routed without
#: asking) unless the semantic model is at least this sure of one controller.
VAGUE_SEMANTIC = 0.5

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")


def clean_text(text: object) -> str:
    """Control characters stripped, size capped; empty or whitespace -> ValueError."""
    if not isinstance(text, str):
        raise ValueError("the message must be text")
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates from bad bytes
    cleaned = _CONTROL.sub(" ", text).strip()
    if not cleaned:
        raise ValueError("the message is empty: write what you need, e.g. 'VPN error 691'")
    if len(cleaned) > STORED_TEXT_CAP:
        cleaned = cleaned[:STORED_TEXT_CAP] + " [truncated]"
    return cleaned


def new_decision_id() -> str:
    """Short, unique, URL-safe."""
    return "d-" + secrets.token_hex(6)


def _now() -> datetime:
    return datetime.now(UTC)


class Brain:
    """The decision chain; open with `Brain.open()`. Safe to use from several threads."""

    def __init__(self, settings: Settings, registry: ControllerRegistry | None = None) -> None:
        self.settings = settings
        settings.home.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()  # guards the stores
        self._router = Router(settings.routing)
        self._pool = ThreadPoolExecutor(
            max_workers=max(settings.routing.max_parallel, 2), thread_name_prefix="brain"
        )
        self.log = DecisionLog(settings.home / "decisions")
        self.memory = MemoryStore(settings.home / "memory.json")
        self.sessions = SessionCache()
        self.ring = MemoryRing(self.memory, self.sessions)
        self.parts = BrainParts(
            settings,
            log=self.log,
            memory=self.memory,
            sessions=self.sessions,
            lock=self._lock,
            registry=registry,
        )
        self._feedback = FeedbackService(
            self.log,
            self.ring,
            controller_names=lambda: self.registry.names(),
            embed=self.parts.embed_if_loaded,
            lock=self._lock,
        )
        self._closed = False

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(
        cls, settings: Settings | None = None, *, registry: ControllerRegistry | None = None
    ) -> Brain:
        """A brain on `settings` (default: load_settings()); heavy parts open on first use.
        `registry` replaces the home's controller set (entry points and YAML files)."""
        return cls(settings or load_settings(), registry)

    def warm(self) -> None:
        """Open and fit everything a decision needs now, so the first message does not wait."""
        self.parts.warm()

    @property
    def registry(self) -> ControllerRegistry:
        """The open controller set (entry points + YAML controllers of the home)."""
        return self.parts.registry

    @property
    def knowledge(self) -> KnowledgeSkill | None:
        """The KB routing skill (None when it cannot be opened; decisions still work)."""
        return self.parts.knowledge

    @property
    def llm(self) -> LLMClient | None:
        """The LLM client, or None without an API key."""
        return self.parts.llm

    @property
    def embedder(self) -> DenseEmbedder | None:
        """The process-wide MiniLM embedder, or None (sparse-only mode)."""
        return self.parts.embedder

    @property
    def recognizer(self) -> IntentRecognizer:
        return self.parts.recognizer

    @property
    def calibration(self) -> HomeCalibration:
        return self.parts.calibration

    @property
    def services(self) -> ControllerServices:
        return self.parts.services

    @property
    def semantic_model(self) -> SemanticModel | None:
        """The semantic scorer fitted on the current controller set (None without one)."""
        return self.parts.semantic_model()

    def prime(self, texts: Sequence[str]) -> None:
        """Embed texts ahead in one batch, in every view a decision will ask for (the
        knowledge base's and the semantic model's own), so decisions on them skip the model."""
        embedder = self.embedder
        if embedder is None or not texts:
            return
        model = self.semantic_model
        tail = model.tail if model is not None else None
        embedder.prime([t[:SCORING_TEXT_CAP] for t in texts], [tail] if tail is not None else [])

    # -- step 2: signals -----------------------------------------------------------------
    def _ongoing_context(self, entries: Sequence[SessionEntry]) -> SessionEntry | None:
        now = _now()
        for entry in reversed(entries):
            wins, _ = entry.verdicts()
            if not wins:
                continue
            try:
                created = datetime.fromisoformat(entry.created_at)
            except ValueError:
                continue
            if now - created <= CONTEXT_WINDOW:
                return entry
            return None
        return None

    def _signals(
        self,
        *,
        text: str,
        message: Message,
        intent: IntentResult,
        entities: dict[str, list[str]],
        vector: np.ndarray | None,
        context: Mapping[str, str],
        ids: Mapping[str, str],
    ) -> SignalTable:
        view = self.parts.view
        query = SignalQuery(
            text=text,
            message=message,
            intent=intent,
            entities=entities,
            vector=vector,
            controllers=view.controllers,
            names=view.names,
            context=context,
            ids=ids,
        )
        return self.parts.signals.score(query, self.parts)

    def _candidates(
        self, table: SignalTable, labels: Mapping[str, str]
    ) -> tuple[list[Candidate], dict[str, float]]:
        ranked = table.ranked(TOP_K)
        totals = top_two(table.total)
        confidences: dict[str, float] = {}
        scores: dict[str, float] = {}
        candidates = []
        for i in ranked:
            name = table.names[i]
            features = {
                **table.calibration_features(i),
                "margin": rival_margin(float(table.total[i]), totals),
            }
            confidence, scores[name] = self.calibration.assess(float(table.total[i]), features)
            confidences[name] = confidence
            candidates.append(
                Candidate(name, labels.get(name, name), confidence, float(table.total[i]))
            )
        candidates.sort(key=lambda c: (-c.confidence, -scores[c.name]))
        return candidates, confidences

    # -- dry-runs and handling -----------------------------------------------------------
    def _context(
        self, decision_id: str, text: str, message: Message, intent: IntentResult, entities: dict
    ) -> ControllerContext:
        from controllers.base import ControllerContext

        return ControllerContext(
            text=text,
            user=message.user,
            channel=message.channel,
            thread=message.thread,
            decision_id=decision_id,
            intent=intent.intent,
            urgency=intent.urgency,
            entities={k: list(v) for k, v in entities.items()},
            services=self.services,
        )

    def _dry_run_fn(
        self, make_context: Callable[[], ControllerContext], llm_calls: LLMCallCount
    ) -> Callable[[str], Any]:
        def dry_run(name: str) -> DryRunRecord:
            try:
                # Dry-runs may run on the router's pool threads: count for this decision there.
                with count_llm_calls(into=llm_calls):
                    result = self.registry.get(name).dry_run(make_context())
            except Exception as exc:  # a broken controller is a failed dry-run, not a crash
                log.warning("dry-run of %s raised %s: %s", name, type(exc).__name__, exc)
                return DryRunRecord(name, False, f"dry-run error: {type(exc).__name__}: {exc}")
            return DryRunRecord(name, bool(result.ok), result.reason, list(result.missing))

        return dry_run

    # -- the decision --------------------------------------------------------------------
    def decide(self, message: Message) -> Decision:
        """Steps 1, 2 and 4 (+ AUDNP): route one message; the decision is logged."""
        # Counts only this decision's LLM requests, even with others deciding on other threads.
        with count_llm_calls() as llm_calls:
            return self._decide(message, llm_calls)

    def _decide(self, message: Message, llm_calls: LLMCallCount) -> Decision:
        text = clean_text(message.text)
        started = time.perf_counter()
        decision_id = new_decision_id()
        scoring_text = text[:SCORING_TEXT_CAP]
        scoring_message = replace(message, text=scoring_text)
        llm = self.llm

        view = self.parts.view
        labels = view.labels

        intent = self.recognizer.recognize(scoring_message, use_llm=False)
        entities: dict[str, list[str]] = {k: list(v) for k, v in intent.entities.items()}
        vector = self.embedder.embed_query(scoring_text) if self.embedder is not None else None
        ids = id_domains(self.knowledge, scoring_text, entities)
        keyword_hits = self.parts.keyword_index().match(scoring_text, ids)
        notes: list[str] = []

        # Memory-assisted pre-step: a vague message is read in the light of the ongoing work.
        vague = not keyword_hits.any_keyword() and not ids and not entities
        context: dict[str, str] = {}
        # Out-of-scope text ("book a table") has no intent of ours: it gets no context.
        if vague and intent.group not in NO_CONTEXT_GROUPS:
            ongoing = self._ongoing_context(self.parts.session_entries(message.session_key))
            if ongoing is not None:
                wins, _ = ongoing.verdicts()
                inherited = {
                    k: v for k, v in ongoing.entities.items() if k in CONTEXT_ENTITY_KINDS and v
                }
                for kind, values in inherited.items():
                    entities.setdefault(kind, [])
                    entities[kind].extend(v for v in values if v not in entities[kind])
                what = ", ".join(v for values in inherited.values() for v in values)
                description = f"the ongoing {wins[-1]} work ({what or ongoing.decision_id})"
                context[description] = wins[-1]
                ids = {**ids, **id_domains(self.knowledge, "", inherited)}
                notes.append(
                    f"context: a vague message read as part of {description} "
                    f"from decision {ongoing.decision_id}"
                )
                vague = False

        def score(current: IntentResult) -> tuple[SignalTable, list[Candidate], dict[str, float]]:
            table = self._signals(
                text=scoring_text,
                message=message,
                intent=current,
                entities=entities,
                vector=vector,
                context=context,
                ids=ids,
            )
            candidates, confidences = self._candidates(table, labels)
            return table, candidates, confidences

        table, candidates, confidences = score(intent)
        top = candidates[0].confidence if candidates else 0.0
        if tier_of(top, self.settings.routing) != "fast" and llm is not None:
            # Not a fast path: now (and only now) ask the LLM, then score again.
            with_llm = self.recognizer.recognize(scoring_message, use_llm=True)
            for kind, values in with_llm.entities.items():
                entities.setdefault(kind, [])
                entities[kind].extend(v for v in values if v not in entities[kind])
            intent = with_llm
            if with_llm.llm_status == "ok":
                table, candidates, confidences = score(intent)
        elif llm is not None:
            intent = replace(intent, llm_status="skipped (fast path)")

        verdict = verdict_of(table.reading("semantic"))
        memories = memory_matches(table.reading("memory"))
        make_context = lambda: self._context(decision_id, text, message, intent, entities)  # noqa: E731
        feeds = view.feeds
        plan = self._router.route(
            candidates,
            dry_run=self._dry_run_fn(make_context, llm_calls),
            chinese=is_chinese(text),
            registered=len(view.controllers),
            # A safety net, not a filter: only when the semantic model is unsure too.
            vague=vague and float(table.values("semantic").max(initial=0.0)) < VAGUE_SEMANTIC,
            out_of_scope=(
                verdict.out_of_scope if _turned_away(verdict.declared, ids, context) else None
            ),
            help_request=vague and _asks_for_help(intent),
            feeds=feeds,
            lesson=_lesson(candidates, memories),
        )
        escalation = _escalation(intent)
        for influences in memories.values():
            notes.extend(m.describe() for m in influences)
        notes.extend(self.ring.detect(plan.controller, dict(memories)))
        signals = table.as_dict()
        for name, row in signals.items():
            if name in confidences:
                row.confidence = round(confidences[name], 4)
        decision = Decision(
            decision_id=decision_id,
            text=text,
            user=message.user,
            channel=message.channel,
            thread=message.thread,
            controller=plan.controller,
            supporting=plan.supporting,
            confidence=round(plan.confidence, 4),
            tier=plan.tier,
            outcome=plan.outcome,
            escalate=escalation is not None,
            urgency=intent.urgency,
            intent=intent,
            entities=entities,
            signals=signals,
            rationale=build_rationale(
                plan,
                table,
                labels=labels,
                escalation=escalation,
                notes=notes[:1] if context else (),
            ),
            candidates=plan.candidates,
            composition=plan.composition,
            dry_runs=plan.dry_runs,
            tier_path=plan.tier_path,
            clarification=plan.clarification,
            memory_influences=notes,
            llm_calls=llm_calls.value,
            llm_status=_llm_status(llm, intent),
            latency_ms=round((time.perf_counter() - started) * 1000, 2),
            created_at=_now().isoformat(timespec="milliseconds"),
        )
        with self._lock:
            self.log.append(decision)
            notes = self.ring.after_decision(decision, vector)
            if notes:
                decision.memory_influences.extend(notes)
                self.log.update(decision)
        return decision

    def ask(self, message: Message) -> Decision:
        """Decide, then run the controller (and supporting ones) when routed or composed."""
        decision = self.decide(message)
        if decision.outcome not in ("routed", "composed") or decision.controller is None:
            return decision
        names = [decision.controller, *decision.supporting]
        pipeline = decision.composition == "pipeline"
        order = composition_of(names, self.parts.view.feeds)[1] if pipeline else names
        decision.result = self._handle_all(decision, order, pipeline=pipeline)
        if decision.result.escalate and not decision.escalate:
            decision.escalate = True
            decision.rationale += " Escalated to on-call: the controller asked for a person."
        with self._lock:
            self.log.update(decision)
        return decision

    def _handle_all(
        self, decision: Decision, order: Sequence[str], *, pipeline: bool
    ) -> ExecutionResult:
        message = Message(decision.text, decision.user, decision.channel, decision.thread)
        parts: list[ExecutionPart] = []
        upstream: ExecutionPart | None = None

        def run(name: str, up: ExecutionPart | None) -> ExecutionPart:
            context = self._context(
                decision.decision_id, decision.text, message, decision.intent, decision.entities
            )
            # Controllers read the upstream part as a plain dict (the controller protocol).
            context.upstream = None if up is None else up.to_dict()
            role: Role = "primary" if name == decision.controller else "supporting"
            try:
                result = self.registry.get(name).handle(context)
            except Exception as exc:
                log.exception("controller %s failed", name)
                summary = f"{name} failed: {type(exc).__name__}: {exc}"
                return ExecutionPart(controller=name, role=role, ok=False, summary=summary)
            return ExecutionPart(
                controller=name,
                role=role,
                ok=result.ok,
                summary=result.summary,
                details=result.details,
                data=result.data,
                citations=result.citations,
                missing=result.missing,
                escalate=result.escalate,
            )

        if pipeline:
            for name in order:
                part = run(name, upstream)
                parts.append(part)
                upstream = part
        else:
            parts = list(self._pool.map(lambda n: run(n, None), order))
        primary = next((p for p in parts if p.controller == decision.controller), parts[0])
        result = ExecutionResult(**primary.to_dict())
        if len(parts) > 1:
            result.parts = parts
            result.summary = "\n\n".join(f"[{p.controller} - {p.role}] {p.summary}" for p in parts)
        result.escalate = any(p.escalate for p in parts)
        return result

    def route_to(
        self, decision_id: str, controller: str, user: str, source: str = "clarify"
    ) -> Decision:
        """After a clarification answer (or a correction): run `controller` on the stored
        message and record it as feedback "correct"; the result is stored with the decision."""
        names = self.registry.names()
        if controller not in names:
            raise UnknownController(controller, names)
        decision = self.feedback(
            decision_id, "correct", controller=controller, user=user, source=source
        )
        decision.result = self._handle_all(decision, [controller], pipeline=False)
        with self._lock:
            self.log.update(decision)
        return decision

    # -- feedback and lookups ------------------------------------------------------------
    def feedback(
        self,
        decision_id: str,
        kind: str,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
    ) -> Decision:
        """The one feedback API (see brain.feedback.FeedbackService.record_feedback)."""
        return self._feedback.record_feedback(
            decision_id, kind, controller=controller, user=user, source=source
        )

    def get_decision(self, decision_id: str) -> Decision:
        """A logged decision; raises core.errors.UnknownDecision."""
        return self.log.get(decision_id)

    def last_decision(self, user: str, channel: str) -> Decision | None:
        """The user's latest decision in a channel, or None."""
        return self.log.last_for(user, channel)

    def session_decisions(self, session_key: str) -> list[Decision]:
        """The latest decisions of one conversation, oldest first."""
        return self.log.session(session_key)

    def explain(self, decision_id: str) -> dict[str, Any]:
        """Everything behind a decision (render with brain.explain.render_text)."""
        return explain_decision(self.get_decision(decision_id))

    def close(self) -> None:
        """Release the knowledge base and worker threads."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self.log.close()
            self._pool.shutdown(wait=False)
            knowledge = self.parts.knowledge_if_open()
            if knowledge is not None:
                try:
                    knowledge.close()
                except Exception as exc:
                    log.warning("closing the knowledge base: %s", exc)

    def __enter__(self) -> Brain:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _turned_away(declared: bool, ids: Mapping[str, str], context: Mapping[str, str]) -> bool:
    """Does the semantic model's "out of scope" verdict stand? An identifier or the ongoing
    work anchors a message in scope whatever its words."""
    return declared and not ids and not context


def _asks_for_help(intent: IntentResult) -> bool:
    """The intent recognizer's own cues ("help", "stuck", "卡住") read a request for IT help."""
    cued = float(intent.source_scores.get("keyword", 0.0)) > 0.0
    return cued and intent.group not in NO_CONTEXT_GROUPS


def _lesson(
    candidates: Sequence[Candidate], matches: Mapping[str, list[MemoryMatch]]
) -> MemoryLesson | None:
    """The strongest correction away from the top candidate on a similar message, if any."""
    if not candidates:
        return None
    top = candidates[0].name
    best: MemoryLesson | None = None
    for wrong in matches.get(top, []):
        if wrong.entry.kind != "correction-wrong" or wrong.similarity < LESSON_MIN_SIMILARITY:
            continue
        for name, found in matches.items():
            for right in found:
                if (
                    right.entry.kind == "correction-right"
                    and right.entry.decision_id == wrong.entry.decision_id
                    and (best is None or wrong.similarity > best.similarity)
                ):
                    best = MemoryLesson(
                        wrong=top,
                        right=name,
                        similarity=wrong.similarity,
                        note=(
                            f"a similar message ({wrong.entry.text[:60]!r}) was corrected from "
                            f"{top} to {name} on {wrong.entry.created_at[:10]}"
                        ),
                    )
    return best


def _escalation(intent: IntentResult) -> str | None:
    """Why the decision goes to on-call, or None (seed 002: critical urgency, handoff intents)."""
    if intent.intent in ("escalation", "human_handoff"):
        return "the user asked for a person"
    if intent.urgency == "critical":
        if intent.intent == "security_incident":
            return "critical urgency (security incident)"
        return "critical urgency"
    return None


def _llm_status(llm: LLMClient | None, intent: IntentResult) -> str:
    if llm is None:
        return "disabled (no API key)"
    return intent.llm_status


__all__ = ["Brain", "clean_text", "new_decision_id", "session_key_of"]
