"""The `Brain` facade: the decision chain behind one small, thread-safe API.

`decide` runs the five steps of `brain.chain` in order (understand, evaluate, route, record,
learn); `ask` also runs the chosen controllers (`brain.chain.execute`). Heavy parts (knowledge
base, embedder, semantic model, LLM) live in `brain.parts` and open on first use, or all at
once with `warm()`, so `brain why` and `brain feedback` never load a model.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.chain import multi_intent
from brain.chain.degrade import degrade
from brain.chain.escalate import escalate
from brain.chain.evaluate import Evaluation, evaluate, signals_of
from brain.chain.execute import ControllerRunner
from brain.chain.learn import learn
from brain.chain.record import record
from brain.chain.request_type import request_type
from brain.chain.route import Routing, route
from brain.chain.understand import (
    STORED_TEXT_CAP,
    Understanding,
    clean_text,
    new_decision_id,
    understand,
)
from brain.chain.unplaced import answer_unplaced
from brain.decisions.explain import Explanation
from brain.decisions.log import DecisionLog
from brain.decisions.lookups import DecisionLookups
from brain.dynamic.cases import CaseBook
from brain.dynamic.evolution import Evolution
from brain.dynamic.llm_stages import LLMStages
from brain.dynamic.loop import DynamicSolver
from brain.dynamic.resolution import Resolution
from brain.learning.control import ForgetReport
from brain.learning.feedback import FeedbackService
from brain.learning.ring import LessonRing, session_key_of
from brain.memory.index import MEMORY_COLLECTION
from brain.memory.lessons import LessonRecall
from brain.parts import SCORING_TEXT_CAP, BrainParts, PartsFacade
from brain.routing.fitted import with_fitted_routing
from brain.routing.router import Router
from brain.routing.wording import follow_up_question
from brain.signals.semantic import verdict_of
from brain.signals.session_cache import SessionCache
from brain.teaching import Teaching
from controllers.answering import retrieval_of
from core.config import Settings, load_settings
from core.llm_calls import LLMCallCount, PendingBudgets, count_llm_calls
from core.logs import bound
from core.plans import Plan
from core.records import Decision, DecisionPart, Message
from core.redact import redact_message
from core.stores import open_stores

if TYPE_CHECKING:
    from brain.routing.plan import RoutePlan
    from controllers.base import ControllerContext
    from controllers.registry import ControllerRegistry
    from core.stores.conversations import ConversationStates
    from knowledge.skill import KnowledgeSkill
    from knowledge.vectors import VectorStore

log = logging.getLogger(__name__)
#: Steps 1-4 of one message (`Brain._think`): nothing written yet.
Thought = tuple[Understanding, Evaluation, Routing]


class Brain(PartsFacade):
    """The decision chain; open with `Brain.open()`. Safe to use from several threads."""

    def __init__(self, settings: Settings, registry: ControllerRegistry | None = None) -> None:
        settings = with_fitted_routing(settings)  # what an import or eval fitted in the home
        self.settings = settings
        settings.home.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()  # guards the stores
        #: Each decided, not yet executed decision's LLM deadline (`decide` -> `execute`).
        self._budgets = PendingBudgets()
        self._router = Router(settings.routing)
        self._pool = ThreadPoolExecutor(
            max_workers=max(settings.routing.max_parallel, 2), thread_name_prefix="brain"
        )
        stores = open_stores(settings)  # the one place the brain's stores are opened
        #: Every store of the home, handed to the parts (and to whoever composes a brain).
        self.stores = stores
        self.log = DecisionLog(stores.decisions)
        self.memory = LessonRecall(
            stores.lessons,
            agreement=settings.memory.agreement_users,
            index=self._open_memory_index,
        )
        self.sessions = SessionCache()
        self.ring = LessonRing(self.memory, self.sessions)
        self.parts = BrainParts(
            settings,
            stores=stores,
            log=self.log,
            memory=self.memory,
            sessions=self.sessions,
            lock=self._lock,
            registry=registry,
        )
        self._runner = ControllerRunner(self.parts, self._pool)
        self._lookups = DecisionLookups(self.log)
        # The dynamic tier (brain.dynamic): DCR, the fallback ladder and evolution.
        self.cases = CaseBook(stores.cases, embed=self.parts.embed_if_loaded)
        self.dynamic = DynamicSolver(
            settings,
            self.cases,
            knowledge=lambda: self.parts.knowledge,
            llm=lambda: LLMStages.of(self.parts.llm, self.parts.view),
        )
        self.evolution = Evolution(settings, self.cases, lambda: self.registry)
        feedback = FeedbackService(
            self.log,
            self.ring,
            controller_names=lambda: self.registry.names(),
            embed=self.parts.embed_if_loaded,
            lock=self._lock,
        )
        #: Feedback, routes, resolutions and forgetting (`brain.teaching`).
        self.teaching = Teaching(
            self,
            parts=self.parts,
            stores=stores,
            feedback=feedback,
            runner=self._runner,
            cases=self.cases,
            evolution=self.evolution,
            lock=self._lock,
        )
        self._closed = False

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(
        cls, settings: Settings | None = None, *, registry: ControllerRegistry | None = None
    ) -> Brain:
        """A brain on `settings` (default: load_settings()); `registry` replaces the home's."""
        return cls(settings or load_settings(), registry)

    def warm(self) -> None:
        """Open and fit everything a decision needs now, so the first message does not wait."""
        self.parts.warm()
        self.memory.open_index()

    def _open_memory_index(self) -> VectorStore:
        """The Qdrant `memory` collection beside the knowledge base (`brain.memory.index`)."""
        from knowledge.vectors import open_vector_store

        embedder = self.parts.embedder
        return open_vector_store(
            self.settings,
            dense_dim=None if embedder is None else embedder.dim,
            collection=MEMORY_COLLECTION,
        )

    def opened_parts(self) -> dict[str, bool]:
        """Which heavy parts are open (what `warm` opens; `/readyz` shows it)."""
        return self.parts.opened()

    def prime(self, texts: Sequence[str]) -> None:
        """Embed texts ahead in one batch, in every view a decision will ask for (the
        knowledge base's and the semantic model's own), so decisions on them skip the model."""
        embedder = self.embedder
        if embedder is None or not texts:
            return
        model = self.semantic_model
        tail = model.tail if model is not None else None
        embedder.prime([t[:SCORING_TEXT_CAP] for t in texts], [tail] if tail is not None else [])

    # -- the decision --------------------------------------------------------------------
    def decide(self, message: Message) -> Decision:
        """Route one message through the five steps; the decision is logged."""
        # Counts only this decision's LLM requests, even with others deciding on other threads,
        # and gives them one deadline, `[llm] timeout_s` from now, never renewed: intent
        # recognition, dry-runs, the dynamic tier and, in `execute`, answer verification.
        # `bound()`: the decision id the chain binds to its log lines does not outlive it.
        with bound(), count_llm_calls(within_s=self.settings.llm.timeout_s) as llm_calls:
            decision = self._decide(redact_message(message), llm_calls)
        self._budgets.keep(decision.decision_id, llm_calls)
        return decision

    def places(self, message: Message) -> str | None:
        """The controller the chain, reading the message alone, routes it to (`_placed`);
        nothing is recorded. A fragment the chain cannot place ("my user is jdoe2") is context
        for a thread's record; one it places with another controller is evidence of new work."""
        return _placed(self._alone(message)[2])

    def turns_away(self, message: Message) -> bool:
        """The chain places the message nowhere and the semantic model declares it outside
        every controller's work ("what's the weather like tomorrow?"); nothing is recorded."""
        _, evaluated, routed = self._alone(message)
        if _placed(routed) is not None:
            return False
        verdict = verdict_of(evaluated.table.reading("semantic"))
        return verdict.declared_at(self.settings.routing.out_of_scope_above)

    def _alone(self, message: Message) -> Thought:
        with bound(), count_llm_calls(within_s=self.settings.llm.timeout_s) as llm_calls:
            return self._think(redact_message(message), llm_calls, dynamic=False)

    def _decide(self, message: Message, llm_calls: LLMCallCount) -> Decision:
        pieces = multi_intent.pieces_of(message.text, self.read_continuation)
        if pieces:
            decision = self._decide_parts(message, pieces, llm_calls)
            if decision is not None:
                return decision
        return self._record(*self._think(message, llm_calls), llm_calls)

    def _think(self, message: Message, llm_calls: LLMCallCount, *, dynamic: bool = True) -> Thought:
        """Steps 1-4 (understand, evaluate, escalate, route): nothing is written yet.
        `dynamic`: False for a piece of a multi-intent message, which counts only when it routes
        on its own (the dynamic tier, and its LLM calls, is for the whole message)."""
        parts = self.parts
        understood = understand(message, parts)
        evaluated = evaluate(understood, parts)
        # What the message does, for the dry-runs: a fault reported is not an order.
        kind = request_type(understood.text, evaluated.intent, understood.vector)
        embedder = parts.embedder_if_loaded()
        embed = embedder.embed_query if embedder is not None else None

        def controller_context() -> ControllerContext:
            return self._runner.context(
                understood.decision_id,
                understood.text,
                message,
                evaluated.intent,
                evaluated.entities,
                kind,
            )

        routed = route(
            understood,
            evaluated,
            escalate(understood, evaluated, parts.escalation_model, embed),
            router=self._router,
            view=parts.view,
            ring=self.ring,
            dry_run=self._runner.dry_run_for(controller_context, llm_calls),
            tickets=parts.services.tickets,
            dynamic=self.dynamic if dynamic else None,
            knowledge=parts.knowledge,
            compliance=self.settings.memory.compliance,
            read_as=kind,
        )
        return understood, evaluated, routed

    def _record(
        self,
        understood: Understanding,
        evaluated: Evaluation,
        routed: Routing,
        llm_calls: LLMCallCount,
        parts: Sequence[DecisionPart] = (),
        learns: bool = True,
    ) -> Decision:
        """Steps 5-6 (record, learn), under the stores' lock."""
        with self._lock:  # the record and what the memory ring learns are written together
            decision = record(
                understood,
                evaluated,
                routed,
                labels=self.parts.view.labels,
                llm=self.parts.llm,
                llm_calls=llm_calls.value,
                log=self.log,
                parts=parts,
            )
            if learns:
                learn(decision, understood.vector, ring=self.ring, log=self.log)
        return decision

    def _decide_parts(
        self, message: Message, pieces: Sequence[str], llm_calls: LLMCallCount
    ) -> Decision | None:
        """A multi-intent message: each piece decided (and logged) on its own, the message as
        their parallel composition; None when the pieces are not independent requests. Objects
        of one verb that go to one controller are joined back into one piece first
        (`multi_intent.regrouped`: "a laptop, a monitor and a Tableau licence" is one order and
        one licence)."""

        def think(pieces: Sequence[str]) -> tuple[list[Thought], list[RoutePlan]]:
            thoughts = [
                self._think(replace(message, text=piece), llm_calls, dynamic=False)
                for piece in pieces
            ]
            return thoughts, [routed.plan for _, _, routed in thoughts]

        thoughts, plans = think(pieces)
        if not multi_intent.independent(plans):
            pieces = multi_intent.regrouped(message.text, plans)
            thoughts, plans = think(pieces)
            if not multi_intent.independent(plans):
                return None
        understood = understand(message, self.parts)
        evaluated = evaluate(understood, self.parts)
        parts = multi_intent.parts_of(pieces, plans, [u.decision_id for u, _, _ in thoughts])
        for (part_understood, part_evaluated, part_routed), part in zip(
            thoughts, parts, strict=True
        ):
            part_routed.plan.tier_path.append(
                f"part of multi-intent decision {understood.decision_id} ({part.role})"
            )
            self._record(part_understood, part_evaluated, part_routed, llm_calls)
        plan = multi_intent.combined_plan(parts, plans)
        # The message pages when any of its requests does (its own escalation decision).
        ranked = sorted((r for _, _, r in thoughts), key=lambda r: r.escalation is None)
        routed = Routing(plan, ranked[0].escalation, [], ranked[0].escalated)
        return self._record(understood, evaluated, routed, llm_calls, parts=parts, learns=False)

    def ask(self, message: Message) -> Decision:
        """Decide, then run the controller (and supporting ones) when routed or composed."""
        return self.execute(self.decide(message))

    def execute(self, decision: Decision) -> Decision:
        """Run a decided message's controllers (when routed or composed), stored with it; a
        surface may look in between (a thread's record takes a follow-up: brain.conversation)."""
        budget = self._budgets.take(decision.decision_id)
        if decision.outcome not in ("routed", "composed") or decision.controller is None:
            counted = count_llm_calls(budget, within_s=self.settings.llm.timeout_s)
            with bound(decision_id=decision.decision_id), counted as llm_calls:
                if answer_unplaced(decision, self._runner, self.parts):
                    decision.retrieval = retrieval_of(decision.result)
                    decision.llm_calls += llm_calls.value
                    with self._lock:
                        self.log.update(decision)
            return decision
        # The decision's own budget, what `decide` left of it (a fresh one for a decision
        # decided elsewhere); its log lines carry its id.
        counted = count_llm_calls(budget, within_s=self.settings.llm.timeout_s)
        with bound(decision_id=decision.decision_id), counted as llm_calls:
            return self._execute(decision, llm_calls)

    def _execute(self, decision: Decision, llm_calls: LLMCallCount) -> Decision:
        assert decision.controller is not None
        before = llm_calls.value  # what `decide` made (already in `decision.llm_calls`)
        if decision.parts:
            parts = [self.log.get(part.decision_id) for part in decision.parts]
            decision.result = self._runner.run_parts(decision, parts)
            with self._lock:
                for part in parts:
                    self.log.update(part)
        else:
            decision.result = self._runner.run_decision(decision)
            degrade(decision, self._runner, self.parts)
        decision.retrieval = retrieval_of(decision.result)
        # A controller may ask for a person (a security incident it filed), but not for a
        # question about security: that is a consultation, and questions never page.
        consultation = decision.escalation is not None and decision.escalation.consultation
        if decision.result.escalate and not decision.escalate and not consultation:
            # Only P1 pages (brain.escalation): a controller's wish for a person is noted.
            priority = decision.escalation.priority if decision.escalation else "P4"
            decision.rationale += (
                f" The controller asked for a person; not paged ({priority}: only P1 pages)."
            )
        if decision.result.missing and decision.follow_up is None:
            # Routed although parameters are missing (an urgent fast route): ask after.
            zh = decision.in_chinese
            labels = self.parts.view.labels_zh if zh else self.parts.view.labels
            label = labels.get(decision.controller, decision.controller)
            decision.follow_up = follow_up_question(label, decision.result.missing, zh, check=False)
        decision.llm_calls += llm_calls.value - before  # answer verification's, and the like
        with self._lock:
            self.log.update(decision)
            # The session now knows whether the controller succeeded (lessons need it).
            self.sessions.put(session_key_of(decision), decision)
        return decision

    def log_turn(self, decision: Decision) -> None:
        """Log a decision made beside the chain (a follow-up applied to a thread's record,
        `brain.conversation.thread`); the session then counts it as its latest work. It is
        logged with the signals its text scores, as every decision is."""
        if not decision.signals:
            message = Message(
                decision.text, decision.user, decision.channel, decision.thread, team=decision.team
            )
            try:
                with bound(decision_id=decision.decision_id):
                    decision.signals = signals_of(message, self.parts)
            except Exception as exc:  # a part is down: the follow-up still counts
                log.warning("signals of follow-up %s: %s", decision.decision_id, exc)
        with self._lock:
            self.log.append(decision)
            self.sessions.put(session_key_of(decision), decision)

    @property
    def conversations(self) -> ConversationStates:
        """Each thread's conversation state, in the record store (`core.stores`)."""
        return self.stores.conversations

    # -- what people teach it (brain.teaching) ---------------------------------------------
    def route_to(
        self, decision_id: str, controller: str, user: str, source: str = "clarify"
    ) -> Decision:
        """Run `controller` on a decided message (a clarification's answer, a correction)."""
        return self.teaching.route_to(decision_id, controller, user, source)

    def feedback(
        self,
        decision_id: str,
        kind: str,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
        reason: str = "",
    ) -> Decision:
        """The one feedback API (`brain.teaching.Teaching.feedback`)."""
        return self.teaching.feedback(
            decision_id, kind, controller=controller, user=user, source=source, reason=reason
        )

    def resolve(
        self,
        decision_id: str,
        *,
        route: str | None = None,
        plan: Plan | None = None,
        user: str | None = None,
    ) -> Resolution:
        """A person's resolution of a decision (`brain.teaching.Teaching.resolve`)."""
        return self.teaching.resolve(decision_id, route=route, plan=plan, user=user)

    def forget_user(self, user: str) -> ForgetReport:
        """The right to be forgotten (`brain.teaching.Teaching.forget_user`)."""
        return self.teaching.forget_user(user)

    # -- look-ups ---------------------------------------------------------------------------
    def get_decision(self, decision_id: str) -> Decision:
        """A logged decision; raises core.errors.UnknownDecision."""
        return self._lookups.get(decision_id)

    def last_decision(self, user: str, channel: str) -> Decision | None:
        """The user's latest decision in a channel, or None."""
        return self._lookups.last(user, channel)

    def session_decisions(self, session_key: str) -> list[Decision]:
        """The latest decisions of one conversation, oldest first."""
        return self._lookups.session(session_key)

    def explain(self, decision_id: str) -> Explanation:
        """Everything behind a decision (`brain why`)."""
        return self._lookups.explain(decision_id)

    def close(self) -> None:
        """Release the knowledge base, the stores (waiting for their background writes) and
        the worker and refit threads. The knowledge base closes on a thread of its own while
        the memory closes: closing a shard mostly waits for Qdrant Edge's threads (0.1-0.2 s
        each; `brain ask` closes two)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            knowledge = self.parts.knowledge_if_open()
            closing = None
            if knowledge is not None:
                closing = threading.Thread(
                    target=_close_knowledge, args=(knowledge,), name="brain-close-knowledge"
                )
                closing.start()
            self.parts.org_training.close()
            self.memory.close()
            # The decision log (`self.log`'s store) and the background folds of the stores'
            # journals: when close returns, nothing of this brain writes in its home.
            self.stores.close()
            self._pool.shutdown(wait=False)
            if closing is not None:
                closing.join()

    def __enter__(self) -> Brain:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["STORED_TEXT_CAP", "Brain", "clean_text", "new_decision_id", "session_key_of"]


def _close_knowledge(knowledge: KnowledgeSkill) -> None:
    try:
        knowledge.close()
    except Exception as exc:
        log.warning("closing the knowledge base: %s", exc)


def _placed(routed: Routing) -> str | None:
    """`Brain.places` of a routing: its controller, "" when it only escalates, else None."""
    if routed.plan.outcome not in ("clarify", "fallback"):
        return routed.plan.controller or ""
    return "" if routed.escalation is not None else None
