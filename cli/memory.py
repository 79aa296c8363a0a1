"""`brain memory show [--user U] [--json]`, `brain memory forget --user U`,
`brain memory conflicts [--json]`: what the brain learned, and the right to undo it."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `memory` sub-command and its actions."""
    parser = subparsers.add_parser(
        "memory",
        help="show, forget or check what the brain learned from feedback",
        description="The lessons the memory ring learned from feedback.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="list lessons (all, or one user's)")
    show.add_argument("--user", default=None, help="only lessons taught by or about this user")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler="cli.memory:run_show")
    forget = actions.add_parser(
        "forget", help="remove a user's lessons, feedback and stored message texts"
    )
    forget.add_argument("--user", required=True, help="whose data to forget")
    forget.add_argument("--json", action="store_true", help="print JSON")
    forget.set_defaults(handler="cli.memory:run_forget")
    conflicts = actions.add_parser(
        "conflicts", help="similar messages users moved to different controllers"
    )
    conflicts.add_argument("--json", action="store_true", help="print JSON")
    conflicts.set_defaults(handler="cli.memory:run_conflicts")


def run_show(args: argparse.Namespace) -> int:
    """Handler of `brain memory show`."""
    from brain.engine import Brain
    from brain.memory_control import show

    with Brain.open() as brain:
        lessons = show(brain, args.user)
    if args.json:
        print(json.dumps(lessons, ensure_ascii=False, indent=2))
        return 0
    if not lessons:
        print("no lessons" + (f" of {args.user}" if args.user else ""))
    for lesson in lessons:
        moved = (
            f"moved {lesson['moved_from'] or '?'} -> {lesson['moved_to']}"
            if lesson["moved_to"]
            else lesson["kind"]
        )
        print(
            f"{lesson['created_at'][:10]} {lesson['user']:<10} {lesson['controller']:<13} "
            f"{lesson['weight']:+.2f} {moved}: {lesson['text'][:70]!r}"
        )
    return 0


def run_forget(args: argparse.Namespace) -> int:
    """Handler of `brain memory forget`."""
    from brain.engine import Brain
    from brain.memory_control import forget_user
    from core.stores import open_stores

    with Brain.open() as brain:
        stores = open_stores(brain.settings)
        try:
            report = forget_user(brain, args.user, stores.tickets)
        finally:
            stores.close()
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        print(
            f"forgot {args.user}: {report.lessons} lesson(s) removed, {report.decisions} "
            f"decision(s) and {report.tickets} ticket(s) redacted"
        )
    return 0


def run_conflicts(args: argparse.Namespace) -> int:
    """Handler of `brain memory conflicts`."""
    from brain.engine import Brain
    from brain.memory_control import conflict_views

    with Brain.open() as brain:
        found = conflict_views(brain)
    if args.json:
        print(json.dumps(found, ensure_ascii=False, indent=2))
        return 0
    if not found:
        print("no conflicting lessons")
    for conflict in found:
        where = "; ".join(
            f"{name}: {', '.join(users)}" for name, users in conflict["targets"].items()
        )
        print(f"{conflict['text'][:70]!r} -> {where} (not applied to others)")
    return 0
