"""Typed decision records built by hand, for tests that need one without deciding."""

from __future__ import annotations

import secrets
from typing import Any

from core.records import Decision, IntentResult


def make_decision(**fields: Any) -> Decision:
    """A routed, low-urgency Decision with neutral values; keyword arguments override any field."""
    values: dict[str, Any] = {
        "decision_id": "d-" + secrets.token_hex(6),
        "text": "vpn error 691",
        "user": "u1",
        "channel": "C1",
        "thread": None,
        "controller": "incident",
        "supporting": [],
        "confidence": 0.5,
        "tier": "verify",
        "outcome": "routed",
        "escalate": False,
        "urgency": "low",
        "intent": IntentResult.from_dict({}, urgency="low", entities={}),
        "entities": {},
        "signals": {},
        "rationale": "",
    }
    return Decision(**{**values, **fields})


#: The keys GUIDE.md promises in every decision's JSON.
DECISION_CONTRACT = frozenset(
    {
        "decision_id",
        "controller",
        "supporting",
        "confidence",
        "tier",
        "outcome",
        "escalate",
        "urgency",
        "intent",
        "entities",
        "signals",
        "rationale",
    }
)
