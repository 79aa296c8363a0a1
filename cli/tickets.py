"""`brain tickets`: look into the local ticket store and import tickets from another system.

brain tickets list [--user U] [--all] [--json]
brain tickets show ID [--json]
brain tickets search TOPIC [--user U] [--limit N] [--json]
brain tickets import FILE        (JSON list or JSON lines: id, title, requester, kind, ...)
brain tickets sync [--poll] [--json]   (send queued changes to Jira; --poll: read its changes)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controllers.tickets import TicketStore
    from core.config import Settings

HANDLER = "cli.tickets:run"


def register(subparsers: Any) -> None:
    """Add the `tickets` sub-command (imports nothing heavy)."""
    parser = subparsers.add_parser(
        "tickets", help="list, show, search or import tickets of the local ticket store"
    )
    actions = parser.add_subparsers(dest="tickets_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="open tickets (of one requester with --user)")
    listing.add_argument("--user", help="only this requester's tickets")
    listing.add_argument("--all", action="store_true", help="closed ones too")
    listing.add_argument("--json", action="store_true", help="print JSON")
    show = actions.add_parser("show", help="one ticket with its comments and history")
    show.add_argument("ticket_id")
    show.add_argument("--json", action="store_true", help="print JSON")
    search = actions.add_parser(
        "search", help="tickets about a topic, best first (of one requester with --user)"
    )
    search.add_argument("topic", help='what the tickets are about, e.g. "vpn error 809"')
    search.add_argument("--user", help="only this requester's tickets")
    search.add_argument("--limit", type=int, default=10, help="most tickets shown (10)")
    search.add_argument("--json", action="store_true", help="print JSON")
    load = actions.add_parser("import", help="import tickets from a JSON or JSONL file")
    load.add_argument("file", type=Path)
    sync = actions.add_parser(
        "sync", help="send the changes queued for Jira ([tickets.jira]) that are due, once"
    )
    sync.add_argument(
        "--poll",
        action="store_true",
        help="also read Jira's changes back into the tickets (the bot then does not post them)",
    )
    sync.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=HANDLER)


@contextmanager
def opened_tickets(settings: Settings) -> Iterator[TicketStore]:
    """The home's ticket store for one command, its stores closed when the command is done:
    a read can start a background fold of the ticket journal, which then wrote into the home
    after the command had returned (under a copy or a removal made next, in-process)."""
    from controllers.tickets import TicketStore
    from core.stores import open_stores

    stores = open_stores(settings)
    try:
        yield TicketStore.on_stores(stores, settings)
    finally:
        stores.close()


def run(args: argparse.Namespace) -> int:
    """Dispatch to the action; returns the exit code."""
    from core.config import load_settings

    settings = load_settings()
    with opened_tickets(settings) as store:
        if args.tickets_action == "sync":
            from cli.ticket_sync import sync

            return sync(settings, store, poll=args.poll, as_json=args.json)
        if args.tickets_action == "list":
            return _list(store, args)
        if args.tickets_action == "show":
            return _show(store, args)
        if args.tickets_action == "search":
            return _search(store, args)
        return _import(store, args.file)


def _list(store: Any, args: argparse.Namespace) -> int:
    tickets = store.list_by_requester(args.user) if args.user else store.all()
    if not args.all:
        tickets = [t for t in tickets if t.is_open]
    if args.json:
        print(json.dumps([t.to_dict() for t in tickets], indent=2))
        return 0
    for ticket in tickets:
        print(f"{ticket.id:22s} {ticket.kind:9s} {ticket.status:14s} {ticket.requester:12s} "
              f"{ticket.title}")  # fmt: skip
    print(f"{len(tickets)} tickets")
    return 0


def _search(store: Any, args: argparse.Namespace) -> int:
    from controllers.ticket_search import search

    if args.limit < 1:
        print("brain: --limit must be at least 1", file=sys.stderr)
        return 2
    tickets = store.list_by_requester(args.user) if args.user else store.all()
    hits = search(tickets, args.topic, limit=args.limit)
    if args.json:
        found = [{**hit.ticket.to_dict(), "score": round(hit.score, 3)} for hit in hits]
        print(json.dumps(found, indent=2, ensure_ascii=False))
        return 0
    for hit in hits:
        ticket = hit.ticket
        print(f"{ticket.id:22s} {ticket.kind:9s} {ticket.status:14s} {hit.score:6.2f} "
              f"{ticket.title}")  # fmt: skip
    print(f"{len(hits)} tickets about {args.topic!r}")
    return 0


def _show(store: Any, args: argparse.Namespace) -> int:
    ticket = store.get(args.ticket_id)
    if ticket is None:
        print(f"brain: ticket {args.ticket_id} was not found", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(ticket.to_dict(), indent=2))
        return 0
    print(f"{ticket.id} ({ticket.kind}) {ticket.status}: {ticket.title}")
    print(f"requester {ticket.requester}, assignee {ticket.assignee or '-'}, "
          f"urged {ticket.urge_count}x, updated {ticket.updated_at}")  # fmt: skip
    for key, value in ticket.fields.items():
        print(f"  {key}: {value}")
    for comment in ticket.comments:
        print(f"  [{comment['at']}] {comment['by']}: {comment['text']}")
    return 0


def _import(store: Any, path: Path) -> int:
    from controllers.tickets import TicketError

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"brain: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        loaded = json.loads(text)
        records = loaded if isinstance(loaded, list) else [loaded]
    except json.JSONDecodeError:
        try:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            print(f"brain: {path} is neither JSON nor JSON lines: {exc}", file=sys.stderr)
            return 2
    if not all(isinstance(record, dict) for record in records):
        print(f"brain: {path} must hold ticket objects", file=sys.stderr)
        return 2
    imported = 0
    for record in records:
        try:
            store.import_records([record])
            imported += 1
        except TicketError as exc:
            print(f"brain: skipped: {exc}", file=sys.stderr)
    print(f"imported {imported} of {len(records)} tickets")
    return 0 if imported == len(records) else 1
