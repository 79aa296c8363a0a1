"""The reply a surface renders: everything needed to draw one turn, filled in by the brain.

Surfaces (Slack's Block Kit, the terminal of `brain chat`) are pure functions of a `Reply`:
the controllers' labels, the choices of a clarification and of "Route elsewhere", the headline,
the result lines and the rationale line are computed here, beside the registry, so a surface
never calls back into the brain to draw a message and one Slack message costs one trip into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from brain.chain.small_talk import MODE as SMALL_TALK
from brain.conversation.wording import PLAN_WORDS_ZH, SIGNAL_WORDS_ZH, TIERS_ZH, URGENCY_ZH, say
from brain.signals.registry import signal_words
from core.records import PRESSING, Decision, ExecutionResult
from core.wording import wording, wording_for

__all__ = [
    "NONE_OF_THESE",
    "Choice",
    "PartView",
    "Reply",
    "ReplyKind",
    "decision_reply",
    "dynamic_lines",
    "headline",
    "is_small_talk",
    "label_of",
    "other_controllers",
    "rationale",
    "render_decision",
    "result_lines",
]

ReplyKind = Literal[
    "answer", "clarify", "fallback", "feedback", "explain", "help", "error", "small_talk"
]

#: Value of the "none of these" choice of a clarification.
NONE_OF_THESE = "__none__"


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer the user can pick: `value` is sent back, `label` is shown."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class PartView:
    """One request of a multi-intent message as a surface draws it, with its own decision (so
    its own Right / Route elsewhere)."""

    decision_id: str
    text: str
    controller: str | None
    label: str
    #: "primary" or "supporting".
    role: str
    lines: list[str]
    #: One line: the part's confidence and tier.
    rationale: str
    #: Every controller but this part's, for its "Route elsewhere".
    reroute_choices: list[Choice]


@dataclass(slots=True)
class Reply:
    """What a surface renders for one turn, complete: rendering reads nothing else."""

    kind: ReplyKind
    #: The message itself (for an answer: the headline, then the result lines).
    text: str
    decision: Decision | None = None
    #: What the user is asked to pick from: a clarification's candidates (plus "none of
    #: these"), or, after a rejection, where the message should go instead.
    choices: list[Choice] = field(default_factory=list)
    #: The decision was made by this turn (not an earlier decision revisited).
    fresh: bool = False
    #: The controller whose answer this reply shows (differs from the decision's after a
    #: correction or a clarification answer).
    controller: str | None = None
    #: The label of `controller` ("" when there is none).
    controller_label: str = ""
    #: One line: who takes the message.
    headline: str = ""
    #: The controller's summary and details.
    result_lines: list[str] = field(default_factory=list)
    #: One line: confidence, tier, strongest signals (of `controller`), urgency.
    rationale: str = ""
    #: Every controller but `controller`, for "Route elsewhere".
    reroute_choices: list[Choice] = field(default_factory=list)
    #: A multi-intent message's requests, each with its own actions (empty for one request).
    parts: list[PartView] = field(default_factory=list)

    @property
    def escalate(self) -> bool:
        """The decision asks for on-call escalation."""
        return bool(self.decision and self.decision.escalate)

    @property
    def confirmable(self) -> bool:
        """The reply shows the brain's own choice, so "Right" can confirm it."""
        return (
            self.decision is not None
            and self.controller is not None
            and self.controller == self.decision.controller
        )

    @property
    def summary(self) -> str:
        """One line for on-call: headline, rationale and the decision id."""
        decision_id = self.decision.decision_id if self.decision else "-"
        separator = wording("en").say("common.detail_separator")  # on-call reads English
        return f"{self.headline} {self.rationale}{separator}decision {decision_id}"


def label_of(labels: Mapping[str, str], controller: str | None) -> str:
    """The label of a controller (its name when unknown, "no controller" for None)."""
    if controller is None:
        return "no controller"
    return labels.get(controller, controller)


def other_controllers(labels: Mapping[str, str], exclude: str | None = None) -> list[Choice]:
    """Every controller but `exclude` as a choice, in registry order."""
    return [Choice(name, label) for name, label in labels.items() if name != exclude]


