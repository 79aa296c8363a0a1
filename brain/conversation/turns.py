"""Surface-neutral conversation logic shared by Slack and the terminal (`brain chat`).

A `Conversation` turns one user turn into a `Reply`: it asks the brain, remembers what each
session (a thread, or a user's DM/terminal stream) said before, keeps the pending clarification
of each session, and applies answers and corrections through the brain's feedback API. Surfaces
only render replies; none of them holds routing or feedback logic of its own.
"""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from typing import Protocol

from brain.conversation import asked_back, continuing, waiting
from brain.conversation.commands import command, match_choice
from brain.conversation.reply import (
    NONE_OF_THESE,
    Choice,
    Reply,
    ReplyKind,
    decision_reply,
    label_of,
    other_controllers,
    render_decision,
)
from brain.conversation.surface import TYPED, SurfaceWording
from brain.conversation.thread import (
    ThreadBrain,
    as_update,
    duplicate_of,
    follow,
    record_origin,
    remember,
)
from brain.conversation.wording import say
from brain.decisions.explain import Explanation
from brain.dynamic.resolution import Resolution
from brain.learning.control import ForgetReport
from brain.memory.lessons import LessonRecall
from controllers.base import files_requests, label_in
from core.access import same_workspace
from core.cues import cues
from core.errors import UnknownDecision
from core.plans import Plan
from core.records import Decision, FeedbackKind, Message
from core.redact import redact, redact_message
from core.stores.conversations import states_of
from core.stores.protocols import Collection, ConversationStateStore
from core.stores.records import ConversationState
from core.text.language import turn_is_chinese

__all__ = [
    "HELP_TEXT",
    "NONE_OF_THESE",
    "BrainAPI",
    "Choice",
    "Conversation",
    "Reply",
    "ReplyKind",
]

#: How many earlier turns of one session are passed to the brain as history.
HISTORY_TURNS = 10

HELP_TEXT = TYPED.help


class BrainAPI(ThreadBrain, Protocol):
    """The part of `brain.engine.Brain` every surface uses (the thread logic's part and more)."""

    def warm(self) -> None:
        """Open and fit everything a decision needs, now."""
        ...

    @property
    def memory(self) -> LessonRecall:
        """The routing lessons (App Home lists a person's own and forgets one)."""
        ...

    def ask(self, message: Message) -> Decision: ...

    def decide(self, message: Message) -> Decision: ...

    def execute(self, decision: Decision) -> Decision: ...

    def route_to(
        self, decision_id: str, controller: str, user: str, source: str = "clarify"
    ) -> Decision: ...

    def feedback(
        self,
        decision_id: str,
        kind: FeedbackKind,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
        reason: str = "",
    ) -> Decision: ...

    def resolve(
        self,
        decision_id: str,
        *,
        route: str | None = None,
        plan: Plan | None = None,
        user: str | None = None,
    ) -> Resolution:
        """A person's resolution (`brain.dynamic.resolution`)."""
        ...

    def forget_user(self, user: str) -> ForgetReport: ...

    def last_decision(self, user: str, channel: str) -> Decision | None: ...

    def explain(self, decision_id: str) -> Explanation: ...


#: A bare number or "none": a pick, meaningful only while a question is pending.
_BARE_PICK = re.compile(r"^\s*(?:\d{1,2}|none|none of these)\s*$", re.IGNORECASE)
_COMMAND = re.compile(r"^/([\w-]+)\s*(.*)$", re.DOTALL)
#: "forget what you learned from me" (and its Chinese), the right to be forgotten in words.
FORGET_ME = re.compile(cues(__name__).regex("forget_me"), re.IGNORECASE)


