"""`brain memory show [--user U] [--json] [--org]`, `brain memory forget --user U`,
`brain memory conflicts [--json]`, `brain memory refit [--json]`, `brain memory reindex`: what
the brain learned, the right to undo it, the routing model trained on the organisation's
lessons, and the lesson index rebuilt from the records."""

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
    show.add_argument(
        "--org",
        action="store_true",
        help="agreed example groups, the organisation lessons the model is trained on, its fit",
    )
    show.set_defaults(handler="cli.memory:run_show")
    refit = actions.add_parser(
        "refit", help="fit the routing model with the organisation lessons now"
    )
    refit.add_argument("--json", action="store_true", help="print JSON")
    refit.set_defaults(handler="cli.memory:run_refit")
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
    reindex = actions.add_parser(
        "reindex", help="rebuild the Qdrant lesson index from the lesson records"
    )
    reindex.set_defaults(handler="cli.memory:run_reindex")


def run_reindex(args: argparse.Namespace) -> int:
    """Handler of `brain memory reindex`: the index is derived, the records are the truth."""
    from brain.engine import Brain

    with Brain.open() as brain:
        if brain.parts.embedder is not None:
            brain.parts.embedder.load()
        points = brain.memory.reindex()
    print(f"lesson index rebuilt: {points} lessons")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Handler of `brain memory show`."""
    from brain.engine import Brain
    from brain.learning.control import show

    if args.org:
        return _show_org(args)
    with Brain.open() as brain:
        lessons = show(brain, args.user)
    if args.json:
        print(json.dumps(lessons, indent=2))
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

    with Brain.open() as brain:  # the brain's forget: lessons, records and the case book
        report = brain.forget_user(args.user)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(
            f"forgot {args.user}: {report.lessons} lesson(s) removed, {report.decisions} "
            f"decision(s), {report.tickets} ticket(s) and {report.alerts} on-call alert(s) "
            f"redacted, {report.cases} unknown case(s) and {report.threads} thread(s) removed, "
            f"{report.outbox} ticket-system change(s) dropped or redacted, "
            f"{report.remote_comments} comment(s) in the ticket system queued for removal and "
            f"{report.remote_tickets} request(s) there for redaction"
        )
    return 0


def run_conflicts(args: argparse.Namespace) -> int:
    """Handler of `brain memory conflicts`."""
    from brain.engine import Brain
    from brain.learning.control import conflict_views

    with Brain.open() as brain:
        found = conflict_views(brain)
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    if not found:
        print("no conflicting lessons")
    for conflict in found:
        where = "; ".join(
            f"{name}: {', '.join(users)}" for name, users in conflict["targets"].items()
        )
        print(f"{conflict['text'][:70]!r} -> {where} (not applied to others)")
    return 0


def _show_org(args: argparse.Namespace) -> int:
    """`brain memory show --org`: the agreed example groups routing applies to everyone, and
    the rows the routing model learns from agreed lessons."""
    from brain.engine import Brain

    with Brain.open() as brain:
        if brain.parts.embedder is not None:
            # Lessons are grouped by meaning, as the deciding processes group them.
            brain.parts.embedder.load()
        report = brain.org_training.report()
        # What routing applies to everyone: corrections as examples (`brain.memory.agreed`).
        groups = brain.agreed_examples.agreed(brain.settings.memory.agreement_users)
        report["examples"] = [group.to_dict() for group in groups]
    if args.user:
        report["rows"] = [r for r in report["rows"] if r["user"] == args.user]
        report["examples"] = [g for g in report["examples"] if args.user in g["users"]]
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for group in report["examples"]:
        print(f"{len(group['users'])} people moved messages like these to {group['controller']}:")
        for text in group["texts"]:
            print(f"  {text[:76]!r}")
    if not report["rows"]:
        print("no organisation lessons to train on")
        return 0
    state = "fitted" if report["fitted"] else "not fitted yet (`brain memory refit`)"
    print(f"{len(report['rows'])} training row(s) from organisation lessons, model {state}:")
    for row in report["rows"]:
        print(f"  {row['controller']:<13} {row['user']:<10} {row['text'][:70]!r}")
    return 0


def run_refit(args: argparse.Namespace) -> int:
    """Handler of `brain memory refit`: the routing model with the organisation lessons."""
    import time

    from brain.engine import Brain

    started = time.perf_counter()
    with Brain.open() as brain:
        model = brain.org_training.refit_now()
        rows = len(model.rows) if model is not None else 0
        key = model.key if model is not None else None
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"rows": rows, "key": key, "seconds": round(seconds, 2)}))
    elif model is None:
        print("no organisation lessons to train on: the routing model is the base one")
    else:
        print(f"routing model {key} fitted with {rows} organisation row(s) in {seconds:.1f} s")
    return 0
