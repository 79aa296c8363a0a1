"""`brain why`: everything behind a decision as a dict, and as text for the CLI and Slack."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.records import Decision


@dataclass(frozen=True, slots=True)
class Explanation:
    """Everything behind one stored decision: the typed answer of `Brain.explain`, shown as
    JSON (`brain why --json`, `to_dict`) or as text (`brain why`, `/brain-why`, `text`)."""

    decision: Decision
    #: The signals' weights the home routes with, and how they were chosen (learned from its
    #: labelled history, or configured): `brain why` reads them from the home.
    weights: Mapping[str, float] | None = None
    weights_source: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready explanation (the `brain why --json` contract)."""
        data = explain_decision(self.decision)
        if self.weights is not None:
            data["weights"] = dict(self.weights)
            data["weights_source"] = self.weights_source
        return data

    def text(self) -> str:
        """The readable multi-line explanation."""
        return render_text(self.to_dict())


def explain_decision(decision: Decision) -> dict[str, Any]:
    """The explanation of one stored decision (JSON-ready)."""
    data = decision.to_dict()
    signals = data.get("signals", {})
    ordered = sorted(signals.items(), key=lambda item: -float(item[1].get("total", 0.0)))
    return {
        "decision_id": decision.decision_id,
        "text": decision.text,
        "user": decision.user,
        "channel": decision.channel,
        "thread": decision.thread,
        "created_at": decision.created_at,
        "controller": decision.controller,
        "supporting": decision.supporting,
        "composition": decision.composition,
        "confidence": decision.confidence,
        "tier": decision.tier,
        "outcome": decision.outcome,
        "escalate": decision.escalate,
        "urgency": decision.urgency,
        "intent": decision.intent.to_dict(),
        "request_type": decision.request_type,
        "entities": decision.entities,
        "rationale": decision.rationale,
        "clarification": decision.clarification,
        "follow_up": decision.follow_up,
        "escalation": decision.escalation.to_dict() if decision.escalation else None,
        "candidates": decision.candidates,
        "signals": dict(ordered),
        "tier_path": decision.tier_path,
        "dry_runs": data.get("dry_runs", []),
        "feedback": [item.to_dict() for item in decision.feedback],
        "memory_influences": decision.memory_influences,
        "retrieval": data.get("retrieval", []),
        "llm_status": decision.llm_status,
        "llm_calls": decision.llm_calls,
        "latency_ms": decision.latency_ms,
        "result": decision.result.to_dict() if decision.result else None,
        "dcr_rounds": (
            decision.dcr.summaries()
            if decision.dcr is not None
            else (decision.result.dcr_rounds if decision.result else [])
        ),
        # Only when set, as stored: a decision no rule changed keeps its explanation's shape.
        **{key: data[key] for key in ("plan", "dcr", "plan_rules") if key in data},
    }


def signal_names(signals: Mapping[str, Mapping[str, float]]) -> list[str]:
    """The signals a stored decision was scored with, in the registry's order of the time
    (every key of a controller's row but the total and the confidence)."""
    names: dict[str, None] = {}
    for row in signals.values():
        names.update((k, None) for k in row if k not in ("total", "confidence"))
    return list(names)