def result_lines(result: ExecutionResult | None, follow_up: str | None = None) -> list[str]:
    """The lines of a controller's result worth showing, then the follow-up question."""
    lines = [] if result is None else [t for t in (result.summary, result.details) if t]
    return [*lines, follow_up] if follow_up else lines


def dynamic_lines(decision: Decision) -> list[str]:
    """One line on the plan a dynamic decision ran (DCR rounds, topology, roles)."""
    if decision.dcr is None or decision.plan is None:
        return []
    plan = decision.plan
    zh = decision.in_chinese

    def word(value: str) -> str:
        return PLAN_WORDS_ZH.get(value, value) if zh else value

    words = wording_for(zh)
    roles = words.say("common.list_separator").join(
        words.say("common.parts_part", label=s.controller, role=word(s.role)) for s in plan.steps
    ) or word("hook" if zh else "capability hook")
    line = say(
        "dynamic_plan",
        zh,
        rounds=len(decision.dcr.rounds),
        topology=word(plan.topology),
        source=word(plan.source),
        roles=roles,
    )
    return [line]


def headline(decision: Decision, labels: Mapping[str, str]) -> str:
    """One line: who takes the message."""
    zh = decision.in_chinese
    name = label_of(labels, decision.controller)
    if decision.outcome == "failed":
        return say("failed", zh, name=name)
    if decision.supporting:
        separator = wording_for(zh).say("common.list_separator")
        helpers = separator.join(label_of(labels, s) for s in decision.supporting)
        return say("routed_with", zh, name=name, helpers=helpers)
    return say("routed", zh, name=name)


def rationale(
    decision: Decision, labels: Mapping[str, str], controller: str | None = None, top: int = 3
) -> str:
    """Confidence, tier and the strongest signals (of `controller`), in plain words."""
    zh = decision.in_chinese
    chosen = controller or decision.controller
    if chosen and chosen != decision.controller:
        parts = [say("chosen", zh, name=label_of(labels, decision.controller))]
    else:
        parts = _confidence_and_tier(decision.confidence, decision.tier, zh)
    scores = decision.signals.get(chosen or "")
    words = signal_words()
    if zh:
        words = {k: SIGNAL_WORDS_ZH.get(k, w) for k, w in words.items()}
    ranked = sorted(
        ((words[k], v) for k, v in (scores.signals.items() if scores else ()) if k in words),
        key=lambda item: item[1],
        reverse=True,
    )
    if ranked:
        separator = wording_for(zh).say("common.value_separator")
        shown = separator.join(f"{w} {v:.2f}" for w, v in ranked[:top])
        parts.append(say("signals", zh, signals=shown))
    if decision.urgency in PRESSING:
        urgency = URGENCY_ZH.get(decision.urgency, decision.urgency) if zh else decision.urgency
        parts.append(say("urgency", zh, urgency=urgency))
    return wording_for(zh).say("common.detail_separator").join(parts)


def _confidence_and_tier(confidence: float, tier: str, zh: bool) -> list[str]:
    """How sure the brain was and on which path, in the asker's language."""
    shown = TIERS_ZH.get(tier, tier) if zh else tier
    return [say("confidence", zh, value=f"{confidence:.2f}"), say("tier", zh, tier=shown)]


def decision_reply(
    kind: ReplyKind,
    text: str,
    decision: Decision,
    labels: Mapping[str, str],
    *,
    controller: str | None = None,
    choices: list[Choice] | None = None,
    lines: list[str] | None = None,
    head: str | None = None,
) -> Reply:
    """A reply about `decision` with all its rendering data filled in from `labels`."""
    return Reply(
        kind,
        text,
        decision,
        choices=list(choices or []),
        controller=controller,
        controller_label=label_of(labels, controller) if controller else "",
        headline=head if head is not None else headline(decision, labels),
        result_lines=list(lines or []),
        rationale=rationale(decision, labels, controller),
        reroute_choices=other_controllers(labels, exclude=controller),
    )


