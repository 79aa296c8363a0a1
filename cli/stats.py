"""`brain stats`: the help desk's figures over a period, per category and team
(`brain.decisions.desk_report`): messages, first-touch routing accuracy, asked-back share,
pages, tickets filed and open, MTTR and SLA breaches.

brain stats [--since 7d] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from typing import Any

from cli import exit_codes

HANDLER = "cli.stats:run"
#: Decisions read at most (the newest): a period longer than that reads its newest part.
MAX_DECISIONS = 200_000


def register(subparsers: Any) -> None:
    """Add the `stats` sub-command (imports nothing heavy)."""
    parser = subparsers.add_parser(
        "stats",
        help="the help desk's figures over a period: routing, tickets, MTTR, SLA breaches",
    )
    parser.add_argument("--since", default="7d", help="how far back (7d, 12h, 30m; default 7d)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=HANDLER)


def run(args: argparse.Namespace) -> int:
    """Read the messages and tickets of the period and print their figures."""
    from brain.decisions.desk_report import desk_report
    from brain.decisions.period import logged_messages, parse_since
    from cli.tickets import opened_tickets
    from core.config import load_settings

    try:
        period = parse_since(args.since)
    except ValueError as exc:
        print(f"brain stats: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    settings = load_settings()
    now = datetime.now(UTC)
    messages = logged_messages(settings, now - period, limit=MAX_DECISIONS)
    with opened_tickets(settings) as store:
        tickets = store.all()
    report = desk_report(messages, tickets, settings.helpdesk, since=now - period, now=now)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(_text(report.to_dict()))
    return 0


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _hours(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} h"


def _text(data: dict[str, Any]) -> str:
    m = data["messages"]
    lines = [
        f"From {data['since']} to {data['until']}",
        "",
        f"Messages {m['messages']}: routed {m['routed']}, asked back {m['asked_back']}, "
        f"corrected {m['corrected']}; first-touch right {_pct(m['first_touch'])} "
        f"(strict {_pct(m['strict'])}); pages {m['pages']} ({m['false_pages']} corrected)",
        "",
        f"{'controller':<16}{'messages':>9}{'routed':>8}{'corrected':>10}{'first touch':>12}",
    ]
    for name, row in data["by_controller"].items():
        lines.append(
            f"{name:<16}{row['messages']:>9}{row['routed']:>8}{row['corrected']:>10}"
            f"{_pct(row['first_touch']):>12}"
        )
    t = data["tickets"]
    lines += [
        "",
        f"Tickets {t['filed']}: open {t['open']}, resolved {t['resolved']}, "
        f"MTTR {_hours(t['mttr_hours'])} (median {_hours(t['median_hours_to_resolve'])}), "
        f"SLA breaches {t['sla_breaches']} of {t['with_sla']} with a team",
    ]
    for title, rows in (("category", data["by_category"]), ("team", data["by_team"])):
        if not rows:
            continue
        lines += [
            "",
            f"{title:<16}{'filed':>7}{'open':>6}{'resolved':>10}{'MTTR':>10}{'SLA breaches':>14}",
        ]
        for name, row in rows.items():
            lines.append(
                f"{name:<16}{row['filed']:>7}{row['open']:>6}{row['resolved']:>10}"
                f"{_hours(row['mttr_hours']):>10}{row['sla_breaches']:>14}"
            )
    return "\n".join(lines) + "\n"
