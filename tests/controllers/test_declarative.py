"""Declarative controllers: dry-run on required entities, and each handler kind doing real work."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from controllers.base import ControllerContext, ControllerServices
from controllers.declarative import DeclarativeController
from controllers.registry import ControllerRegistry
from controllers.services import build_services
from core.config import Settings, load_settings

if TYPE_CHECKING:
    from tests.controllers.conftest import Endpoint

ContextFactory = Callable[..., ControllerContext]


def _webhook(url: str, **options: object) -> DeclarativeController:
    return DeclarativeController(
        name="payroll",
        label="Payroll desk",
        description="Salary and payslip questions, forwarded to the payroll system.",
        keywords=("payslip", "工资"),
        examples=("where is my payslip?",),
        required_entities=("email",),
        handler="webhook",
        options={"url": url, **options},
        origin="test",
    )


def test_dry_run_checks_required_entities_and_parameters(
    endpoint: Endpoint, make_context: ContextFactory
) -> None:
    # A live endpoint: the dry-run also checks that the webhook is reachable (no request sent).
    controller = _webhook(endpoint.url)
    dry = controller.dry_run(make_context("where is my payslip?"))
    assert (dry.ok, dry.missing) == (False, ["email"])
    with_entity = make_context(
        "payslip for li.wei@corp.com", entities={"email": ["li.wei@corp.com"]}
    )
    assert controller.dry_run(with_entity).ok
    answered = make_context("where is my payslip?", parameters={"email": "li.wei@corp.com"})
    assert controller.dry_run(answered).ok
    assert endpoint.requests == []


def test_webhook_posts_the_context_as_json(
    endpoint: Endpoint, make_context: ContextFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint.reply = {"summary": "Payslip for May re-sent to li.wei@corp.com"}
    monkeypatch.setenv("PAYROLL_TOKEN", "s3cret-token")
    monkeypatch.setenv("BRAIN_WEBHOOK_HEADER_ENV", "PAYROLL_TOKEN")  # the admin's allow-list
    controller = _webhook(
        endpoint.url, headers={"X-Team": "payroll", "Authorization": "Bearer ${PAYROLL_TOKEN}"}
    )
    context = make_context(
        "please resend my May payslip",
        entities={"email": ["li.wei@corp.com"]},
        thread="1717400000.000100",
        services=build_services(load_settings()),
    )
    assert controller.dry_run(context).ok and endpoint.requests == []  # dry-run sends nothing
    result = controller.handle(context)
    assert result.ok
    assert result.summary == "Payslip for May re-sent to li.wei@corp.com"
    assert result.data["status_code"] == 200
    [request] = endpoint.requests
    assert request["path"] == "/hook"
    assert request["headers"]["X-Team"] == "payroll"
    assert request["headers"]["Authorization"] == "Bearer s3cret-token"
    assert "/hook" not in result.data["url"] and "s3cret" not in str(result.to_dict())
    body = request["json"]
    assert body["controller"] == "payroll"
    assert body["text"] == "please resend my May payslip"
    assert body["entities"] == {"email": ["li.wei@corp.com"]}
    assert body["thread"] == "1717400000.000100" and body["decision_id"] == "dec-test"


def test_webhook_error_status_is_a_failed_result(
    endpoint: Endpoint, make_context: ContextFactory
) -> None:
    endpoint.status = 503
    result = _webhook(endpoint.url).handle(make_context("x", parameters={"email": "a@b.c"}))
    assert not result.ok and "HTTP 503" in result.summary


def test_webhook_survives_a_dead_endpoint(make_context: ContextFactory) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # nothing listens on that port any more
    result = _webhook(f"http://127.0.0.1:{port}/hook").handle(
        make_context("resend payslip", parameters={"email": "a@b.c"})
    )
    assert not result.ok
    assert "could not be reached" in result.summary
    assert result.data["error"]


def test_webhook_times_out(endpoint: Endpoint, make_context: ContextFactory) -> None:
    endpoint.delay_s = 1.0
    result = _webhook(endpoint.url, timeout_s=0.2).handle(
        make_context("resend payslip", parameters={"email": "a@b.c"})
    )
    assert not result.ok and "did not answer within 0.2 s" in result.summary


def test_local_ticket_handler_files_a_typed_request(
    make_context: ContextFactory, services: ControllerServices
) -> None:
    controller = DeclarativeController(
        name="facilities",
        description="Desks, chairs, badges and meeting rooms.",
        required_entities=("room",),
        handler="local_ticket",
        options={"ticket_type": "incident"},
    )
    missing = controller.handle(make_context("the aircon is broken"))
    assert not missing.ok and missing.missing == ["room"]
    assert services.tickets is not None and services.tickets.all() == []
    result = controller.handle(make_context("the aircon is broken", parameters={"room": "5B"}))
    assert result.ok and result.data["ticket"]["id"].startswith("INC-")
    assert services.tickets.find(result.data["ticket"]["id"]).fields["room"] == "5B"


def test_knowledge_answer_without_a_knowledge_base(make_context: ContextFactory) -> None:
    controller = DeclarativeController(
        name="travel", description="Business travel policy.", handler="knowledge_answer"
    )
    context = make_context("can I fly business class to Tokyo?")
    assert "no knowledge base" in controller.dry_run(context).reason
    assert not controller.handle(context).ok


def test_none_handler_only_acknowledges(make_context: ContextFactory) -> None:
    controller = DeclarativeController(name="canteen", description="Canteen menus.")
    result = controller.handle(make_context("what's for lunch?"))
    assert result.ok and "no automatic action" in result.summary
    assert controller.label == "Canteen"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "ok_name", "description": "d", "handler": "fax"}, "handler must be one of"),
        ({"name": "ok_name", "description": "d", "handler": "webhook"}, "needs options.url"),
        (
            {"name": "ok_name", "description": "d", "handler": "local_ticket",
             "options": {"ticket_type": "fax"}},
            "ticket_type must be one of",
        ),
        ({"name": "9lives", "description": "d"}, "lower_snake"),
        (
            {"name": "hook", "description": "d", "handler": "webhook",
             "options": {"url": "http://127.0.0.1:1/x", "timeout_s": "soon"}},
            "timeout_s must be a number",
        ),
        (
            {"name": "hook", "description": "d", "handler": "webhook",
             "options": {"url": "http://127.0.0.1:1/x", "headers": ["X-A: b"]}},
            "headers must map",
        ),
    ],
)  # fmt: skip
def test_invalid_declarations_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DeclarativeController(**kwargs)  # type: ignore[arg-type]


def test_yaml_webhook_controller_posts_end_to_end(
    settings: Settings, endpoint: Endpoint, make_context: ContextFactory, isolated_env: Path
) -> None:
    folder = isolated_env / "controllers"
    folder.mkdir(parents=True)
    (folder / "pager.yaml").write_text(
        f"name: pager\ndescription: Pages the database on-call.\nhandler: webhook\n"
        f"options: {{url: '{endpoint.url}', timeout_s: 2}}\n",
        encoding="utf-8",
    )
    pager = ControllerRegistry.load(settings).get("pager")
    assert pager.handle(make_context("page the DBA, replication is broken")).ok
    assert endpoint.requests[0]["json"]["controller"] == "pager"
