"""The chain names roles, not controllers: a company that renames or replaces the
built-in pack keeps its routing, because the look-up of an existing record and the answering of
questions go to whichever controller declares that role (or the one the config names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.engine import Brain
from controllers.builtin.base import BuiltinController
from controllers.registry import ControllerRegistry
from controllers.roles import ANSWERS, OUTAGES, RECORDS, role_holders
from core.config import load_settings
from core.records import Message


def _renamed(controller: BuiltinController, prefix: str) -> BuiltinController:
    """The same built-in controller under another name (its catalog entry read as its own)."""
    controller.name = f"{prefix}{controller.name}"
    return controller


def _pack(prefix: str) -> ControllerRegistry:
    builtins = ControllerRegistry.load(yaml_files=False).all()
    return ControllerRegistry([_renamed(c, prefix) for c in builtins])  # type: ignore[arg-type]


def test_the_built_in_pack_declares_the_chains_roles() -> None:
    holders = role_holders(ControllerRegistry.load(yaml_files=False).all())
    assert holders == {RECORDS: "ticket", ANSWERS: "consultation", OUTAGES: "incident"}


def test_a_configured_holder_wins_and_an_unregistered_one_is_ignored() -> None:
    pack = ControllerRegistry.load(yaml_files=False).all()
    assert role_holders(pack, {RECORDS: "change"})[RECORDS] == "change"
    assert role_holders(pack, {RECORDS: "no_such_desk"})[RECORDS] == "ticket"


@pytest.mark.usefixtures("home")
def test_a_renamed_pack_still_looks_up_a_named_record() -> None:
    """A status question about a named change reads like a change request; it is a look-up by
    whichever controller holds the records role, here the renamed ticket desk."""
    with Brain.open(settings=load_settings(), registry=_pack("acme_")) as brain:
        decision = brain.ask(
            Message(text="status of release change CHG-12345", user="u1", channel="C1")
        )
    assert decision.controller == "acme_ticket"
    assert any("look-up" in step and "acme_ticket" in step for step in decision.tier_path)
    assert decision.result is not None and "CHG-12345 was not found" in decision.result.summary


def test_a_named_record_is_looked_up_below_the_fast_threshold(home: Path) -> None:
    """Below the fast threshold the renamed change controller's dry-run runs and fails (no
    service): the status question about the change it names is still a look-up, not a turn
    of the dynamic tier (it was one whenever the calibration put it under the threshold)."""
    (home / "brain.toml").write_text("[routing]\nfast_threshold = 0.999\n", encoding="utf-8")
    with Brain.open(settings=load_settings(), registry=_pack("acme_")) as brain:
        decision = brain.ask(
            Message(text="status of release change CHG-12345", user="u1", channel="C1")
        )
    assert decision.tier != "fast"
    assert decision.controller == "acme_ticket", decision.tier_path
    assert any("look-up" in step and "acme_ticket" in step for step in decision.tier_path)
    assert decision.result is not None and "CHG-12345 was not found" in decision.result.summary
