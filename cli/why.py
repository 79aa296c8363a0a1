"""`brain why DECISION_ID [--json]`: everything behind a decision."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.config import Settings


def register(subparsers: Any) -> None:
    """Add the `why` sub-command."""
    parser = subparsers.add_parser(
        "why",
        help="explain a decision",
        description="Show every controller's five signals, the tier path, dry-runs, feedback "
        "and memory influences of a logged decision.",
    )
    parser.add_argument("decision_id", metavar="DECISION_ID")
    parser.add_argument("--json", action="store_true", help="print the explanation as JSON")
    parser.set_defaults(handler="cli.why:run")


def run(args: argparse.Namespace) -> int:
    """Handler of `brain why`: reads the decision log only (no `Brain`, so none of the
    decision chain, numpy or a model is imported; the same look-up as `Brain.explain`)."""
    from brain.decisions.log import DecisionLog
    from brain.decisions.lookups import DecisionLookups
    from core.config import load_settings
    from core.errors import UnknownDecision
    from core.stores import open_stores

    settings = load_settings()
    stores = open_stores(settings)
    try:
        explained = DecisionLookups(DecisionLog(stores.decisions)).explain(args.decision_id)
    except UnknownDecision as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return 1
    finally:
        stores.close()
    explained = replace(explained, **_weights(settings))
    if args.json:
        print(json.dumps(explained.to_dict(), indent=2))
    else:
        print(explained.text())
    return 0


def _weights(settings: Settings) -> dict[str, Any]:
    """The signals' weights this home routes with now, and where they come from: learned by
    `brain controllers import` (`routing-fit.json`), else the configuration's."""
    from brain.routing.fitted import FittedRouting, with_fitted_routing

    weights = with_fitted_routing(settings).routing.signal_weights()
    fitted = FittedRouting.load(settings.home)
    source = "configured"
    if fitted is not None and fitted.weights and weights == fitted.weights:
        source = fitted.weights_source
    return {"weights": weights, "weights_source": source}
