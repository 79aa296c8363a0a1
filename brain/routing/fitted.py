"""What a fit on a home's labelled history chose for routing, kept in the home so that every
later decision routes the way the fit was measured.

`brain controllers import` and `brain eval --train` both decide held-out rows with a brain
fitted without them, fit the calibration on those decisions and choose from them where asking
back starts (`brain.routing.cost.ask_threshold`). Before, only `brain eval` used its choice
(in memory, for its own throwaway brain): the home an import left behind asked back below the
default verify threshold and never routed a far-ahead leader, so the next `brain ask` was not
the brain the import's report measured. Now the choice is a file, `routing-fit.json`, written
by both and read when a brain opens; what the configuration sets explicitly (`[routing]
verify_threshold`, `far_ahead_ratio`, or their environment variables) still wins.

The file also keeps the signals' weights the fit learned (`brain.routing.combiner`; empty when
the configured ones ranked as well), applied unless the configuration sets any weight, and the
out-of-scope bar it chose (`brain.routing.cost.out_of_scope_bar`; none when the history held
no out-of-scope row), applied unless `[routing] out_of_scope_above` is set.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.config import BUILTIN_WEIGHTS

if TYPE_CHECKING:
    from core.config import Settings

#: The file in the brain's home.
FILE = "routing-fit.json"


@dataclass(frozen=True, slots=True)
class FittedRouting:
    """Where the fitted brain starts asking back, and the far-ahead ratio it routes with."""

    ask_below: float
    far_ahead_ratio: float
    source: str = ""
    #: The signals' weights learned from the held-out decisions ({}: the configured ones).
    weights: dict[str, float] = field(default_factory=dict)
    #: How the weights were chosen, in words (`brain why` shows it).
    weights_source: str = ""
    #: The semantic model's P(out of scope) from which a message is declared out of scope
    #: (None: the model's own level).
    out_of_scope_above: float | None = None

    def save(self, home: Path) -> Path:
        """Write it to `home` atomically; returns the path."""
        path = home / FILE
        temporary = path.with_suffix(".json.tmp")
        temporary.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
        return path

    @classmethod
    def load(cls, home: Path) -> FittedRouting | None:
        """The home's fit, or None (no file, or one this version cannot read)."""
        path = home / FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(
                ask_below=float(data["ask_below"]),
                far_ahead_ratio=float(data["far_ahead_ratio"]),
                source=str(data.get("source", "")),
                weights={str(k): float(v) for k, v in data.get("weights", {}).items()},
                weights_source=str(data.get("weights_source", "")),
                out_of_scope_above=_optional(data.get("out_of_scope_above")),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None


def with_fitted_routing(settings: Settings) -> Settings:
    """`settings` with the home's fitted routing applied to what its configuration leaves at
    the defaults (unchanged when the home has no fit)."""
    fitted = FittedRouting.load(settings.home)
    if fitted is None:
        return settings
    routing = settings.routing
    update: dict[str, object] = {}
    if "verify_threshold" not in routing.model_fields_set:
        update["verify_threshold"] = min(fitted.ask_below, routing.fast_threshold)
    if "far_ahead_ratio" not in routing.model_fields_set:
        update["far_ahead_ratio"] = fitted.far_ahead_ratio
    bar = fitted.out_of_scope_above
    if bar is not None and "out_of_scope_above" not in routing.model_fields_set:
        update["out_of_scope_above"] = bar
    if fitted.weights and not _weights_configured(settings):
        extra = {k: v for k, v in fitted.weights.items() if k not in BUILTIN_WEIGHTS}
        update.update({f"weight_{k}": v for k, v in fitted.weights.items() if k in BUILTIN_WEIGHTS})
        update["weights"] = extra
    if not update:
        return settings
    return settings.model_copy(update={"routing": routing.model_copy(update=update)})


def _optional(value: object) -> float | None:
    return float(value) if isinstance(value, int | float | str) else None


def _weights_configured(settings: Settings) -> bool:
    """Does the configuration set any signal weight (then the fit's are not applied)?"""
    routing = settings.routing
    named = {f"weight_{name}" for name in BUILTIN_WEIGHTS}
    return bool(routing.weights) or bool(named & routing.model_fields_set)
