"""The open controller set: built-ins, third-party entry points, YAML files, validation."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from cli import main
from controllers.base import Controller
from controllers.declarative import DeclarativeController
from controllers.registry import ControllerRegistry
from core.config import Settings

BUILTINS = ("ticket", "consultation", "alarm", "coding", "access", "incident", "change")
CJK = range(0x4E00, 0xA000)


def _has_chinese(values: tuple[str, ...] | list[str]) -> bool:
    return any(any(ord(ch) in CJK for ch in value) for value in values)


def test_the_seven_builtins_are_discovered_with_their_origin(registry: ControllerRegistry) -> None:
    assert set(BUILTINS) <= set(registry.names())
    for name in BUILTINS:
        controller = registry.get(name)
        assert isinstance(controller, Controller)
        assert controller.origin == "builtin"
        assert controller.label and controller.label != name
        assert len(controller.description) > 40
        assert 15 <= len(controller.keywords) <= 30
        assert 12 <= len(controller.examples) <= 25
        assert _has_chinese(list(controller.keywords)), name
        assert _has_chinese(list(controller.examples)), name
        assert any(not _has_chinese([e]) for e in controller.examples), name
    assert registry.warnings == []


def test_get_unknown_names_the_known_ones(registry: ControllerRegistry) -> None:
    with pytest.raises(KeyError, match=r"payroll.*known: .*ticket"):
        registry.get("payroll")


def test_version_is_stable_and_follows_examples(settings: Settings) -> None:
    first = ControllerRegistry.load(settings).version
    assert ControllerRegistry.load(settings).version == first
    registry = ControllerRegistry.load(settings)
    registry.add(
        DeclarativeController(name="payroll", description="Payslips and salary questions.")
    )
    assert registry.version != first
    other = ControllerRegistry.load(settings)
    other.add(
        DeclarativeController(
            name="payroll",
            description="Payslips and salary questions.",
            examples=("where is my payslip?",),
        )
    )
    assert other.version not in (first, registry.version)


def test_add_rejects_bad_names_duplicates_and_non_controllers(
    registry: ControllerRegistry,
) -> None:
    with pytest.raises(ValueError, match="lower_snake"):
        DeclarativeController(name="Pay Roll", description="x")
    with pytest.raises(ValueError, match="already taken by builtin"):
        registry.add(DeclarativeController(name="ticket", description="a second ticket desk"))
    with pytest.raises(ValueError, match="not a controller"):
        registry.add(object())  # type: ignore[arg-type]
    assert registry.names().count("ticket") == 1


THIRD_PARTY = """
from controllers.base import ControllerResult, DryRunResult


class PayrollController:
    name = "payroll"
    label = "Payroll desk"
    description = "Salary, payslips, tax forms and expense reimbursement questions."
    keywords = ("payslip", "salary", "工资", "报销")
    examples = ("where is my payslip for May?", "这个月工资怎么少了")
    required_entities = ()
    origin = "whatever the plugin says"

    def dry_run(self, context):
        return DryRunResult(ok=True, reason="payroll takes every salary question")

    def handle(self, context):
        return ControllerResult(ok=True, summary="payroll was asked: " + context.text)


class NotAController:
    name = "half"


class Exploding:
    def __init__(self):
        raise RuntimeError("cannot reach the payroll database")
"""


@pytest.fixture
def third_party(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An installed third-party distribution with one good and three broken entry points."""
    site = tmp_path / "site"
    (site / "acme_payroll").mkdir(parents=True)
    (site / "acme_payroll" / "__init__.py").write_text(THIRD_PARTY, encoding="utf-8")
    dist = site / "acme_payroll-1.2.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: acme-payroll\nVersion: 1.2.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        textwrap.dedent(
            """\
            [brain.controllers]
            payroll = acme_payroll:PayrollController
            half = acme_payroll:NotAController
            exploding = acme_payroll:Exploding
            missing = acme_payroll.nowhere:Gone
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(site))
    yield "acme-payroll"
    sys.modules.pop("acme_payroll", None)


def test_third_party_entry_point_is_found_and_broken_ones_are_skipped(
    settings: Settings, third_party: str, make_context: object
) -> None:
    registry = ControllerRegistry.load(settings)
    payroll = registry.get("payroll")
    assert payroll.origin == f"entry_point:{third_party}"
    assert set(BUILTINS) <= set(registry.names())
    assert registry.names()[: len(BUILTINS)] == sorted(BUILTINS)  # built-ins win collisions
    for broken in ("half", "exploding", "missing"):
        assert broken not in registry
    warnings = "\n".join(registry.warnings)
    assert "'half'" in warnings and "not a controller" in warnings
    assert "'exploding'" in warnings and "cannot reach the payroll database" in warnings
    assert "'missing'" in warnings and "ModuleNotFoundError" in warnings


def test_third_party_controller_is_listed_by_the_cli(
    third_party: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["controllers", "--json"]) == 0
    captured = capsys.readouterr()
    rows = {row["name"]: row for row in json.loads(captured.out)}
    assert rows["payroll"]["origin"] == "entry_point:acme-payroll"
    assert rows["ticket"]["origin"] == "builtin"
    assert "exploding" in captured.err
