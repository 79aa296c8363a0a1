"""What people teach a running brain, beside the decision chain: a route chosen after the
brain asked (or as a correction), feedback (a correction or a confirmation), a person's
resolution of what no controller took, and forgetting a person.

`brain.engine.Brain` decides; `Teaching` records what people said about its decisions and what
follows from it (lessons, the organisation refit, a person's resolution, evolution), on the
brain's stores and under its lock. The brain's methods of the same names hand over to it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.dynamic.resolution import Resolution, check_plan, route_plan, settle
from brain.learning.control import ForgetReport, Learned, forget_user
from core.errors import InvalidFeedback, UnknownController
from core.plans import Plan

if TYPE_CHECKING:
    from brain.chain.execute import ControllerRunner
    from brain.dynamic.cases import CaseBook
    from brain.dynamic.evolution import Evolution
    from brain.learning.feedback import FeedbackService
    from brain.parts import BrainParts
    from core.records import Decision
    from core.stores import Stores

log = logging.getLogger(__name__)

#: Outcomes of a message no controller took: a person's route for one is a resolution.
UNPLACED = ("fallback", "clarify")


class Teaching:
    """Feedback, routes, resolutions and forgetting for one brain (its stores and lock)."""

    def __init__(
        self,
        brain: Learned,
        *,
        parts: BrainParts,
        stores: Stores,
        feedback: FeedbackService,
        runner: ControllerRunner,
        cases: CaseBook,
        evolution: Evolution,
        lock: threading.RLock,
    ) -> None:
        self._brain = brain
        self._parts = parts
        self._stores = stores
        self._feedback = feedback
        self._runner = runner
        self._cases = cases
        self._evolution = evolution
        self._lock = lock

    def route_to(
        self, decision_id: str, controller: str, user: str, source: str = "clarify"
    ) -> Decision:
        """After a clarification answer (or a correction): run `controller` on the stored
        message and record it as feedback "correct"; the result is stored with the decision."""
        names = self._parts.registry.names()
        if controller not in names:
            raise UnknownController(controller, names)
        decision = self.feedback(
            decision_id, "correct", controller=controller, user=user, source=source
        )
        decision.result = self._runner.rerun(decision, controller, by=user)
        with self._lock:
            self._brain.log.update(decision)
        return decision

    def feedback(
        self,
        decision_id: str,
        kind: str,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
        reason: str = "",
    ) -> Decision:
        """The one feedback API (`brain.learning.feedback.FeedbackService.record_feedback`); a
        confirmation may complete an unknown problem's cluster (`brain.dynamic.evolution`)."""
        decision = self._feedback.record_feedback(
            decision_id, kind, controller=controller, user=user, source=source, reason=reason
        )
        if kind in ("correct", "confirm"):
            self._parts.org_training.schedule()  # an organisation lesson may have formed
        if kind == "correct" and controller and decision.outcome in UNPLACED:
            # An unknown corrected to an existing controller is a person's resolution.
            self._settle(decision, route_plan(controller), user or decision.user)
            return decision
        with self._lock:
            evolved = self._evolution.after_feedback(decision, kind, user or decision.user)
        if evolved is not None:
            log.info("evolved controller %s from decision %s", evolved, decision_id)
        return decision

    def resolve(
        self,
        decision_id: str,
        *,
        route: str | None = None,
        plan: Plan | None = None,
        user: str | None = None,
    ) -> Resolution:
        """A person's resolution of a decision: a route to an existing controller (recorded
        as the correction it also is) or a plan; three alike become an evolved controller
        (`brain.dynamic.resolution`). Raises UnknownDecision, UnknownController."""
        if (route is None) == (plan is None):
            raise InvalidFeedback("a resolution is a route or a plan, one of them")
        chosen = route_plan(route) if route is not None else plan
        assert chosen is not None
        check_plan(chosen, self._parts.registry.names())
        decision = self._brain.log.get(decision_id)
        by = user or decision.user
        if route is not None:
            self._feedback.record_feedback(
                decision_id, "correct", controller=route, user=by, source="resolve"
            )
            self._parts.org_training.schedule()
        return self._settle(decision, chosen, by)

    def _settle(self, decision: Decision, plan: Plan, by: str) -> Resolution:
        embedder = self._parts.embedder
        if embedder is not None:
            embedder.load()  # cases are compared by meaning (a CLI process loads it here)
        vector = self._parts.embed_if_loaded(decision.text)
        settings = self._brain.settings
        evolution = self._evolution if settings.evolution.enabled else None
        with self._lock:
            return settle(self._cases, evolution, decision, plan, by=by, vector=vector)

    def forget_user(self, user: str) -> ForgetReport:
        """The right to be forgotten (`brain.learning.control.forget_user`: lessons, records,
        threads, the ticket-system outbox) and the dynamic tier's cases and evolved examples
        of the user. Every entry point (`brain memory forget`, /brain-forget, "forget me")
        comes here."""
        with self._lock:
            cases = self._cases.forget_user(user)
            evolved = self._evolution.forget_cases(cases)
            stores = self._stores
            report = forget_user(
                self._brain,
                user,
                stores.tickets,
                stores.alerts,
                conversations=stores.conversations,
                outbox=stores.ticket_outbox,
                sync=stores.ticket_sync,
                case_texts=[str(case.get("text") or "") for case in cases],
            )
            return replace(report, cases=len(cases), evolved=evolved)