def _fmt(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _dynamic_lines(data: dict[str, Any]) -> list[str]:
    """The plan (topology, I/O contract) and the Draft-Critique-Refine trace."""
    lines: list[str] = []
    plan = data.get("plan")
    if plan:
        steps = ", ".join(f"{s['controller']} ({s['role']})" for s in plan.get("steps", []))
        lines.append(f"Plan: {plan.get('topology')} from {plan.get('source')}: {steps or 'hook'}")
        for binding in plan.get("contract") or []:
            lines.append(
                f"  contract: {binding['source']}.{binding['output']} -> "
                f"{binding['target']}.{binding['input']}"
            )
    for number, round_ in enumerate(data.get("dcr_rounds") or [], start=1):
        lines.append(f"DCR round {number}: {round_}")
    dcr = data.get("dcr") or {}
    for rung in dcr.get("ladder") or []:
        lines.append(f"Fallback ladder: {rung}")
    if dcr:
        usage = dcr.get("llm") or {}
        lines.append(
            f"Dynamic result: {dcr.get('result')}"
            + (f"; next steps: {'; '.join(dcr['next_steps'])}" if dcr.get("next_steps") else "")
            + (
                f"; LLM {usage.get('calls', 0)} calls, {usage.get('input_tokens', 0)}+"
                f"{usage.get('output_tokens', 0)} tokens, ${usage.get('cost_usd', 0.0):.5f}"
                if usage.get("calls")
                else ""
            )
        )
    result = data.get("result") or {}
    for part in result.get("parts") or []:
        lines.append(f"Part {part['controller']} ({part['role']}): {part.get('summary', '')[:200]}")
    return lines


def render_text(data: dict[str, Any]) -> str:
    """A readable multi-line explanation (used by `brain why` and the bot's /brain-why)."""
    who = data.get("controller") or "no controller"
    lines = [
        f"Decision {data.get('decision_id')} ({data.get('created_at', '')})",
        f"Message: {data.get('text', '')[:300]}",
        f"Outcome: {data.get('outcome')} -> {who}"
        + (f" + {', '.join(data['supporting'])}" if data.get("supporting") else "")
        + (f" ({data['composition']})" if data.get("composition") else ""),
        f"Confidence: {_fmt(float(data.get('confidence', 0.0)))}  tier: {data.get('tier')}"
        f"  urgency: {data.get('urgency')}  escalate: {'yes' if data.get('escalate') else 'no'}",
    ]
    intent = data.get("intent") or {}
    if intent:
        lines.append(
            f"Intent: {intent.get('intent')} ({_fmt(float(intent.get('confidence', 0.0)))})"
        )
    if data.get("request_type"):
        # What the message asks for (question, problem, work, ...): it decides whether a
        # controller answers or files, so a reader of a wrong filing sees what it was read as.
        lines.append(f"Asks for: {data['request_type']}")
    if data.get("entities"):
        pairs = "; ".join(f"{k}: {', '.join(v)}" for k, v in data["entities"].items())
        lines.append(f"Entities: {pairs}")
    lines.append(f"Why: {data.get('rationale', '')}")
    if data.get("clarification"):
        lines.append(f"Asked: {data['clarification']}")
    if data.get("follow_up"):
        lines.append(f"Asked after routing: {data['follow_up']}")
    escalation = data.get("escalation") or {}
    if escalation.get("evidence"):
        verdict = escalation.get("reason") or "not escalated"
        lines.append(f"Escalation: {verdict}; evidence: {'; '.join(escalation['evidence'])}")
    signals = data.get("signals") or {}
    if signals:
        columns = [*signal_names(signals), "total"]
        lines.append("Signals (raw 0..1 per controller; total is weighted, confidence calibrated):")
        if data.get("weights"):
            weighed = ", ".join(f"{k} {float(v):.2f}" for k, v in data["weights"].items())
            lines.append(f"  weights: {weighed} ({data.get('weights_source') or 'configured'})")
        header = f"  {'controller':<16}" + "".join(f"{s:>10}" for s in columns)
        lines.append(header + f"{'conf':>8}")
        for name, row in signals.items():
            cells = "".join(f"{float(row.get(s, 0.0)):>10.2f}" for s in columns)
            conf = row.get("confidence")
            lines.append(
                f"  {name:<16}{cells}" + (f"{float(conf):>8.2f}" if conf is not None else "")
            )
    if data.get("tier_path"):
        lines.append("Path: " + " -> ".join(data["tier_path"]))
    if data.get("plan_rules"):
        # The rules that overruled the tiers' plan: what decided, where the signals above
        # would have gone elsewhere.
        lines.append("Decided by plan rules: " + ", ".join(data["plan_rules"]))
    for run in data.get("dry_runs") or []:
        verdict = "passed" if run.get("ok") else "failed"
        missing = f"; missing {', '.join(run['missing'])}" if run.get("missing") else ""
        lines.append(f"Dry-run {run.get('controller')}: {verdict} {run.get('reason', '')}{missing}")
    lines.extend(_dynamic_lines(data))
    if data.get("memory_influences"):
        lines.append("Memory:")
        lines.extend(f"  - {note}" for note in data["memory_influences"])
    feedback = data.get("feedback") or []
    if feedback:
        lines.append("Feedback:")
        for item in feedback:
            target = f" -> {item['controller']}" if item.get("controller") else ""
            because = f" because: {item['reason']}" if item.get("reason") else ""
            lines.append(
                f"  - {item.get('kind')}{target} by {item.get('user')} via {item.get('source')}"
                f" at {item.get('at')}{because}"
            )
    else:
        lines.append("Feedback: none yet")
    lines.append(f"LLM: {data.get('llm_status')} ({data.get('llm_calls', 0)} calls)")
    result = data.get("result")
    if result:
        lines.append(f"Result: {result.get('summary', '')}")
    return "\n".join(lines)
