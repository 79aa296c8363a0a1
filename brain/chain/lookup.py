"""Look up before you create: a message naming an existing ticket is about that ticket.

"please check CHG-12345" reads like a change request to the signals (the knowledge base maps
the CHG- prefix to change management), but it asks about a ticket: it is a look-up of
CHG-12345, done by the controller that works on existing records (the `records` role,
`controllers.roles`; `ticket` in the built-in pack), never a new change. This step rewrites a
route to a controller that files new tickets into a route to that controller when the message
names a ticket id (any known format: INC-/CHG-/REQ- style, 19-digit work orders, imported ids)
and asks about it (status, progress, an action on it). That controller then says plainly when
the id is not found. A message that reports a problem and names its earlier ticket ("VPN down again,
INC0013021 is still not solved") keeps its route; the filing controller then updates that
ticket instead of opening a second one (`controllers.requests.file_request`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from brain.routing.plan import RoutePlan, composition_of
from controllers.ids import PREFIXES, find_ticket_ids, normalize_ticket_id
from controllers.record_actions import detect_action
from core.cues import cues

#: Words that ask about a ticket rather than report a problem ("please check CHG-12345").
_ABOUT_TICKET = re.compile(cues(__name__).regex("about_ticket"), re.IGNORECASE)


#: A request whose only work is to look something up ("please check LT-20977", "查一下 web-03").
_LOOK_UP_REQUEST = re.compile(cues(__name__).regex("look_up_request"), re.IGNORECASE)


def named_tickets(
    text: str,
    entities: Mapping[str, Sequence[str]],
    exists: Callable[[str], bool] = lambda _: False,
) -> list[str]:
    """Ticket ids the message names: known formats (INC-/CHG-/REQ- style, 19-digit work
    orders, "#123", "ticket 1234"), and any other id the ticket store holds (imported ones).
    Asset tags (`LT-20977`) are not tickets."""
    assets = {normalize_ticket_id(a) for a in entities.get("asset_tag", ())}
    known = find_ticket_ids(text, other_prefixes=False)
    others = [normalize_ticket_id(t) for t in entities.get("ticket_id", ())]
    others.extend(find_ticket_ids(text))
    found = known + [t for t in others if t not in known and exists(t)]
    return list(dict.fromkeys(t for t in found if t and t not in assets))


def asks_to_look_up(text: str) -> bool:
    """Is the message a request to look something up, which files nothing ("please check X")?"""
    return bool(_LOOK_UP_REQUEST.search(text))


def kind_of(ticket_id: str) -> str | None:
    """The kind of record an id names by its prefix ("CHG-4411" -> "change"), or None."""
    head = re.match(r"[A-Z]+", normalize_ticket_id(ticket_id))
    prefix = head.group(0) if head else ""
    return next((kind for kind, known in PREFIXES.items() if known == prefix), None)


def asks_about_ticket(text: str) -> bool:
    """Does the message ask about a ticket (status, progress, an action on it)?"""
    return bool(_ABOUT_TICKET.search(text)) or detect_action(text) != "status"


def prefer_existing(
    plan: RoutePlan,
    tickets: Sequence[str],
    *,
    asks: bool,
    filers: Iterable[str],
    records: str | None,
    feeds: Mapping[str, Sequence[str]],
    exists: Callable[[str], bool] = lambda _: False,
) -> RoutePlan:
    """`plan`, or a route to `records` (the controller of existing records, None when no
    registered controller holds that role) when it would file a new ticket for a message that
    names one (also when `records` is already composed with a filing controller, and when a
    question about the named record was not routed because the filer's dry-run failed, or the
    records controller's own, as the record does not exist). Other
    controllers of a composition (an alarm diagnosis) keep their part."""
    routed = plan.outcome in ("routed", "composed")
    # Unrouted (its dry-run failed: "missing service"), the best candidate is what would have
    # filed; a question about the record it names is still a look-up, whatever the confidence.
    chosen = [n for n in (plan.controller, *plan.supporting) if n]
    chosen = chosen if routed else plan.candidates[:1]
    filing = [n for n in chosen if n in set(filers)]
    # A filer never files a second record of the kind the message names ("...after the
    # change CHG-4411" refers to that change): the mention is a reference, looked up.
    # (An open record of that kind that exists takes the report itself: the filer updates it.)
    refers = any(kind_of(t) in filing and not exists(t) for t in tickets)
    # Unrouted because the records controller itself was best and its dry-run did not find the
    # named record: a question about that record is still its look-up (it says "not found").
    itself = not routed and asks and chosen == [records]
    if not tickets or records is None:
        return plan
    if not itself and (not (asks or refers) or not filing or not (routed or asks)):
        return plan
    # `records` may already be part of a composition ("INC-1 is still open and the VPN drops"):
    # it stays, and the filing controllers leave it.
    kept = [n for n in chosen if n not in filing and n != records]
    named = ", ".join(tickets[:3])
    instead = f" instead of filing a new {', '.join(filing)}" if filing else ""
    note = (
        f"look-up: the message names {named}; it goes to {records} (look up or update it){instead}"
    )
    composition = composition_of([records, *kept], feeds)[0] if kept else None
    return RoutePlan(
        tier=plan.tier,
        outcome="composed" if kept else "routed",
        controller=records,
        confidence=plan.confidence,
        supporting=kept,
        composition=composition,
        dry_runs=plan.dry_runs,
        tier_path=[*plan.tier_path, note],
        candidates=list(dict.fromkeys([records, *plan.candidates])),
        clarification=None,
    )
