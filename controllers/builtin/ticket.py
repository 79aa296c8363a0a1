"""`ticket`: look up, comment, urge, process, close and reopen existing tickets.

Replies are in the asker's language (`controllers.ticket_replies`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from controllers import ticket_replies as say
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from controllers.ids import find_ticket_ids, is_ticket_id, normalize_ticket_id
from controllers.record_actions import Action, comment_text, detect_action
from controllers.references import look_up, named_things
from controllers.ticket_replies import NOT_FOUND_ADVICE
from controllers.ticket_search import search, search_topic
from controllers.tickets import Ticket, TicketError, TicketNotFound, TicketStateError, TicketStore
from core.access import Viewer
from core.cues import cues

#: The words about a ticket, in each language (`ticket.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: Words that refer to a ticket without naming it ("any update on my request?").
_TICKET_WORDS = re.compile(_CUES.regex("ticket_words"), re.I)
#: Marks (full-width too) trimmed from what follows a ticket's id.
_REMAINDER_TRIM = _CUES.text("remainder_trim")
#: Who works a ticket the brain was asked to process: the digital employee itself.
ASSIGNEE = "digital-employee"
_ID_KINDS = ("ticket", "incident", "access", "change", "work_order", "request")

__all__ = ["ASSIGNEE", "NOT_FOUND_ADVICE", "TicketController", "detect_action"]


@dataclass(slots=True)
class _Plan:
    action: Action
    ids: list[str]
    invalid: list[str]
    #: The requester's open tickets, looked up when the message names none.
    own_open: list[Ticket] = field(default_factory=list)
    #: The id was not written but completed: the requester has exactly one open ticket.
    implied: bool = False


class TicketController(BuiltinController):
    """Works on existing tickets in the local store."""

    name = "ticket"

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Id present and well-formed, ticket exists, action fits its status. No side effects."""
        plan = self._plan(context)
        if plan.action in ("list", "search"):
            if context.services.tickets is None:
                return DryRunResult(ok=False, reason="no ticket store is configured")
            if plan.action == "search":
                return DryRunResult(ok=True, reason="search the requester's tickets by topic")
            return DryRunResult(ok=True, reason="list the requester's open tickets")
        if not plan.ids and named_things(context) and plan.action == "status":
            return DryRunResult(ok=True, reason="look up what the records say of a named thing")
        if not plan.ids:
            if plan.invalid:
                return DryRunResult(
                    ok=False, reason=f"{', '.join(plan.invalid)} is not a ticket id format"
                )
            reason = "no ticket id in the message"
            if plan.own_open:
                reason += f"; the requester has {len(plan.own_open)} open tickets"
            return DryRunResult(ok=False, reason=reason, missing=["ticket_id"])
        store = context.services.tickets
        if store is None:
            return DryRunResult(ok=False, reason="no ticket store is configured")
        for ticket_id in plan.ids:
            ticket = store.get(ticket_id)  # existence only: who may see it is checked by handle
            if ticket is None:
                return DryRunResult(ok=False, reason=f"ticket {ticket_id} was not found")
            problem = _state_problem(plan.action, ticket)
            if problem:
                return DryRunResult(ok=False, reason=problem)
        implied = " (the requester's only open ticket)" if plan.implied else ""
        return DryRunResult(ok=True, reason=f"{plan.action} {', '.join(plan.ids)}{implied}")

    def handle(self, context: ControllerContext) -> ControllerResult:
        """Do the action on each ticket named in the message."""
        plan = self._plan(context)
        zh = say.chinese(context)
        if plan.action == "list":
            return _list_own(context, zh)
        if plan.action == "search" and not plan.ids:
            return _search_own(context, zh)
        if not plan.ids and named_things(context) and plan.action == "status":
            return look_up(context, named_things(context))  # an asset tag or host: no ticket
        if not plan.ids:
            return _which_ticket(plan, zh)
        store = context.services.tickets
        if store is None:
            return ControllerResult(ok=False, summary=say.no_store(zh))
        lines: list[str] = []
        tickets: list[dict[str, object]] = []
        ok = True
        missing: list[str] = []
        for ticket_id in plan.ids[:5]:
            try:
                ticket = self._apply(plan.action, ticket_id, store, context)
            except TicketNotFound:
                ok = False
                lines.append(say.not_found(ticket_id, zh))
                continue
            except TicketStateError as exc:
                ok = False
                lines.append(say.state_problem(plan.action, ticket_id, _sentence(str(exc)), zh))
                continue
            except TicketError as exc:
                ok = False
                lines.append(_sentence(str(exc)))
                continue
            if ticket is None:
                missing = ["comment"]
                ok = False
                lines.append(say.asks_comment(ticket_id, zh))
                continue
            lines.append(
                say.ticket_done(
                    plan.action,
                    ticket,
                    zh,
                    promise=store.answer_promise(ticket),
                    now=store.clock(),
                )
            )
            note = _upstream_summary(context)
            if note and plan.action not in ("comment", "close", "reopen"):
                # pipeline composition (e.g. alarm -> ticket): the diagnosis joins the ticket
                source = str((context.upstream or {}).get("controller") or "upstream")
                ticket = store.comment(ticket_id, author=f"brain:{source}", text=note)
                lines.append(say.upstream_added(source, ticket_id, zh))
            tickets.append(ticket.to_dict())
        return ControllerResult(
            ok=ok,
            summary=" ".join(lines),
            data={"action": plan.action, "tickets": tickets},
            missing=missing,
        )

    def _plan(self, context: ControllerContext) -> _Plan:
        candidates = [normalize_ticket_id(t) for t in context.entities.get("ticket_id", [])]
        if context.parameters.get("ticket_id"):
            candidates.insert(0, normalize_ticket_id(context.parameters["ticket_id"]))
        candidates.extend(find_ticket_ids(self.text_of(context)))
        ids: list[str] = []
        invalid: list[str] = []
        # An asset tag (LT-20977) names a device, not a ticket: it is looked up as a thing.
        assets = {normalize_ticket_id(a) for a in context.entities.get("asset_tag", [])}
        for token in dict.fromkeys(t for t in candidates if t not in assets):
            (ids if self._is_ticket_id(token, context) else invalid).append(token)
        plan = _Plan(action=detect_action(self.text_of(context)), ids=ids, invalid=invalid)
        store = context.services.tickets
        refers = plan.action != "status" or bool(_TICKET_WORDS.search(self.text_of(context)))
        if not ids and not invalid and store is not None and refers and plan.action != "search":
            plan.own_open = store.list_by_requester(context.user, open_only=True)
            if len(plan.own_open) == 1:
                plan.ids, plan.implied = [plan.own_open[0].id], True
        return plan

    @staticmethod
    def _is_ticket_id(token: str, context: ControllerContext) -> bool:
        knowledge = context.services.knowledge
        if knowledge is not None:
            try:
                match = knowledge.classify_id(token)
            except Exception:  # the KB is down: the local format check still works
                match = None
            if match is not None:
                kind = f"{match.kind} {match.domain}".lower()
                if any(word in kind for word in _ID_KINDS):
                    return True
        return is_ticket_id(token)

    @staticmethod
    def _apply(
        action: Action, ticket_id: str, store: TicketStore, context: ControllerContext
    ) -> Ticket | None:
        rest = _remainder(TicketController.text_of(context), ticket_id)
        shown = store.find_for(ticket_id, _viewer(context))  # someone else's: "not found"
        if action == "close":
            return store.close(ticket_id, by=context.user, reason=rest)
        if action == "reopen":
            return store.reopen(ticket_id, by=context.user, reason=rest)
        if action == "urge":
            return store.urge(ticket_id, by=context.user)
        if action == "process":
            return store.take(ticket_id, by=context.user, assignee=ASSIGNEE)
        if action == "comment":
            text = comment_text(TicketController.text_of(context), ticket_id) or _upstream_summary(
                context
            )
            if not text:
                return None
            return store.comment(ticket_id, author=context.user, text=text)
        return shown