def render_decision(
    decision: Decision, labels: Mapping[str, str], controller: str | None = None
) -> Reply:
    """The reply showing a decision (with `controller`: re-routed there by a person)."""
    lines = result_lines(decision.result)
    if controller is None:
        lines = result_lines(decision.result, decision.follow_up)
    if controller is not None:
        head = say("rerouted", decision.in_chinese, name=label_of(labels, controller))
        text = "\n".join([head, *lines])
        return decision_reply(
            "answer", text, decision, labels, controller=controller, lines=lines, head=head
        )
    asked = decision.result.data.get("choices") if decision.result is not None else None
    if decision.outcome == "clarify" and asked:  # the thread's record, or something new?
        choices = [Choice(str(value), str(label)) for value, label in asked]
        question = decision.clarification or ""
        return decision_reply("clarify", question, decision, labels, choices=choices, head="")
    if decision.outcome == "clarify" and decision.candidates:
        choices = [Choice(c, label_of(labels, c)) for c in decision.candidates]
        choices.append(Choice(NONE_OF_THESE, say("none_of_these", decision.in_chinese)))
        question = decision.clarification or say("who_takes_it", decision.in_chinese)
        return decision_reply("clarify", question, decision, labels, choices=choices)
    if decision.controller is None and is_small_talk(decision):
        # "hello", "thanks": answered in kind; nothing to confirm, reroute or hand over.
        return Reply("small_talk", "\n".join(lines), decision)
    if decision.controller is None:
        text = decision.clarification or "I could not find a controller for this message."
        if decision.result and decision.result.summary:
            # An unplaced question's "no answer" names the nearest articles and who can help.
            text = "\n".join([*result_lines(decision.result), *dynamic_lines(decision)])
        return decision_reply("fallback", text, decision, labels)
    if decision.parts:
        return _parts_reply(decision, labels)
    lines = [*lines, *dynamic_lines(decision)]
    head = headline(decision, labels)
    return decision_reply(
        "answer",
        "\n".join([head, *lines]),
        decision,
        labels,
        controller=decision.controller,
        lines=lines,
    )


def is_small_talk(decision: Decision) -> bool:
    """Was the message a greeting, thanks or goodbye answered in kind (`chain.small_talk`)?"""
    return decision.result is not None and decision.result.data.get("mode") == SMALL_TALK


def part_views(decision: Decision, labels: Mapping[str, str]) -> list[PartView]:
    """The parts of a multi-intent decision, each with its own result lines."""
    ran = {
        str(p.data.get("decision_id")): p
        for p in (decision.result.parts if decision.result else [])
    }
    zh = decision.in_chinese
    views = []
    for part in decision.parts:
        result = ran.get(part.decision_id)
        lines = [t for t in (result.summary, result.details) if t] if result else []
        views.append(
            PartView(
                decision_id=part.decision_id,
                text=part.text,
                controller=part.controller,
                label=label_of(labels, part.controller),
                role=part.role,
                lines=lines,
                rationale=wording_for(zh)
                .say("common.detail_separator")
                .join(_confidence_and_tier(part.confidence, part.tier, zh)),
                reroute_choices=other_controllers(labels, exclude=part.controller),
            )
        )
    return views


def _parts_reply(decision: Decision, labels: Mapping[str, str]) -> Reply:
    """A multi-intent answer: one block of lines per request, in the order written."""
    views = part_views(decision, labels)
    zh = decision.in_chinese
    words = wording_for(zh)
    roles = {v.role: words.term("plan_roles", v.role) for v in views}
    parts = words.say("common.clause_separator").join(
        words.say("common.parts_part", label=v.label, role=roles[v.role]) for v in views
    )
    head = say("parts_head", zh, count=len(views), parts=parts)
    text = [head]
    for number, v in enumerate(views, 1):
        text.append(
            words.say(
                "common.parts_item", number=number, label=v.label, role=roles[v.role], text=v.text
            )
        )
        text.extend(v.lines)
    reply = decision_reply(
        "answer",
        "\n".join(text),
        decision,
        labels,
        controller=decision.controller,
        lines=[line for v in views for line in v.lines],
        head=head,
    )
    reply.parts = views
    return reply
