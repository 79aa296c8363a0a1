"""Surface-neutral conversation logic shared by Slack and the terminal (`brain chat`).

A `Conversation` turns one user turn into a `Reply`: it asks the brain, remembers what each
session (a thread, or a user's DM/terminal stream) said before, keeps the pending clarification
of each session, and applies answers and corrections through the brain's feedback API. Surfaces
only render replies; none of them holds routing or feedback logic of its own.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from brain.signals.registry import signal_words
from core.errors import UnknownDecision
from core.records import Decision, ExecutionResult, FeedbackKind, Message

ReplyKind = Literal["answer", "clarify", "fallback", "feedback", "explain", "help", "error"]

#: Value of the "none of these" choice of a clarification.
NONE_OF_THESE = "__none__"
#: How many earlier turns of one session are passed to the brain as history.
HISTORY_TURNS = 10
#: How many sessions are kept in memory (least recently used ones are forgotten).
MAX_SESSIONS = 5000

HELP_TEXT = (
    "Type a message and the brain routes it. When it asks, answer with a number or a "
    "controller name.\n"
    "  /why [DECISION_ID]    explain the last (or given) decision\n"
    "  /right                confirm the last decision\n"
    "  /wrong CONTROLLER     correct the last decision (runs CONTROLLER)\n"
    "  /wrong                reject the last decision without a better choice\n"
    "  /help                 this text\n"
    "  /quit                 leave"
)


class ControllerInfo(Protocol):
    """What the conversation needs to know about a controller."""

    name: str
    label: str


class RegistryAPI(Protocol):
    """The part of the controller registry the conversation uses."""

    def all(self) -> Sequence[Any]: ...


class BrainAPI(Protocol):
    """The part of `brain.engine.Brain` every surface uses."""

    @property
    def registry(self) -> Any: ...

    def warm(self) -> None:
        """Open and fit everything a decision needs, now."""
        ...

    def ask(self, message: Message) -> Decision: ...

    def route_to(self, decision_id: str, controller: str, user: str) -> Decision: ...

    def feedback(
        self,
        decision_id: str,
        kind: FeedbackKind,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
    ) -> Decision: ...

    def get_decision(self, decision_id: str) -> Decision: ...

    def last_decision(self, user: str, channel: str) -> Decision | None: ...

    def explain(self, decision_id: str) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer the user can pick: `value` is sent back, `label` is shown."""

    value: str
    label: str


@dataclass(slots=True)
class Reply:
    """What a surface renders for one turn."""

    kind: ReplyKind
    text: str
    decision: Decision | None = None
    choices: list[Choice] = field(default_factory=list)
    #: The decision was made by this turn (not an earlier decision revisited).
    fresh: bool = False
    #: The controller whose answer this reply shows (differs from the decision's after a
    #: correction or a clarification answer).
    controller: str | None = None

    @property
    def escalate(self) -> bool:
        """The decision asks for on-call escalation."""
        return bool(self.decision and self.decision.escalate)


@dataclass(slots=True)
class _Session:
    history: deque[str] = field(default_factory=lambda: deque(maxlen=HISTORY_TURNS))
    last_decision: str | None = None
    #: Decision awaiting a clarification answer, and the choices offered for it.
    pending: str | None = None
    pending_choices: list[Choice] = field(default_factory=list)


_COMMAND = re.compile(r"^/(\w+)\s*(.*)$", re.DOTALL)


