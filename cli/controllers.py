"""`brain controllers [--json]`: list the registered controllers and where they come from."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `controllers` sub-command."""
    parser = subparsers.add_parser(
        "controllers",
        help="list the registered controllers with their origin",
        description="List built-in, entry-point and YAML controllers (BRAIN_HOME/controllers).",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list")
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

    registry = ControllerRegistry.load(load_settings())
    for warning in registry.warnings:
        print(f"brain: warning: {warning}", file=sys.stderr)
    rows = [describe(controller) for controller in registry.all()]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for row in rows:
        required = ", ".join(row["required_entities"]) or "-"
        print(f"{row['name']}  ({row['label']})  origin: {row['origin']}")
        print(f"    {row['description']}")
        print(f"    keywords: {row['keywords']}  examples: {row['examples']}  requires: {required}")
    print(f"{len(rows)} controllers (registry version {registry.version})")
    return 0
