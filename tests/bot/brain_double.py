"""TEMPORARY stand-in for brain.engine.Brain until the real engine lands (then deleted)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.errors import UnknownDecision
from brain.types import Decision, Message

NAMES = ["ticket", "consultation", "alarm", "coding", "access", "incident", "change"]


@dataclass
class C:
    name: str
    label: str


class Registry:
    def all(self) -> list[C]:
        return [C(n, n.title() + " desk") for n in NAMES]


class BrainDouble:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.registry = Registry()
        self.store: dict[str, dict[str, Any]] = (
            json.loads(path.read_text()) if path.exists() else {}
        )

    def _save(self, d: Decision) -> Decision:
        self.store[d.decision_id] = d.to_dict()
        self.path.write_text(json.dumps(self.store))
        return d

    def ask(self, message: Message) -> Decision:
        text = message.text.lower()
        controller: str | None = None
        outcome = "fallback"
        candidates: list[str] = []
        if "vpn" in text or "down" in text:
            controller, outcome = "incident", "routed"
        elif "hmm" in text:
            outcome, candidates = "clarify", ["incident", "access"]
        d = Decision(
            decision_id=uuid.uuid4().hex[:12],
            text=message.text,
            user=message.user,
            channel=message.channel,
            thread=message.thread,
            controller=controller,
            supporting=[],
            confidence=0.9 if controller else 0.3,
            tier="fast",
            outcome=outcome,  # type: ignore[arg-type]
            escalate="down" in text,
            urgency="critical" if "down" in text else "low",
            intent={"intent": "x"},
            entities={"ticket_id": ["INC1"]} if "inc1" in text else {},
            signals={
                n: {
                    "keyword": 0.5,
                    "semantic": 0.4,
                    "knowledge": 0.1,
                    "session": 0.5,
                    "memory": 0.5,
                    "total": 0.4,
                }
                for n in NAMES
            },
            rationale="double",
            candidates=candidates,
            result={"summary": f"handled by {controller}"} if controller else None,
        )
        d.intent["history"] = list(message.history)
        return self._save(d)

    def get_decision(self, decision_id: str) -> Decision:
        if decision_id not in self.store:
            raise UnknownDecision(decision_id)
        return Decision.from_dict(self.store[decision_id])

    def feedback(
        self,
        decision_id: str,
        kind: str,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
    ) -> Decision:
        d = self.get_decision(decision_id)
        d.feedback.append({"kind": kind, "controller": controller, "user": user, "source": source})
        return self._save(d)

    def route_to(self, decision_id: str, controller: str, user: str) -> Decision:
        d = self.feedback(decision_id, "correct", controller, user, "route")
        d.controller, d.outcome = controller, "routed"
        d.result = {"summary": f"handled by {controller}"}
        return self._save(d)

    def last_decision(self, user: str, channel: str) -> Decision | None:
        for row in reversed(list(self.store.values())):
            if row["user"] == user and row["channel"] == channel:
                return Decision.from_dict(row)
        return None

    def explain(self, decision_id: str) -> dict[str, Any]:
        from brain.explain import explain_decision

        return explain_decision(self.get_decision(decision_id))
