"""`brain evolution report [--json]`: what the dynamic tier learned and where it keeps failing.

Lists the evolved controllers (active or pending approval), the unknown problems on their way
to becoming one (confirmed cases of the same plan), and repeated boundaries: clusters of
similar messages nothing could take (the evolution signals of the fallback ladder).
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `evolution` sub-command."""
    parser = subparsers.add_parser(
        "evolution",
        help="report evolved controllers, candidate clusters and repeated boundaries",
        description="Report what Type A consolidation made and which boundaries repeat.",
    )
    parser.add_argument("what", choices=("report",), help="report")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler="cli.evolution:run")


def run(args: argparse.Namespace) -> int:
    """Read the case book (no model is loaded)."""
    from brain.dynamic.cases import CaseBook
    from brain.dynamic.evolution import Evolution
    from controllers.registry import ControllerRegistry
    from core.config import load_settings
    from core.stores import open_stores

    settings = load_settings()
    stores = open_stores(settings)
    try:
        report = Evolution(
            settings, CaseBook(stores.cases), lambda: ControllerRegistry.load(settings)
        ).report()
    finally:
        stores.close()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['cases']} unknown cases, {report['boundary_cases']} ended at a boundary")
    print("Evolved controllers:")
    for row in report["evolved"] or [{"name": "(none)", "status": "", "plan": ""}]:
        print(f"  {row['name']}  {row['status']}  {row['plan']}")
    print("On their way (confirmed cases of the same plan):")
    for row in report["candidates"] or [{"signature": "(none)", "confirmed": 0, "needed": 0}]:
        print(
            f"  {row['signature']}: {row['confirmed']}/{row['needed']} confirmed"
            + (f"  e.g. {row['example']!r}" if row.get("example") else "")
        )
    print("Repeated boundaries (evolution signals):")
    for row in report["boundaries"] or [{"cases": 0, "examples": ["(none)"]}]:
        print(f"  {row['cases']}x  " + " | ".join(row["examples"]))
    return 0
