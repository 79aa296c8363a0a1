"""`brain controllers [--json]`: list the registered controllers and where they come from;
`brain controllers approve NAME` lets a pending evolved controller route, `brain controllers
retire NAME` removes an evolved one (`brain.dynamic.evolution`); `brain controllers import FILE
--text COL --label COL [--map ...]` turns a desk's labelled history into controllers
(`cli.controllers_import`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.config import Settings


def register(subparsers: Any) -> None:
    """Add the `controllers` sub-command."""
    parser = subparsers.add_parser(
        "controllers",
        help="list the registered controllers with their origin",
        description="List built-in, entry-point and YAML controllers (BRAIN_HOME/controllers).",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.add_argument(
        "action",
        nargs="?",
        choices=("list", "approve", "retire", "import"),
        default="list",
        help="approve or retire an evolved controller, or import labelled rows (default: list)",
    )
    parser.add_argument(
        "name", nargs="?", help="the evolved controller to approve or retire; the FILE to import"
    )
    parser.add_argument("--text", metavar="COL", help="import: the column holding the message")
    parser.add_argument("--label", metavar="COL", help="import: the column holding the category")
    parser.add_argument(
        "--map",
        metavar="SPEC",
        help="import: fold categories into existing controllers "
        '("Access=access,Hardware=incident")',
    )
    parser.add_argument("--user", default="admin", help="who approves (recorded)")
    parser.set_defaults(handler="cli.controllers:run")


def describe(controller: Any) -> dict[str, Any]:
    """The JSON view of one controller."""
    return {
        "name": controller.name,
        "label": controller.label,
        "origin": controller.origin,
        "description": controller.description,
        "keywords": len(controller.keywords),
        "examples": len(controller.examples),
        "required_entities": list(controller.required_entities),
        "handler": getattr(controller, "handler", None),
    }


def run(args: argparse.Namespace) -> int:
    """Load the registry (no model, no knowledge base) and print it."""
    from controllers.registry import ControllerRegistry
    from core.config import load_settings

    if args.action == "import":
        from cli.controllers_import import run_import

        return run_import(args)
    if args.action != "list":
        return _evolved_action(args)
    settings = load_settings()
    registry = ControllerRegistry.load(settings)
    for warning in registry.warnings:
        print(f"brain: warning: {warning}", file=sys.stderr)
    rows = [describe(controller) for controller in registry.all()]
    rows.extend(_pending(settings))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        required = ", ".join(row["required_entities"]) or "-"
        print(f"{row['name']}  ({row['label']})  origin: {row['origin']}")
        print(f"    {row['description']}")
        print(f"    keywords: {row['keywords']}  examples: {row['examples']}  requires: {required}")
    print(f"{len(rows)} controllers (registry version {registry.version})")
    return 0


def _pending(settings: Any) -> list[dict[str, Any]]:
    """Evolved controllers waiting for approval (listed, not routable)."""
    from controllers.evolved import load_evolved

    return [
        {
            "name": spec.name,
            "label": spec.label or spec.name,
            "origin": "evolved",
            "status": "pending approval",
            "description": spec.description,
            "keywords": len(spec.keywords),
            "examples": len(spec.examples),
            "required_entities": list(spec.required_entities),
            "handler": spec.handler,
        }
        for spec in load_evolved(settings.home).pending
    ]


def _evolved_action(args: argparse.Namespace) -> int:
    from brain.dynamic.cases import CaseBook
    from brain.dynamic.evolution import Evolution
    from cli import exit_codes
    from controllers.registry import ControllerRegistry
    from core.config import load_settings
    from core.errors import UnknownController
    from core.stores import open_stores

    if not args.name:
        print(f"brain: controllers {args.action} needs a NAME", file=sys.stderr)
        return exit_codes.USAGE
    settings = load_settings()
    stores = open_stores(settings)
    try:
        evolution = Evolution(
            settings, CaseBook(stores.cases), lambda: ControllerRegistry.load(settings)
        )
        if args.action == "approve":
            evolution.approve(args.name, by=args.user)
            print(f"approved evolved controller {args.name}: it routes from now on")
        else:
            evolution.retire(args.name)
            print(f"retired evolved controller {args.name}")
    except UnknownController as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    finally:
        stores.close()
    _fit_for_the_new_set(settings)
    return 0


def _fit_for_the_new_set(settings: Settings) -> None:
    """Fit (and cache in the home) the routing model of the changed controller set now, so
    the first `brain ask` after an approval or a retirement loads it instead of fitting it
    (40-50 s at a desk's size, which the asker waited)."""
    from brain.engine import Brain

    with Brain(settings) as brain:
        _ = brain.semantic_model
