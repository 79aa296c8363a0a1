"""Plan rules: what the route step does to the router's plan, each rule named, in one ordered
list.

The router (`brain.routing.router`) turns the calibrated candidates into a plan by the tiers.
Some facts about a message overrule that plan by its form or its references, and each is a
`PlanRule` here: a question about security is answered, never filed; a knowledge-base sense
of the words; a question stays a question; a problem reported to a diagnosing controller is
filed too; a named ticket, asset or host is looked up, never
filed again; the dynamic tier plans what the tiers could not. They run in `PLAN_RULES`'s
order, each reading the plan the rule before it left, and the names of the rules that changed
the plan are kept on the decision (`Decision.plan_rules`, shown by `brain why`), so an
explanation can say which rule decided. A new rule is one `PlanRule` added to the tuple (or a
tuple of one's own passed to `brain.chain.route.route`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from brain.chain import speech_act
from brain.chain.attend import attend
from brain.chain.lookup import (
    asks_about_ticket,
    asks_to_look_up,
    named_tickets,
    prefer_existing,
)
from brain.chain.request_type import (
    RequestType,
    question_form,
    questions_stay_questions,
    reports_problem,
    work_form,
)
from brain.chain.senses import apply_sense, senses_of
from brain.chain.small_talk import answer_small_talk
from brain.chain.tracked import reports_are_filed
from brain.escalation.decide import SECURITY_INTENT
from brain.intent.taxonomy import intent_group
from brain.routing.plan import Candidate, RoutePlan
from controllers.references import THING_KINDS, mentions
from controllers.roles import ANSWERS, OUTAGES, RECORDS
from core.records import DryRunRecord, EscalationRecord
from core.text.language import QUESTION_MARKS

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.dynamic.loop import DynamicSolver
    from brain.parts import RegistryView
    from controllers.tickets import TicketStore
    from knowledge.skill import KnowledgeSkill


@dataclass(frozen=True, slots=True)
class Situation:
    """What a plan rule may read besides the plan: the message understood and evaluated, the
    controllers, the escalation decision, what the message asks for, and the stores."""

    understood: Understanding
    evaluated: Evaluation
    view: RegistryView
    escalated: EscalationRecord
    #: What the message asks for (`brain.chain.request_type`).
    kind: RequestType
    dry_run: Callable[[str], DryRunRecord]
    tickets: TicketStore | None = None
    knowledge: KnowledgeSkill | None = None
    dynamic: DynamicSolver | None = None


@dataclass(frozen=True, slots=True)
class PlanRule:
    """One named rule: `apply` returns the plan to use (the same plan when it does not apply)."""

    name: str
    apply: Callable[[RoutePlan, Situation], RoutePlan]


def apply_rules(
    plan: RoutePlan, situation: Situation, rules: Sequence[PlanRule]
) -> tuple[RoutePlan, list[str]]:
    """The plan after every rule in order, and the names of the rules that changed it."""
    applied: list[str] = []
    for rule in rules:
        before = _shape(plan)
        plan = rule.apply(plan, situation)
        if _shape(plan) != before:
            applied.append(rule.name)
    return plan, applied


def _shape(plan: RoutePlan) -> tuple[object, ...]:
    """What a rule may change of a plan (a rule that changes one notes it in the path)."""
    return (
        plan.tier,
        plan.outcome,
        plan.controller,
        tuple(plan.supporting),
        plan.composition,
        len(plan.tier_path),
        plan.execution is not None,
        plan.answer is not None,
    )


# -- the built-in rules -----------------------------------------------------------------------
def _security_question(plan: RoutePlan, situation: Situation) -> RoutePlan:
    if not situation.escalated.consultation:
        return plan
    view = situation.view
    return _as_consultation(plan, situation.evaluated.candidates, view.holder(ANSWERS))


def _sense(plan: RoutePlan, situation: Situation) -> RoutePlan:
    view = situation.view
    senses = senses_of(situation.knowledge, situation.understood.text)
    return apply_sense(plan, senses, view.names, view.holder(ANSWERS))


def _questions_stay_questions(plan: RoutePlan, situation: Situation) -> RoutePlan:
    if _moved_by_people(plan, situation.evaluated):
        return plan
    view = situation.view
    return questions_stay_questions(
        plan, situation.kind, filers=view.filers, answers=view.holder(ANSWERS)
    )


def _reports_are_filed(plan: RoutePlan, situation: Situation) -> RoutePlan:
    """A thread's opening message whose form reports a failure and asks nothing, and which the
    speech-act model, reading it as work, reads as a report rather than a question, is a
    report; a later turn's plain statement is read with the thread (the continuation
    reading), not as a new report here."""
    view, text = situation.view, situation.understood.text
    opening = not situation.understood.message.history
    if opening and situation.kind == "work":
        acts = speech_act.read(text, situation.understood.vector).probabilities
        opening = acts["problem"] > acts["question"]
    return reports_are_filed(
        plan,
        kind=situation.kind,
        filers=view.filers,
        feeds=view.feeds,
        holders=view.roles,
        dry_run=situation.dry_run,
        names_record=bool(situation.evaluated.entities.get("ticket_id")),
        reports=opening
        and reports_problem(text)
        and not (
            question_form(text) or work_form(text) or any(mark in text for mark in QUESTION_MARKS)
        ),
    )


def _catch_all_joins_no_request(plan: RoutePlan, situation: Situation) -> RoutePlan:
    """The controller for outages no other controller fits (the `outages` role) does not join
    a composition for a request for work that another controller takes: "I need a VPN
    account opened" (in Chinese) was an access request plus an incident "about the VPN", two
    records for one request, because the catch-all's dry-run passes on any system it knows. It still
    joins a message that reports a problem, and still takes a request no one else takes."""
    catch_all = situation.view.holder(OUTAGES)
    if (
        plan.outcome != "composed"
        or situation.kind != "work"
        or catch_all is None
        or catch_all not in plan.supporting
    ):
        return plan
    supporting = [name for name in plan.supporting if name != catch_all]
    path = [
        *plan.tier_path,
        f"{catch_all} left out: a request for work that {plan.controller} takes",
    ]
    if supporting:
        return replace(plan, supporting=supporting, tier_path=path)
    return replace(plan, outcome="routed", supporting=[], composition=None, tier_path=path)


def _named_ticket(plan: RoutePlan, situation: Situation) -> RoutePlan:
    understood, view = situation.understood, situation.view
    exists = _exists_in(situation.tickets)
    return prefer_existing(
        plan,
        named_tickets(understood.text, situation.evaluated.entities, exists),
        asks=asks_about_ticket(understood.text) or situation.kind == "question",
        filers=view.filers,
        records=view.holder(RECORDS),
        feeds=view.feeds,
        exists=exists,
    )


def _named_thing(plan: RoutePlan, situation: Situation) -> RoutePlan:
    """ "please check on LT-20977": a named asset or host is looked up, never filed."""
    understood, view = situation.understood, situation.view
    things = [v for k in THING_KINDS for v in situation.evaluated.entities.get(k, [])]
    if not (things and asks_about_ticket(understood.text)):
        return plan
    if not _looks_up(situation.kind, understood, situation.tickets, things):
        return plan
    return prefer_existing(
        plan,
        things,
        asks=True,
        filers=view.filers,
        records=view.holder(RECORDS),
        feeds=view.feeds,
    )


def _small_talk(plan: RoutePlan, situation: Situation) -> RoutePlan:
    """ "hello", "thanks, that fixed it", "got it": answered in kind when nothing was placed."""
    understood, view = situation.understood, situation.view
    # "ok" or a thumbs-up in a Chinese thread is answered in Chinese: the thread's language.
    chinese = understood.in_chinese
    anchored = bool(
        understood.ids
        or understood.context
        or any(situation.evaluated.entities.values())
        or situation.escalated.escalate
    )
    labels = view.labels_zh if chinese else view.labels
    return answer_small_talk(
        plan, understood.text, labels=labels, chinese=chinese, anchored=anchored
    )


def _dynamic_tier(plan: RoutePlan, situation: Situation) -> RoutePlan:
    if situation.dynamic is None or plan.answer is not None:  # answered: nothing to plan
        return plan
    return attend(
        plan,
        situation.understood,
        situation.evaluated,
        solver=situation.dynamic,
        view=situation.view,
        dry_run=situation.dry_run,
        kind=situation.kind,
    )


def _questions_after_the_dynamic_tier(plan: RoutePlan, situation: Situation) -> RoutePlan:
    """The dynamic tier plans afresh: a question it sends to a filing controller ("what's
    the mailbox quota?" to incident) is still answered, never filed."""
    if situation.dynamic is None:
        return plan
    return _questions_stay_questions(plan, situation)


#: The built-in rules, in the order they run.
PLAN_RULES: tuple[PlanRule, ...] = (
    PlanRule("a security question is answered", _security_question),
    PlanRule("knowledge-base sense", _sense),
    PlanRule("questions stay questions", _questions_stay_questions),
    # The catch-all's rule first: it leaves compositions the router made, not the one a
    # reported failure read as a request for work is filed by.
    PlanRule("the catch-all joins no request for work", _catch_all_joins_no_request),
    PlanRule("a reported problem is filed", _reports_are_filed),
    PlanRule("a named ticket is looked up", _named_ticket),
    PlanRule("a named asset or host is looked up", _named_thing),
    PlanRule("small talk is answered in kind", _small_talk),
    PlanRule("dynamic tier", _dynamic_tier),
    PlanRule("questions stay questions after the dynamic tier", _questions_after_the_dynamic_tier),
)


# -- helpers ------------------------------------------------------------------------------------
def _as_consultation(
    plan: RoutePlan, candidates: Sequence[Candidate], answers: str | None
) -> RoutePlan:
    """A question about security is answered, never filed as a security incident: the
    controller that takes security incidents is dropped from a composition, and when it is
    the primary, the controller that answers questions (`controllers.roles.ANSWERS`) answers
    instead (when it is a candidate).
    Other routes stand ("how do I get access to the phishing-report dashboard" is access)."""
    incidents = intent_group(SECURITY_INTENT)
    if plan.outcome not in ("routed", "composed"):
        return plan
    if plan.controller != incidents:
        if incidents in plan.supporting:
            plan.supporting = [s for s in plan.supporting if s != incidents]
            plan.tier_path.append(f"a question about security: {incidents} files nothing")
            if not plan.supporting:
                plan.outcome, plan.composition = "routed", None
        return plan
    target = answers
    chosen = next((c for c in candidates if c.name == target), None)
    if chosen is None or target is None:
        return plan
    plan.tier_path.append(
        f"a question about security: answered by {target}, nothing filed or paged"
    )
    plan.controller, plan.confidence = target, chosen.confidence
    plan.supporting, plan.composition, plan.outcome = [], None, "routed"
    return plan


def _looks_up(
    kind: str, understood: Understanding, tickets: TicketStore | None, things: Sequence[str]
) -> bool:
    """Is a message about a named asset or host a look-up (not a report or a request)? A
    request only to look something up ("please check LT-20977") is one when the asker's own
    tickets name the thing; otherwise it may be a question for the asset register ("whose name
    is LT-10995 registered under?"), and the tickets are read only for such a request."""
    if kind not in ("problem", "work"):
        return True
    if kind != "work" or tickets is None or not asks_to_look_up(understood.text):
        return False
    try:
        own = tickets.list_by_requester(understood.message.user)
    except Exception:  # the store is down: nothing is known to name it
        return False
    return any(mentions(ticket, thing) for ticket in own for thing in things)


def _exists_in(tickets: TicketStore | None) -> Callable[[str], bool]:
    """Is an id in the ticket store? (An unreadable store knows no ticket.)"""

    def exists(ticket_id: str) -> bool:
        if tickets is None:
            return False
        try:
            return tickets.get(ticket_id) is not None
        except Exception:  # the store is down: only the known id formats count
            return False

    return exists


def _moved_by_people(plan: RoutePlan, evaluated: Evaluation) -> bool:
    """The route follows people's correction of messages like this one: the default that
    judges a message by its form (a question is answered, not filed) was overruled by them
    for such messages ("how do I get a wireless mouse issued to me" after three people moved
    equipment requests to `change`)."""
    preference = evaluated.preference
    return (
        bool(plan.preference)
        and preference is not None
        and (plan.controller == preference.controller)
    )
