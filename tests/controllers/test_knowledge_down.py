"""A knowledge base that fails (e.g. the Qdrant server is down) degrades answers, never crashes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controllers.base import ControllerContext, ControllerResult, ControllerServices, DryRunResult
from controllers.registry import ControllerRegistry

ContextFactory = Callable[..., ControllerContext]


class UnreachableKnowledge:
    """Every call fails the way a lost Qdrant connection does."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("qdrant at 127.0.0.1:6333 refused the connection")

        return fail


def test_every_builtin_survives_a_failing_knowledge_base(
    registry: ControllerRegistry, make_context: ContextFactory, services: ControllerServices
) -> None:
    down = ControllerServices(knowledge=UnreachableKnowledge(), tickets=services.tickets)  # type: ignore[arg-type]
    for text in (
        "what is the password policy?",
        "[FIRING:1] HighErrorRate service=payments",
        "status of INC0012345",
        "write a SQL query for fund totals",
        "I need read access to Grafana",
        "VPN error 691",
        "deploy payments-api tonight 22:00",
    ):
        context = make_context(text, services=down)
        for controller in registry.all():
            checked = controller.dry_run(context)
            assert isinstance(checked, DryRunResult), (controller.name, text)
            assert checked.ok or checked.reason.strip(), (controller.name, text)
            answer = controller.handle(context)
            assert isinstance(answer, ControllerResult), (controller.name, text)
            assert answer.summary.strip(), (controller.name, text)  # says something, always
            assert "Traceback" not in answer.summary + answer.details
    consultation = registry.get("consultation")
    context = make_context("what is the password policy?", services=down)
    assert consultation.dry_run(context).reason == "knowledge base error: ConnectionError"
    answer = consultation.handle(context)
    assert not answer.ok and "not available right now" in answer.summary
    alarm = registry.get("alarm").handle(
        make_context("[FIRING:1] HighErrorRate service=payments", services=down)
    )
    assert alarm.ok and alarm.data["steps"]  # generic first checks without the runbook