class Conversation:
    """Conversation state and flow over one brain, safe to call from several threads.

    Each session's state (`core.stores.records.ConversationState`: history, pending
    clarification, the open question, the records the thread is about) is read from
    `states` at every turn and written back after it. With the record store's
    (`Stores.conversations`) every replica shares it, so a question asked through one
    replica is answered through another (the messages of one thread are decided one at a
    time across replicas: `bot.services`); without, it lives in this process's memory.
    `wording` says what the user can do where the reply is shown (`brain.conversation.surface`).
    """

    def __init__(
        self,
        brain: BrainAPI,
        sessions: ConversationStateStore | Collection | None = None,
        *,
        wording: SurfaceWording = TYPED,
    ) -> None:
        self.brain = brain
        self._store: ConversationStateStore = states_of(sessions)
        self.wording = wording
        self._lock = threading.Lock()

    # -- controllers -------------------------------------------------------------------------

    def labels(self, language: str = "en") -> dict[str, str]:
        """Controller name -> human-readable label (in `language` when the controller has
        one, e.g. "zh"), in registry order."""
        return {c.name: label_in(c, language) for c in self.brain.registry.all()}

    def labels_for(self, decision: Decision) -> dict[str, str]:
        """The labels in the asker's language (Chinese for a Chinese message)."""
        return self.labels("zh" if decision.in_chinese else "en")

    def label(self, controller: str | None) -> str:
        """The human-readable label of one controller (its name when unknown)."""
        return label_of(self.labels(), controller)

    def controller_choices(self, exclude: str | None = None) -> list[Choice]:
        """Every controller as a choice, for "route elsewhere"."""
        return other_controllers(self.labels(), exclude)

    # -- sessions ------------------------------------------------------------------------------

    def _session(self, key: str) -> ConversationState:
        return self._store.get(key) or ConversationState(key=key)

    def _save(self, key: str, session: ConversationState, user: str | None = None) -> None:
        """Write the session back to the store (texts redacted, like the decision log)."""
        with self._lock:
            session.history = [redact(text) for text in session.history][-HISTORY_TURNS:]
            if user and user not in session.users:
                session.users = sorted({*session.users, user})
        self._store.put(session)

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
        message = redact_message(message)  # the point of entry: nothing below sees a secret
        text = message.text.strip()
        named = _COMMAND.match(text)
        if named:
            return command(self, message, named.group(1).lower(), named.group(2).strip(), source)
        if FORGET_ME.search(text):
            return self.forget(message.user)
        session = self._session(message.session_key)
        if session.pending:
            picked = match_choice(text, _choices(session))
            if picked is not None:
                return self.answer_clarification(
                    session.pending,
                    picked,
                    user=message.user,
                    session_key=message.session_key,
                    team=message.team,
                )
            if waiting.asks_how_the_waiting_stands(self.brain, message, session):
                return self._still_waiting(session.pending)
        elif _BARE_PICK.match(text):
            zh = turn_is_chinese(text, session.history)
            return Reply("error", self.wording.no_question_pending(zh))
        return self.ask(message)

    def _still_waiting(self, pending: str) -> Reply:
        """The pending question again as it was, after "nothing is filed yet"; nothing logged."""
        decision = self.brain.get_decision(pending)
        reply = self.render(decision)
        return replace(reply, text=f"{say('still_waiting', decision.in_chinese)} {reply.text}")

    def ask(self, message: Message) -> Reply:
        """A new message: first read against the thread's state (an answer to the bot's open
        question, an update of the thread's record), else decided afresh; a fresh decision
        that would file a second record beside the thread's open one updates it instead."""
        if not message.text.strip():
            return Reply("error", "The message is empty; there is nothing to route.")
        session = self._session(message.session_key)
        with self._lock:
            earlier = tuple(session.history)
        if earlier and not message.history:
            message = replace(message, history=earlier)
        said = message.text
        message = waiting.joined_to_waiting(self.brain, message, session)
        try:
            decision = asked_back.continued(self.brain, message, session) or self._turn(
                message, session
            )
        except ValueError as exc:  # the brain refuses unusable text (binary, too long...)
            return Reply("error", f"I cannot route this message: {exc}")
        with self._lock:
            session.history.append(said)
            session.pending = None
            session.pending_choices = []
            session.team = message.team
            if continuing.asks_which_record(
                decision
            ):  # the thread's record and question stay as they are
                session.last_decision = decision.decision_id
            else:
                remember(session, decision, self._filers())
        reply = self.render(decision)
        reply.fresh = True
        if reply.kind == "clarify":
            with self._lock:
                session.pending = decision.decision_id
                session.pending_choices = [[c.value, c.label] for c in reply.choices]
        self._save(message.session_key, session, message.user)
        return reply

    def _turn(self, message: Message, session: ConversationState) -> Decision:
        """A message in a thread that holds a record is judged by the continuation model
        (`brain.conversation.continuing`); without a record or a model, the thread's reading
        and the chain decide."""
        judged = continuing.judge(self.brain, message, session)
        if judged is not None:
            decided = continuing.turn(self.brain, message, session, judged, self._fresh_apart)
            if decided is not None:
                return decided
        return follow(self.brain, message, session) or self._fresh(message, session)

    def _fresh_apart(self, message: Message) -> Decision:
        """A fresh decision that files its own record (never merged into the thread's)."""
        return self._fresh(message, self._session(message.session_key), merge=False)

    def _fresh(
        self, message: Message, session: ConversationState, *, merge: bool = True
    ) -> Decision:
        """A fresh decision; with `merge`, one that would file a second record beside the
        thread's open one of the same controller updates that one instead."""
        decision = self.brain.decide(message)
        record = duplicate_of(decision, session, self._filers()) if merge else ""
        if record:
            updated = as_update(self.brain, decision, message, record)
            if updated is not None:
                self.brain.log_turn(updated)
                return updated
        return self.brain.execute(decision)

    def _filers(self) -> frozenset[str]:
        return frozenset(c.name for c in self.brain.registry.all() if files_requests(c))

    def _in_workspace(self, decision_id: str, team: str | None) -> None:
        """Raise UnknownDecision, as for a decision that does not exist, when the decision
        belongs to another Slack workspace than `team`'s: nothing of it is told or changed."""
        if team is not None and self.brain.get_decision(decision_id).team != team:
            raise UnknownDecision(decision_id)

    def answer_clarification(
        self,
        decision_id: str,
        value: str,
        *,
        user: str,
        session_key: str | None = None,
        team: str | None = None,
    ) -> Reply:
        """Apply the answer to a clarification: route to the picked controller, or reject; for
        "is this about the thread's record?", add the message to it or decide it anew."""
        self._in_workspace(decision_id, team)
        if value in (continuing.ON_RECORD, continuing.SOMETHING_NEW):
            return self._which_record(decision_id, value, session_key)
        if session_key is not None:
            session = self._session(session_key)
            with self._lock:
                answered = session.pending == decision_id
                if answered:
                    session.pending = None
                    session.pending_choices = []
            if answered:
                self._save(session_key, session)
        if value == NONE_OF_THESE:
            decision = self.brain.feedback(decision_id, "reject", user=user, source="clarify")
            zh = decision.in_chinese
            return decision_reply(
                "feedback", say("none_fit", zh), decision, self.labels_for(decision)
            )
        reply = self.reroute(decision_id, value, user=user)
        if session_key is not None and reply.decision is not None:
            session = self._session(session_key)  # what the pick filed is the thread's record
            with self._lock:
                remember(session, reply.decision, self._filers())
            self._save(session_key, session)
        return reply

    def _which_record(self, decision_id: str, value: str, session_key: str | None) -> Reply:
        """The answer to "is this about the thread's record, or something new?"."""
        asked = self.brain.get_decision(decision_id)
        key = session_key or f"{asked.channel}:{asked.thread or asked.user}"
        session = self._session(key)
        decision = continuing.answer_which(self.brain, asked, value, session, self._fresh_apart)
        with self._lock:
            session.pending = None
            session.pending_choices = []
            remember(session, decision, self._filers())
        self._save(key, session)
        reply = self.render(decision)
        reply.fresh = True
        return reply

    def confirm(
        self, decision_id: str, *, user: str, source: str, team: str | None = None
    ) -> Reply:
        """The user says the routing was right (`team`: the user's Slack workspace)."""
        self._in_workspace(decision_id, team)
        decision = self.brain.feedback(decision_id, "confirm", user=user, source=source)
        labels = self.labels_for(decision)
        name = label_of(labels, decision.controller)
        text = say("confirmed", decision.in_chinese, name=name)
        return decision_reply("feedback", text, decision, labels)

    def reject(
        self,
        decision_id: str,
        *,
        user: str,
        source: str,
        session_key: str | None = None,
        team: str | None = None,
    ) -> Reply:
        """The user says the routing was wrong; the reply offers every other controller.

        With a session, the next turn may answer with a number or a name (like a clarification).
        """
        self._in_workspace(decision_id, team)
        decision = self.brain.feedback(decision_id, "reject", user=user, source=source)
        labels = self.labels_for(decision)
        choices = other_controllers(labels, exclude=decision.controller)
        if session_key is not None:
            session = self._session(session_key)
            with self._lock:
                session.pending = decision_id
                session.pending_choices = [[c.value, c.label] for c in choices]
            self._save(session_key, session, user)
        return decision_reply(
            "feedback",
            say("rejected", decision.in_chinese, name=label_of(labels, decision.controller)),
            decision,
            labels,
            choices=choices,
        )

    def reroute(
        self,
        decision_id: str,
        controller: str,
        *,
        user: str,
        source: str = "clarify",
        team: str | None = None,
        session_key: str | None = None,
    ) -> Reply:
        """Correct the routing: run `controller` on the stored message (feedback "correct",
        recorded with `source`: "clarify" for an answer to a question, the surface's own name
        for a correction such as Slack's "Route elsewhere"). A follow-up turn moves the
        thread's record: the decision that filed it is rerouted (its record closed as moved),
        and the thread (`session_key`) is about the new one."""
        labels = self.labels()
        if controller not in labels:
            known = ", ".join(labels)
            return Reply("error", f"Unknown controller {controller!r}. Known: {known}.")
        self._in_workspace(decision_id, team)
        origin = record_origin(self.brain, self.brain.get_decision(decision_id))
        if origin is not None:
            self._in_workspace(origin, team)
        decision = self.brain.route_to(origin or decision_id, controller, user, source)
        if session_key is not None:
            session = self._session(session_key)
            with self._lock:
                remember(session, decision, self._filers())
            self._save(session_key, session)
        return render_decision(decision, self.labels_for(decision), controller)

    def why(self, decision_id: str, *, team: str | None = None) -> Reply:
        """The full explanation of one decision (`team`: the asker's Slack workspace; another
        workspace's decision is unknown to them)."""
        try:
            self._in_workspace(decision_id, team)
            explained = self.brain.explain(decision_id)
        except UnknownDecision:
            return Reply("error", f"I know no decision {decision_id!r}.")
        return Reply("explain", explained.text(), explained.decision)

    # -- rendering -----------------------------------------------------------------------------

    def render(self, decision: Decision, controller: str | None = None) -> Reply:
        """The complete reply for a decision (with `controller`: re-routed there by a person)."""
        return render_decision(decision, self.labels_for(decision), controller)

    # -- commands ------------------------------------------------------------------------------

    def forget(self, user: str) -> Reply:
        """The right to be forgotten, asked for in words or with /forget (/brain-forget)."""
        report = self.brain.forget_user(user)  # the home's threads included
        # States this conversation keeps apart from the home's (in this process only).
        self._store.remove(self._store.keys_of(user))
        return Reply(
            "feedback",
            f"Done: I forgot what I learned from you ({report.lessons} lesson(s) removed) and "
            f"the texts of your messages ({report.decisions} decision(s) and {report.tickets} "
            "ticket(s) redacted). Your next messages are decided as if you never taught me.",
        )

    def last_target(self, message: Message) -> str | None:
        """The decision a command without an id is about: the session's latest, else the
        user's latest in the channel (in the same workspace)."""
        known = self._session(message.session_key).last_decision
        if known:
            return known
        decision = self.brain.last_decision(message.user, message.channel)
        if decision is None or not same_workspace(decision.team, message.team):
            return None
        return decision.decision_id


def _choices(session: ConversationState) -> list[Choice]:
    return [Choice(value, label) for value, label in session.pending_choices]
