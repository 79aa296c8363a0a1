"""Block Kit of the ticket lifecycle: the ticket's buttons, the satisfaction question, the
team's notification and the "what was wrong" modal. Pure functions of their arguments.

Every ticket button carries the ticket id in its block id (`BLOCK_TICKET` + id), so the
listener (`bot.helpdesk.ticket_actions`) binds the click to the ticket before anything
changes. Titles and reasons are user text: escaped where shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import ActionsBlock, Block

from bot.blocks import (
    BLOCK_DECISION,
    _button,
    _context,
    _section,
    escape,
    reason_modal,
    to_dicts,
)
from bot.wording import say
from brain import Reply
from controllers.tickets import STATUS_LABELS, Ticket
from core.text.shortening import shorten

ACTION_RESOLVE = "brain_ticket_resolve"
ACTION_REOPEN = "brain_ticket_reopen"
ACTION_CLAIM = "brain_ticket_claim"
ACTION_HAND = "brain_ticket_hand"
ACTION_RATE_UP = "brain_ticket_rate_up"
ACTION_RATE_DOWN = "brain_ticket_rate_down"
BLOCK_TICKET = "brain_ticket:"
BLOCK_RATE = "brain_rate:"
VIEW_REASON = "brain_ticket_reason"


def status_label(ticket: Ticket) -> str:
    """The help desk's word for the ticket's status ("assigned" once someone holds it)."""
    if ticket.status == "open" and ticket.assignee:
        return "assigned"
    return STATUS_LABELS.get(ticket.status, ticket.status)


def ticket_of(reply: Reply) -> str | None:
    """The id of the ticket a reply filed or updated, if any."""
    decision = reply.decision
    if decision is None or decision.result is None:
        return None
    ticket = decision.result.data.get("ticket")
    return str(ticket["id"]) if isinstance(ticket, dict) and ticket.get("id") else None


def ticket_actions(
    ticket_id: str, status: str, teams: Sequence[str], *, zh: bool = False
) -> ActionsBlock:
    """Resolve or Reopen, Claim, Hand to team: the same as the text macros (`zh`: worded for
    a Chinese asker)."""
    elements: list[Any] = []
    if status in ("resolved", "closed"):
        elements.append(_button(say("ticket_reopen", zh), ACTION_REOPEN, ticket_id))
    else:
        elements.append(
            _button(say("ticket_resolve", zh), ACTION_RESOLVE, ticket_id, style="primary")
        )
        elements.append(_button(say("ticket_claim", zh), ACTION_CLAIM, ticket_id))
        if teams:
            options = [
                {"text": {"type": "plain_text", "text": shorten(t, 75)}, "value": t[:150]}
                for t in teams[:100]
            ]
            elements.append(
                {
                    "type": "static_select",
                    "action_id": ACTION_HAND,
                    "placeholder": {"type": "plain_text", "text": say("hand_to_team", zh)},
                    "options": options,
                }
            )
    return ActionsBlock(block_id=BLOCK_TICKET + ticket_id, elements=elements)


def with_ticket_actions(
    blocks: list[dict[str, Any]],
    ticket_id: str,
    status: str,
    teams: Sequence[str],
    *,
    zh: bool = False,
) -> list[dict[str, Any]]:
    """A message's blocks with its ticket buttons (replaced when already there), placed
    before the decision's own Right / Route elsewhere, which stay last: a click on those
    replaces them in place with its note, and the ticket keeps its buttons."""
    kept = [b for b in blocks if not str(b.get("block_id") or "").startswith(BLOCK_TICKET)][:48]
    at = next(
        (i for i, b in enumerate(kept) if str(b.get("block_id") or "").startswith(BLOCK_DECISION)),
        len(kept),
    )
    return [*kept[:at], ticket_actions(ticket_id, status, teams, zh=zh).to_dict(), *kept[at:]]


def status_notice(ticket: Ticket, by: str, team: str | None = None) -> str:
    """What is posted in the thread when the status changes."""
    where = f" for team *{escape(team)}*" if team else ""
    holder = f", assignee <@{ticket.assignee}>" if ticket.assignee else ""
    return f"Ticket `{ticket.id}` is now *{status_label(ticket)}*{where}{holder} (by <@{by}>)."


def satisfaction_blocks(ticket: Ticket) -> list[dict[str, Any]]:
    """The requester is asked whether the resolution solved it."""
    blocks: list[Block] = [
        _section(say("rate_question", False, requester=f"<@{ticket.requester}>", id=ticket.id)),
        ActionsBlock(
            block_id=BLOCK_RATE + ticket.id,
            elements=[
                _button(say("rate_yes", False), ACTION_RATE_UP, ticket.id, style="primary"),
                _button(say("rate_no", False), ACTION_RATE_DOWN, ticket.id),
            ],
        ),
    ]
    return to_dicts(blocks)


def team_blocks(
    ticket: Ticket, team: str, rationale: str, permalink: str | None, teams: Sequence[str]
) -> list[dict[str, Any]]:
    """The team channel's notice: the ticket, the brain's rationale, the thread, Claim."""
    link = f"<{permalink}|Open the thread>" if permalink else ""
    head = (
        f"*New ticket for {escape(team)}*: `{ticket.id}` ({escape(ticket.kind)}) "
        f"from <@{ticket.requester}>"
    )
    blocks: list[Block] = [
        _section(head),
        _section("> " + escape(shorten(ticket.title, 500)).replace("\n", "\n> ")),
        _context(f"{escape(rationale)} {link}".strip() or "no rationale recorded"),
        ticket_actions(ticket.id, ticket.status, teams),
    ]
    return to_dicts(blocks)


def reason_view(ticket_id: str, channel: str, thread_ts: str) -> dict[str, Any]:
    """The "what was wrong?" modal (optional reason) after a thumbs-down on a ticket's answer."""
    metadata = {"ticket": ticket_id, "channel": channel, "ts": thread_ts}
    return reason_modal(VIEW_REASON, metadata, False, optional=True)
