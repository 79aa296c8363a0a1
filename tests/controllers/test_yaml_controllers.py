"""Declarative YAML controllers dropped into BRAIN_HOME/controllers become routable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main
from controllers.base import label_in
from controllers.registry import ControllerRegistry
from core.config import Settings

PAYROLL = """\
name: payroll
label: Payroll desk
description: Salary, payslips, tax forms and expense reimbursements.
keywords: [payroll, payslip, salary, 工资, 报销]
examples:
  - "Where is my payslip for May?"
  - 报销什么时候到账
required_entities: [email]
handler: local_ticket
options: {ticket_type: access}
"""

#: A controller whose options hold 10^5 strings once its nested aliases are expanded.
ALIAS_BOMB = (
    "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 10)}]\n" for n in range(1, 5))
    + "name: pager\ndescription: paging\noptions: {payload: *l4}\n"
)


def _write(home: Path, name: str, text: str) -> Path:
    folder = home / "controllers"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_yaml_controller_appears_in_brain_controllers_json(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(isolated_env, "payroll.yaml", PAYROLL)
    assert main(["controllers", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["payroll"]["origin"] == f"yaml:{path}"
    assert rows["payroll"]["label"] == "Payroll desk"
    assert rows["payroll"]["required_entities"] == ["email"]
    assert rows["payroll"]["keywords"] == 5
    assert {"ticket", "incident", "change"} <= set(rows)


def test_plain_listing_names_origin_and_counts(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(isolated_env, "payroll.yml", PAYROLL)
    assert main(["controllers"]) == 0
    out = capsys.readouterr().out
    assert "payroll  (Payroll desk)  origin: yaml:" in out
    assert "ticket  (Ticket desk)  origin: builtin" in out
    assert "8 controllers" in out


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("name: [unclosed\n", "invalid YAML"),
        (
            "name: Bad-Name\ndescription: x\n",
            "name: controller name 'Bad-Name' must be lower_snake",
        ),
        ("name: pager\ndescription: paging\nhandler: fax\n", "handler: must be one of"),
        ("name: pager\ndescription: paging\nhandler: webhook\n", "needs options.url"),
        ("name: pager\n", "description: Field required"),
        ("name: pager\ndescription: p\ncolour: red\n", "colour: Extra inputs are not permitted"),
        ("- just a string\n", "expected a mapping"),
        ("", "expected a mapping"),
        (ALIAS_BOMB, "refused YAML: its aliases expand to more than 100,000 extra values"),
        ("name: pager\ndescription: " + "[" * 100 + "]" * 100, "refused YAML: nested deeper"),
    ],
)
def test_bad_yaml_is_skipped_with_a_clear_warning_and_others_still_load(
    isolated_env: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str
) -> None:
    bad = _write(isolated_env, "a_bad.yaml", content)
    _write(isolated_env, "payroll.yaml", PAYROLL)
    assert main(["controllers", "--json"]) == 0
    captured = capsys.readouterr()
    names = [row["name"] for row in json.loads(captured.out)]
    assert "payroll" in names and "ticket" in names
    assert f"skipped controller file {bad}" in captured.err
    assert reason in captured.err


def test_name_collision_first_wins_with_a_warning(settings: Settings) -> None:
    _write(settings.home, "a.yaml", PAYROLL)
    _write(settings.home, "b.yaml", PAYROLL.replace("Payroll desk", "Second payroll"))
    _write(settings.home, "c.yaml", PAYROLL.replace("name: payroll", "name: ticket"))
    registry = ControllerRegistry.load(settings)
    assert registry.get("payroll").label == "Payroll desk"
    assert registry.get("ticket").origin == "builtin"
    warnings = "\n".join(registry.warnings)
    assert "'payroll'" in warnings and "already taken by yaml:" in warnings
    assert "'ticket'" in warnings and "already taken by builtin" in warnings


def test_one_file_may_hold_several_controllers(settings: Settings) -> None:
    _write(
        settings.home,
        "pack.yaml",
        "- {name: canteen, description: Menus and canteen opening hours.}\n"
        "- {name: travel, description: Business travel booking., handler: knowledge_answer}\n",
    )
    registry = ControllerRegistry.load(settings)
    assert {"canteen", "travel"} <= set(registry.names())
    assert registry.get("travel").origin.endswith("pack.yaml")


def test_a_large_file_without_aliases_is_not_mistaken_for_a_bomb(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    examples = ", ".join(["e"] * 110_000)  # > 100,000 values, no alias, under 1 MB
    _write(isolated_env, "big.yaml", f"name: big\ndescription: many\nexamples: [{examples}]\n")
    assert main(["controllers", "--json"]) == 0
    captured = capsys.readouterr()
    assert "big" in [row["name"] for row in json.loads(captured.out)]
    assert "skipped" not in captured.err


def test_an_evolved_controller_keeps_its_labels_like_a_yaml_one(settings: Settings) -> None:
    """Evolved files are YAML controllers plus a plan: built by the same loader code, so a
    label in another language is shown to askers in that language (it was dropped before)."""
    folder = settings.home / "evolved"
    folder.mkdir(parents=True)
    (folder / "room_booking.yaml").write_text(
        "name: room_booking\nlabel: Room booking\nlabels: {zh: 会议室预订}\n"
        "description: Book meeting rooms.\nkeywords: [room]\nstatus: active\n"
        "plan: {controller: ticket}\n",
        encoding="utf-8",
    )
    _write(
        settings.home, "payroll.yaml", PAYROLL.replace("label: Payroll desk", "labels: {zh: 工资}")
    )
    registry = ControllerRegistry.load(settings)
    evolved, declared = registry.get("room_booking"), registry.get("payroll")
    assert evolved.origin == "evolved" and evolved.replays == {"controller": "ticket"}
    assert (label_in(evolved, "zh"), label_in(evolved, "en")) == ("会议室预订", "Room booking")
    assert label_in(declared, "zh") == "工资"
