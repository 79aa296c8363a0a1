"""An asset tag or host that is mentioned is looked up, never filed.

"please check LT-20977" or "what is the status of web-03?" name a thing, not a ticket: the
answer is what the records and the knowledge base hold about it, the tickets whose fields or
title name it (those the asker may see) and the passages that mention it. Nothing is created;
"Ticket LT-20977 not found" is never said of an asset tag. The replies follow the asker's
language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from controllers import answering
from controllers import ticket_replies as say
from controllers.base import ControllerContext, ControllerResult
from core.access import Viewer
from core.stores.kinds import names
from core.wording import wording_for

if TYPE_CHECKING:
    from controllers.tickets import Ticket

#: Entity kinds that name a thing the records may mention (`brain.intent.entities`).
THING_KINDS = ("asset_tag", "host")
#: Tickets and passages shown per thing.
SHOWN = 5


def named_things(context: ControllerContext) -> list[tuple[str, str]]:
    """(kind, value) of each asset tag and host the message names."""
    return [(kind, value) for kind in THING_KINDS for value in context.entities.get(kind, [])]


def mentions(ticket: Ticket, value: str) -> bool:
    """Does the ticket name the thing (a field equal to it, or its title)? The rule the
    store's look-up applies (`core.stores.kinds.names`)."""
    return names({"title": ticket.title, "fields": ticket.fields}, value)


def look_up(context: ControllerContext, things: Sequence[tuple[str, str]]) -> ControllerResult:
    """What the records and the knowledge base hold about each thing; nothing is created."""
    zh = say.chinese(context)
    store = context.services.tickets
    viewer = Viewer(context.user, context.channel)
    lines: list[str] = []
    found: dict[str, list[str]] = {}
    citations: list[str] = []
    for kind, value in things[:3]:
        tickets = []
        if store is not None:
            tickets = store.mentioning(value, viewer)
        hits = answering.gather(context.services.knowledge, value, k=3).hits
        hits = [h for h in hits if value.lower() in h.text.lower()]
        found[value] = [t.id for t in tickets[-SHOWN:]]
        citations.extend(answering.citation(h) for h in hits)
        lines.append(_said(kind, value, tickets[-SHOWN:], len(hits), zh))
    return ControllerResult(
        ok=True,
        summary=" ".join(lines),
        data={"action": "look_up", "things": found, "tickets": []},
        citations=citations,
    )


def _said(kind: str, value: str, tickets: Sequence[Ticket], passages: int, zh: bool) -> str:
    words = wording_for(zh)
    what = words.term("referenced_things", "asset_tag" if kind == "asset_tag" else "host")
    if tickets:
        listed = words.say("common.clause_separator").join(
            words.say(
                "references.listed",
                id=t.id,
                kind=say.kind_label(t.kind, zh),
                status=say.status_label(t.status, zh),
            )
            for t in tickets
        )
        head = words.say("references.found", what=what, value=value, tickets=listed)
    else:
        head = words.say("references.none", what=what, value=value)
    return head + (words.say("references.passages", count=passages) if passages else "")
