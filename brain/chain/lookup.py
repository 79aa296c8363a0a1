"""Look up before you create: a message naming an existing ticket is about that ticket.

"please check CHG-12345" reads like a change request to the signals (the knowledge base maps
the CHG- prefix to change management), but it names a ticket: it is a look-up or an update of
CHG-12345, done by the `ticket` controller, never a new change. This step rewrites a route to
a controller that files new tickets into a route to `ticket` when the message names a ticket
id (any known format: INC-/CHG-/REQ- style, 19-digit work orders, imported ids). The `ticket`
controller then says plainly when the id is not found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from brain.routing import RoutePlan, composition_of
from controllers.ids import find_ticket_ids, normalize_ticket_id

#: The controller that works on existing tickets (a contract name, see GUIDE.md).
TICKET_CONTROLLER = "ticket"


def named_tickets(text: str, entities: Mapping[str, Sequence[str]]) -> list[str]:
    """Ticket ids the message names: the extracted ones, then any the id finder sees."""
    found = [normalize_ticket_id(t) for t in entities.get("ticket_id", ())]
    found.extend(find_ticket_ids(text))
    return list(dict.fromkeys(t for t in found if t))


def prefer_existing(
    plan: RoutePlan,
    tickets: Sequence[str],
    *,
    filers: Iterable[str],
    registered: Sequence[str],
    feeds: Mapping[str, Sequence[str]],
) -> RoutePlan:
    """`plan`, or a route to `ticket` when it would file a new ticket for a message that
    names one. Other controllers of a composition (an alarm diagnosis) keep their part."""
    chosen = [n for n in (plan.controller, *plan.supporting) if n]
    filing = [n for n in chosen if n in set(filers)]
    if (
        not tickets
        or not filing
        or TICKET_CONTROLLER in chosen
        or TICKET_CONTROLLER not in registered
        or plan.outcome not in ("routed", "composed")
    ):
        return plan
    kept = [n for n in chosen if n not in filing]
    named = ", ".join(tickets[:3])
    note = (
        f"look-up: the message names {named}; it goes to {TICKET_CONTROLLER} "
        f"(look up or update it) instead of filing a new {', '.join(filing)}"
    )
    composition = composition_of([TICKET_CONTROLLER, *kept], feeds)[0] if kept else None
    return RoutePlan(
        tier=plan.tier,
        outcome="composed" if kept else "routed",
        controller=TICKET_CONTROLLER,
        confidence=plan.confidence,
        supporting=kept,
        composition=composition,
        dry_runs=plan.dry_runs,
        tier_path=[*plan.tier_path, note],
        candidates=list(dict.fromkeys([TICKET_CONTROLLER, *plan.candidates])),
        clarification=None,
    )
