"""The `Brain` facade: the decision chain of seed 000 behind one small, thread-safe API.

Step 1 intent (IntentRecognizer, without the LLM first), step 2 the five signals and calibrated
confidence, progressive routing (brain.routing), step 4 the structured Decision (logged), step 5
the AUDNP memory ring. Heavy parts (knowledge base, embedder, semantic scorer, LLM) are opened
lazily, once, on first use, so `brain why` and `brain feedback` never load a model.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.calibration import rival_margin, top_two
from brain.decision_log import DecisionLog
from brain.explain import explain_decision
from brain.feedback import FeedbackService
from brain.memory import (
    MemoryMatch,
    MemoryRing,
    MemoryStore,
    decision_ids_mentioned,
    session_key_of,
)
from brain.rationale import build_rationale
from brain.routing import Candidate, MemoryLesson, Router, is_chinese, tier_of
from brain.signals.combine import (
    Evidence,
    KeywordCompiler,
    SignalTable,
    combine,
    semantic_signal,
    weights_of,
)
from brain.signals.keyword import KeywordHits
from brain.signals.knowledge import id_domains, knowledge_signal
from brain.signals.memory import memory_signal
from brain.signals.session import SessionCache, SessionEntry
from core.config import Settings, load_settings
from core.errors import UnknownController
from core.limits import MAX_MESSAGE_CHARS
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
from core.stores import open_stores
from core.text.cleaning import clean_text

if TYPE_CHECKING:
    from brain.intent import IntentRecognizer
    from controllers.base import Controller, ControllerContext, ControllerServices
    from controllers.registry import ControllerRegistry
    from core.llm import LLMClient
    from core.text.embedder import DenseEmbedder
    from knowledge.skill import KnowledgeSkill

log = logging.getLogger(__name__)

#: Text kept in the decision record; longer messages are cut (and say so).
STORED_TEXT_CAP = MAX_MESSAGE_CHARS
#: Text the signals look at: enough for any real message, bounded cost for a 100 KB paste.
SCORING_TEXT_CAP = 2_000
#: Registries up to this size get a KB confirmation for every controller (see
#: `_knowledge_candidates` for larger ones).
KB_MAX_CONFIRM = 32
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
#: Intents that say nothing about the controller.
NO_INTENT = ("other", "escalation", "human_handoff")
#: Intent groups of messages that are not vague requests for help (small talk, out of scope).
NO_CONTEXT_GROUPS = ("other", "conversation")


def new_decision_id() -> str:
    """Short, unique, URL-safe."""
    return "d-" + secrets.token_hex(6)


def _now() -> datetime:
    return datetime.now(UTC)


class Calibration:
    """Adapter over `brain.calibration.Calibrator` (raw weighted total -> 0..1 confidence)."""

    def __init__(self, settings: Settings) -> None:
        self.status = "identity (no calibrator)"
        self._calibrator: Any = None
        try:
            from brain.calibration import Calibrator
        except ImportError:
            return
        from brain.training import shipped_calibration

        path = settings.home / "calibration.json"
        shipped = shipped_calibration(settings)
        try:
            if path.exists():
                self._calibrator = Calibrator.load(path)
                self.status = f"loaded from {path}"
            elif shipped is not None:
                self._calibrator = Calibrator.load(shipped)
                self.status = "shipped (fitted on the built-ins' calibration examples)"
            else:
                self._calibrator = Calibrator()
                self.status = "default (uncalibrated)"
        except Exception as exc:
            log.warning("calibration unusable (%s); using the default", exc)
            self._calibrator = Calibrator()
            self.status = "default (stored calibration unreadable)"

    def assess(self, raw: float, features: Mapping[str, float]) -> tuple[float, float]:
        """(confidence 0..1, ranking score): the score orders candidates whose confidences tie
        (see `Calibrator.score`)."""
        if self._calibrator is None:
            return float(min(max(raw, 0.0), 1.0)), float(raw)
        confidence, score = self._calibrator.assess(raw, **features)
        return float(min(max(confidence, 0.0), 1.0)), float(score)


@dataclass(frozen=True, slots=True)
class _RegistryView:
    """What decide() needs from the registry, computed once per registry version."""

    version: str
    controllers: list[Controller]
    names: list[str]
    labels: dict[str, str]
    feeds: dict[str, tuple[str, ...]]


class Brain:
    """The decision chain; open with `Brain.open()`. Safe to use from several threads."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        settings.home.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()  # guards lazy opening and the stores
        self._registry: ControllerRegistry | None = None
        self._knowledge: KnowledgeSkill | None = None
        self._knowledge_opened = False
        self._llm: LLMClient | None = None
        self._llm_opened = False
        self._embedder: DenseEmbedder | None = None
        self._embedder_opened = False
        self._recognizer: IntentRecognizer | None = None
        self._semantic: Any = None
        self._semantic_version: str | None = None
        self._calibration: Calibration | None = None
        self._services: ControllerServices | None = None
        self._keywords = KeywordCompiler()
        self._registry_view: _RegistryView | None = None
        self._router = Router(settings.routing)
        self._pool = ThreadPoolExecutor(
            max_workers=max(settings.routing.max_parallel, 2), thread_name_prefix="brain"
        )
        stores = open_stores(settings)  # the one place the brain's stores are opened
        self.log = DecisionLog(stores.decisions)
        self.memory = MemoryStore(stores.lessons)
        self.sessions = SessionCache()
        self.ring = MemoryRing(self.memory, self.sessions)
        self._feedback = FeedbackService(
            self.log,
            self.ring,
            controller_names=lambda: self.registry.names(),
            embed=self._embed_if_loaded,
            lock=self._lock,
        )
        self._closed = False

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, settings: Settings | None = None) -> Brain:
        """A brain on `settings` (default: load_settings()); heavy parts open on first use."""
        return cls(settings or load_settings())

    @property
    def registry(self) -> ControllerRegistry:
        """The open controller set (entry points + YAML controllers of the home)."""
        if self._registry is None:
            with self._lock:
                if self._registry is None:
                    from controllers.registry import ControllerRegistry

                    self._registry = ControllerRegistry.load(self.settings)
        return self._registry

    @property
    def knowledge(self) -> KnowledgeSkill | None:
        """The KB routing skill (None when it cannot be opened; decisions still work)."""
        if not self._knowledge_opened:
            with self._lock:
                if not self._knowledge_opened:
                    from knowledge import open_knowledge
                    from knowledge.store import StoreLockedError

                    try:
                        self._knowledge = open_knowledge(self.settings)
                    except StoreLockedError:
                        raise  # its message says what holds the store and what to do
                    except Exception as exc:  # decide without the KB rather than not at all
                        log.warning(
                            "knowledge base unavailable (%s: %s); deciding without it",
                            type(exc).__name__,
                            exc,
                        )
                        self._knowledge = None
                    self._knowledge_opened = True
        return self._knowledge

    @property
    def llm(self) -> LLMClient | None:
        """The LLM client, or None without an API key."""
        if not self._llm_opened:
            with self._lock:
                if not self._llm_opened:
                    from core.llm import LLMClient

                    self._llm = LLMClient.from_settings(self.settings.llm)
                    self._llm_opened = True
        return self._llm

    @property
    def embedder(self) -> DenseEmbedder | None:
        """The process-wide MiniLM embedder, or None (sparse-only mode)."""
        if not self._embedder_opened:
            with self._lock:
                if not self._embedder_opened:
                    from core.text.embedder import get_dense_embedder

                    self._embedder = get_dense_embedder(self.settings)
                    self._embedder_opened = True
                    if self._embedder is not None:
                        embedder = self._embedder
                        self.memory.embed = lambda texts: embedder.embed(texts)
        return self._embedder

    @property
    def recognizer(self) -> IntentRecognizer:
        if self._recognizer is None:
            with self._lock:
                if self._recognizer is None:
                    from brain.intent import IntentRecognizer

                    self._recognizer = IntentRecognizer(self.llm, self.knowledge)
        return self._recognizer

    @property
    def calibration(self) -> Calibration:
        if self._calibration is None:
            with self._lock:
                if self._calibration is None:
                    self._calibration = Calibration(self.settings)
        return self._calibration

    @property
    def services(self) -> ControllerServices:
        if self._services is None:
            with self._lock:
                if self._services is None:
                    from controllers.services import build_services

                    self._services = build_services(self.settings, self.knowledge, self.llm)
        return self._services

    def _semantic_scorer(self, controllers: Sequence[Controller], version: str) -> Any:
        if self._semantic is None or self._semantic_version != version:
            with self._lock:
                if self._semantic is None or self._semantic_version != version:
                    self._semantic = self._fit_semantic(controllers, version)
                    self._semantic_version = version
        return self._semantic

    def _fit_semantic(self, controllers: Sequence[Controller], version: str) -> Any:
        try:
            from brain.semantic import SemanticScorer
        except ImportError:
            log.warning("brain.semantic is not available: the semantic signal is 0")
            return None
        from brain.training import load_training

        training = load_training(self.settings)
        return SemanticScorer.fit(
            controllers,
            self.embedder,
            cache_dir=self.settings.home / "models",
            extra_examples=training.examples,
            extra_negatives=training.negatives,
            tune=self.settings.training.tune_encoder,
        )

    def _view(self, registry: ControllerRegistry) -> _RegistryView:
        version = registry.version
        view = self._registry_view
        if view is None or view.version != version:
            controllers = registry.all()
            view = _RegistryView(
                version=version,
                controllers=controllers,
                names=[c.name for c in controllers],
                labels={c.name: (getattr(c, "label", "") or c.name) for c in controllers},
                feeds={
                    c.name: tuple(getattr(c, "feeds", ()))
                    for c in controllers
                    if getattr(c, "feeds", ())
                },
            )
            self._registry_view = view
        return view

    @property
    def semantic_model(self) -> Any:
        """The semantic scorer fitted on the current controller set (None without one)."""
        view = self._view(self.registry)
        return self._semantic_scorer(view.controllers, view.version)

    def prime(self, texts: Sequence[str]) -> None:
        """Embed texts ahead in one batch, in every view a decision will ask for (the
        knowledge base's and the semantic model's own), so decisions on them skip the model."""
        embedder = self.embedder
        if embedder is None or not texts:
            return
        tail = getattr(self.semantic_model, "tail", None)
        embedder.prime([t[:SCORING_TEXT_CAP] for t in texts], [tail] if tail is not None else [])

    def _embed_if_loaded(self, text: str) -> np.ndarray | None:
        embedder = self._embedder
        if embedder is None:
            return None
        return embedder.embed_query(text[:SCORING_TEXT_CAP])

    # -- step 2: signals -----------------------------------------------------------------
    def _session_entries(self, session_key: str) -> list[SessionEntry]:
        with self._lock:
            if not self.sessions.known(session_key):
                self.sessions.load(session_key, self.log.session(session_key))
        return self.sessions.entries(session_key)

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
        controllers: Sequence[Controller],
        version: str,
        context: Mapping[str, str],
        ids: Mapping[str, str],
    ) -> SignalTable:
        names = self._view(self.registry).names
        index = self._keywords.get(controllers, version)
        hint = None
        if intent.intent not in NO_INTENT and intent.group not in NO_CONTEXT_GROUPS:
            hint = (intent.intent, intent.group, float(intent.confidence))
        keyword = index.match(text, ids, context, hint)
        reading = semantic_signal(self._semantic_scorer(controllers, version), text, names)
        semantic = reading.values
        if intent.llm_status == "ok" and intent.description and intent.description != text:
            # With the LLM, the one-sentence intent is matched too ("question + identified intent").
            described = semantic_signal(
                self._semantic_scorer(controllers, version), intent.description, names
            )
            semantic = np.maximum(semantic, described.values)
        entries = self._session_entries(message.session_key)
        session = self.sessions.signal(message.session_key, names) if entries else None
        if session is None:
            session = np.full(len(names), 0.5, dtype=np.float32)
        memory, matches = memory_signal(
            self.memory,
            text,
            vector=vector,
            ids=decision_ids_mentioned(entities),
            user=message.user,
            names=names,
        )
        weights = weights_of(self.settings.routing)
        zeros = np.zeros(len(names), dtype=np.float32)
        partial = combine(weights, keyword.scores, semantic, zeros, session, memory)
        asked = _knowledge_candidates(partial, keyword, float(weights[2]))
        knowledge_values, confirmations, knowledge_status = knowledge_signal(
            self.knowledge, text, [names[i] for i in asked]
        )
        knowledge = zeros.copy()
        knowledge[asked] = knowledge_values
        total = partial + weights[2] * knowledge
        return SignalTable(
            names=names,
            keyword=keyword.scores,
            semantic=semantic,
            knowledge=knowledge,
            session=session,
            memory=memory,
            total=total,
            evidence=Evidence(
                keyword=keyword,
                confirmations=confirmations,
                memory=matches,
                status={"semantic": reading.status, "knowledge": knowledge_status},
            ),
            out_of_scope=reading.out_of_scope,
            declared_out_of_scope=reading.declared,
        )

    def _candidates(
        self, table: SignalTable, labels: Mapping[str, str]
    ) -> tuple[list[Candidate], dict[str, float]]:
        ranked = table.ranked(TOP_K)
        totals, semantics = top_two(table.total), top_two(table.semantic)
        confidences: dict[str, float] = {}
        scores: dict[str, float] = {}
        candidates = []
        for i in ranked:
            name = table.names[i]
            features = {
                "keyword": float(table.keyword[i]),
                "semantic": float(table.semantic[i]),
                "knowledge": float(table.knowledge[i]),
                "margin": rival_margin(float(table.total[i]), totals),
                "semantic_margin": rival_margin(float(table.semantic[i]), semantics),
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

        registry = self.registry
        view = self._view(registry)
        controllers, version, labels = view.controllers, view.version, view.labels

        intent = self.recognizer.recognize(scoring_message, use_llm=False)
        entities: dict[str, list[str]] = {k: list(v) for k, v in intent.entities.items()}
        vector = self.embedder.embed_query(scoring_text) if self.embedder is not None else None
        ids = id_domains(self.knowledge, scoring_text, entities)
        keyword_index = self._keywords.get(controllers, version)
        keyword_hits = keyword_index.match(scoring_text, ids)
        notes: list[str] = []

        # Memory-assisted pre-step: a vague message is read in the light of the ongoing work.
        vague = not keyword_hits.any_keyword() and not ids and not entities
        context: dict[str, str] = {}
        # Out-of-scope text ("book a table") has no intent of ours: it gets no context.
        if vague and intent.group not in NO_CONTEXT_GROUPS:
            ongoing = self._ongoing_context(self._session_entries(message.session_key))
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
                controllers=controllers,
                version=version,
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

        make_context = lambda: self._context(decision_id, text, message, intent, entities)  # noqa: E731
        feeds = view.feeds
        plan = self._router.route(
            candidates,
            dry_run=self._dry_run_fn(make_context, llm_calls),
            chinese=is_chinese(text),
            registered=len(controllers),
            # A safety net, not a filter: only when the semantic model is unsure too.
            vague=vague and float(table.semantic.max(initial=0.0)) < VAGUE_SEMANTIC,
            out_of_scope=table.out_of_scope if _turned_away(table, ids, context) else None,
            help_request=vague and _asks_for_help(intent),
            feeds=feeds,
            lesson=_lesson(candidates, table.evidence.memory),
        )
        escalation = _escalation(intent)
        for influences in table.evidence.memory.values():
            notes.extend(m.describe() for m in influences)
        notes.extend(self.ring.detect(plan.controller, table.evidence.memory))
        signals = table.as_dict()
        for name, row in signals.items():
            if name in confidences:
                row["confidence"] = round(confidences[name], 4)
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
        order = _pipeline_order(names, self._feeds()) if pipeline else names
        decision.result = self._handle_all(decision, order, pipeline=pipeline)
        if decision.result.escalate and not decision.escalate:
            decision.escalate = True
            decision.rationale += " Escalated to on-call: the controller asked for a person."
        with self._lock:
            self.log.update(decision)
        return decision

    def _feeds(self) -> dict[str, tuple[str, ...]]:
        from brain.routing import DEFAULT_FEEDS

        feeds = dict(DEFAULT_FEEDS)
        for c in self.registry.all():
            if getattr(c, "feeds", ()):
                feeds[c.name] = tuple(c.feeds)  # type: ignore[attr-defined]
        return feeds

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
            if self._knowledge is not None:
                try:
                    self._knowledge.close()
                except Exception as exc:
                    log.warning("closing the knowledge base: %s", exc)

    def __enter__(self) -> Brain:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _knowledge_candidates(partial: np.ndarray, keyword: KeywordHits, weight: float) -> np.ndarray:
    """Controllers worth a KB confirmation: all in a small registry; in a large one, those that
    could still reach the leader with a perfect KB score (plus any with identifier evidence),
    at most KB_MAX_CONFIRM. The rest cannot win on the KB alone and get 0."""
    count = len(partial)
    if count <= KB_MAX_CONFIRM:
        return np.arange(count)
    reachable = np.flatnonzero(partial + weight >= float(partial.max()))
    chosen = set(reachable[np.argsort(-partial[reachable])][:KB_MAX_CONFIRM].tolist())
    chosen.update(keyword.ids)
    return np.array(sorted(chosen), dtype=np.int64)


def _turned_away(table: SignalTable, ids: Mapping[str, str], context: Mapping[str, str]) -> bool:
    """Does the semantic model's "out of scope" verdict stand? An identifier or the ongoing
    work anchors a message in scope whatever its words."""
    return table.declared_out_of_scope and not ids and not context


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


def _pipeline_order(names: Sequence[str], feeds: Mapping[str, Sequence[str]]) -> list[str]:
    from brain.routing import composition_of

    return composition_of(names, feeds)[1]


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