class Conversation:
    """Conversation state and flow over one brain, safe to call from several threads."""

    def __init__(self, brain: BrainAPI) -> None:
        self.brain = brain
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        self._lock = threading.Lock()

    # -- controllers -------------------------------------------------------------------------

    def labels(self) -> dict[str, str]:
        """Controller name -> human-readable label, in registry order."""
        return {c.name: (getattr(c, "label", "") or c.name) for c in self.brain.registry.all()}

    def label(self, controller: str | None) -> str:
        """The human-readable label of one controller (its name when unknown)."""
        if controller is None:
            return "no controller"
        return self.labels().get(controller, controller)

    def controller_choices(self, exclude: str | None = None) -> list[Choice]:
        """Every controller as a choice, for "route elsewhere"."""
        return [Choice(name, label) for name, label in self.labels().items() if name != exclude]

    # -- sessions ------------------------------------------------------------------------------

    def _session(self, key: str) -> _Session:
        with self._lock:
            session = self._sessions.get(key)
            if session is None:
                session = self._sessions[key] = _Session()
                while len(self._sessions) > MAX_SESSIONS:
                    self._sessions.popitem(last=False)
            else:
                self._sessions.move_to_end(key)
            return session

    def history(self, session_key: str) -> tuple[str, ...]:
        """Earlier texts of one session, oldest first."""
        return tuple(self._session(session_key).history)

    def pending(self, session_key: str) -> str | None:
        """The decision id awaiting a clarification answer in this session, if any."""
        return self._session(session_key).pending

    def last_decision_id(self, session_key: str) -> str | None:
        """The latest decision made in this session."""
        return self._session(session_key).last_decision

    # -- turns ---------------------------------------------------------------------------------

    def handle(self, message: Message, *, source: str = "chat") -> Reply:
        """One user turn: a command, an answer to a pending question, or a new message."""
        text = message.text.strip()
        command = _COMMAND.match(text)
        if command:
            return self._command(
                message, command.group(1).lower(), command.group(2).strip(), source
            )
        session = self._session(message.session_key)
        if session.pending:
            picked = self._match_choice(text, session.pending_choices)
            if picked is not None:
                return self.answer_clarification(
                    session.pending, picked, user=message.user, session_key=message.session_key
                )
        return self.ask(message)

    def ask(self, message: Message) -> Reply:
        """Ask the brain about a new message (history of its session added) and render it."""
        if not message.text.strip():
            return Reply("error", "The message is empty; there is nothing to route.")
        session = self._session(message.session_key)
        with self._lock:
            earlier = tuple(session.history)
        if earlier and not message.history:
            message = replace(message, history=earlier)
        try:
            decision = self.brain.ask(message)
        except ValueError as exc:  # the brain refuses unusable text (binary, too long...)
            return Reply("error", f"I cannot route this message: {exc}")
        with self._lock:
            session.history.append(message.text)
            session.last_decision = decision.decision_id
            session.pending = None
            session.pending_choices = []
        reply = self.render(decision)
        reply.fresh = True
        if reply.kind == "clarify":
            with self._lock:
                session.pending = decision.decision_id
                session.pending_choices = list(reply.choices)
        return reply

    def answer_clarification(
        self, decision_id: str, value: str, *, user: str, session_key: str | None = None
    ) -> Reply:
        """Apply the answer to a clarification: route to the picked controller, or reject."""
        if session_key is not None:
            session = self._session(session_key)
            with self._lock:
                if session.pending == decision_id:
                    session.pending = None
                    session.pending_choices = []
        if value == NONE_OF_THESE:
            decision = self.brain.feedback(decision_id, "reject", user=user, source="clarify")
            return Reply(
                "feedback",
                "Understood: none of those fit. I recorded that and did not route the message; "
                "please rephrase it or name the team that should take it.",
                decision,
            )
        return self.reroute(decision_id, value, user=user)

    def confirm(self, decision_id: str, *, user: str, source: str) -> Reply:
        """The user says the routing was right."""
        decision = self.brain.feedback(decision_id, "confirm", user=user, source=source)
        return Reply(
            "feedback",
            f"Thanks, recorded that {self.label(decision.controller)} was right.",
            decision,
        )

    def reject(
        self, decision_id: str, *, user: str, source: str, session_key: str | None = None
    ) -> Reply:
        """The user says the routing was wrong; the reply offers every other controller.

        With a session, the next turn may answer with a number or a name (like a clarification).
        """
        decision = self.brain.feedback(decision_id, "reject", user=user, source=source)
        choices = self.controller_choices(exclude=decision.controller)
        if session_key is not None:
            session = self._session(session_key)
            with self._lock:
                session.pending = decision_id
                session.pending_choices = list(choices)
        return Reply(
            "feedback",
            f"Recorded that {self.label(decision.controller)} was wrong. Where should it go?",
            decision,
            choices,
        )

    def reroute(self, decision_id: str, controller: str, *, user: str) -> Reply:
        """Correct the routing: run `controller` on the stored message (feedback "correct")."""
        if controller not in self.labels():
            known = ", ".join(self.labels())
            return Reply("error", f"Unknown controller {controller!r}. Known: {known}.")
        decision = self.brain.route_to(decision_id, controller, user)
        return self.render(decision, controller=controller)

    def why(self, decision_id: str) -> Reply:
        """The full explanation of one decision."""
        from brain.explain import render_text

        try:
            data = self.brain.explain(decision_id)
        except UnknownDecision:
            return Reply("error", f"I know no decision {decision_id!r}.")
        return Reply("explain", render_text(data), self.brain.get_decision(decision_id))

    # -- rendering -----------------------------------------------------------------------------

    def render(self, decision: Decision, controller: str | None = None) -> Reply:
        """Plain text and choices for a decision (surfaces add their own formatting).

        With `controller`, the decision was re-routed there by the user: show its answer.
        """
        if controller is not None:
            lines = [f"Rerouted to {self.label(controller)}."]
            lines.extend(self._result_lines(decision.result))
            return Reply("answer", "\n".join(lines), decision, controller=controller)
        if decision.outcome == "clarify" and decision.candidates:
            choices = [Choice(c, self.label(c)) for c in decision.candidates]
            choices.append(Choice(NONE_OF_THESE, "None of these"))
            question = decision.clarification or "I am not sure who should take this. Is it…"
            return Reply("clarify", question, decision, choices)
        if decision.controller is None:
            text = "I could not find a controller for this message."
            if decision.result and decision.result.summary:
                text = decision.result.summary
            return Reply("fallback", text, decision)
        lines = [self.headline(decision), *self._result_lines(decision.result)]
        return Reply("answer", "\n".join(lines), decision, controller=decision.controller)

    @staticmethod
    def _result_lines(result: ExecutionResult | None) -> list[str]:
        if result is None:
            return []
        return [text for text in (result.summary, result.details) if text]

    def headline(self, decision: Decision) -> str:
        """One line: who takes the message."""
        name = self.label(decision.controller)
        if decision.supporting:
            helpers = ", ".join(self.label(s) for s in decision.supporting)
            return f"Routed to {name} (with {helpers})."
        return f"Routed to {name}."

    def rationale(self, decision: Decision, controller: str | None = None, top: int = 3) -> str:
        """Confidence, tier and the strongest signals (of `controller`), in plain words."""
        chosen = controller or decision.controller
        if chosen and chosen != decision.controller:
            parts = [f"chosen by a person (the brain had {self.label(decision.controller)})"]
        else:
            parts = [f"confidence {decision.confidence:.2f}", f"{decision.tier} path"]
        scores = decision.signals.get(chosen or "")
        words = signal_words()
        ranked = sorted(
            ((words[k], v) for k, v in (scores.signals.items() if scores else ()) if k in words),
            key=lambda item: item[1],
            reverse=True,
        )
        if ranked:
            parts.append("top signals: " + ", ".join(f"{w} {v:.2f}" for w, v in ranked[:top]))
        if decision.urgency in ("high", "critical"):
            parts.append(f"urgency {decision.urgency}")
        return " · ".join(parts)

    # -- commands ------------------------------------------------------------------------------

    def _command(self, message: Message, name: str, argument: str, source: str) -> Reply:
        if name == "help":
            return Reply("help", HELP_TEXT)
        if name == "why":
            target = argument or self._last(message)
            if not target:
                return Reply("error", "There is no decision to explain yet.")
            return self.why(target)
        if name in ("right", "wrong"):
            target = self._last(message)
            if not target:
                return Reply("error", "There is no decision to give feedback on yet.")
            try:
                if name == "right":
                    return self.confirm(target, user=message.user, source=source)
                if argument:
                    picked = self._match_choice(argument, self.controller_choices())
                    return self.reroute(target, picked or argument, user=message.user)
                return self.reject(
                    target, user=message.user, source=source, session_key=message.session_key
                )
            except UnknownDecision:
                return Reply("error", f"I know no decision {target!r}.")
        return Reply("error", f"Unknown command /{name}. Type /help.")

    def _last(self, message: Message) -> str | None:
        known = self._session(message.session_key).last_decision
        if known:
            return known
        decision = self.brain.last_decision(message.user, message.channel)
        return decision.decision_id if decision else None

    @staticmethod
    def _match_choice(text: str, choices: Sequence[Choice]) -> str | None:
        """A choice picked by number (1-based), value or label; None when the text is no pick."""
        wanted = text.strip().lower()
        if wanted.isdigit():
            index = int(wanted) - 1
            return choices[index].value if 0 <= index < len(choices) else None
        for choice in choices:
            if wanted in (choice.value.lower(), choice.label.lower()):
                return choice.value
        if wanted in ("none", "none of these", "0"):
            for choice in choices:
                if choice.value == NONE_OF_THESE:
                    return choice.value
        return None