def _viewer(context: ControllerContext) -> Viewer:
    return Viewer(context.user, context.channel, context.team)


def _list_own(context: ControllerContext, zh: bool) -> ControllerResult:
    """The requester's open tickets in the local store (possibly none)."""
    store = context.services.tickets
    if store is None:
        return ControllerResult(ok=False, summary=say.no_store(zh))
    own = store.list_by_requester(context.user, open_only=True)
    if not own:
        return ControllerResult(
            ok=True,
            summary=say.no_open_tickets(zh),
            data={"action": "list", "tickets": []},
        )
    return ControllerResult(
        ok=True,
        summary=say.own_open(own[:20], len(own), zh),
        data={"action": "list", "tickets": [t.to_dict() for t in own[:20]]},
    )


def _search_own(context: ControllerContext, zh: bool) -> ControllerResult:
    """The requester's tickets (closed ones too) that match the topic searched for."""
    store = context.services.tickets
    if store is None:
        return ControllerResult(ok=False, summary=say.no_store(zh))
    topic = search_topic(TicketController.text_of(context)) or ""
    own = store.list_by_requester(context.user, team=context.team)
    hits = search(own, topic)
    found = [hit.ticket for hit in hits]
    return ControllerResult(
        ok=True,
        summary=say.search_results(topic, found, zh),
        data={"action": "search", "topic": topic, "tickets": [t.to_dict() for t in found]},
    )


def _which_ticket(plan: _Plan, zh: bool) -> ControllerResult:
    """No id given: list the requester's open tickets (a status answer) or ask for one."""
    if not plan.own_open:
        return ControllerResult(
            ok=False, summary=say.which_ticket(None, [], zh), missing=["ticket_id"]
        )
    shown = plan.own_open[:10]
    tickets = [t.to_dict() for t in shown]
    if plan.action == "status":
        return ControllerResult(
            ok=True,
            summary=say.own_open(shown, len(shown), zh, counted=False),
            data={"action": "status", "tickets": tickets},
        )
    return ControllerResult(
        ok=False,
        summary=say.which_ticket(plan.action, shown, zh),
        data={"action": plan.action, "tickets": tickets},
        missing=["ticket_id"],
    )


def _state_problem(action: Action, ticket: Ticket) -> str | None:
    if action in ("close", "urge", "process") and not ticket.is_open:
        return f"ticket {ticket.id} is closed"
    if action == "reopen" and ticket.is_open:
        return f"ticket {ticket.id} is not closed"
    return None


def _remainder(text: str, ticket_id: str) -> str:
    pattern = re.compile(rf"#?{re.escape(ticket_id)}", re.I)
    parts = pattern.split(text, maxsplit=1)
    return parts[1].strip(_REMAINDER_TRIM) if len(parts) == 2 else ""


def _upstream_summary(context: ControllerContext) -> str:
    upstream = context.upstream or {}
    summary = upstream.get("summary")
    return str(summary) if summary else ""


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else ""
