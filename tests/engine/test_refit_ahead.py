"""A changed controller set is fitted ahead of the next message: an approval returns at once
and the routing model for the new set is fitted on a thread of its own (in a running brain)
or by the approving command (`brain controllers approve`), so the next message does not wait
for the fit (40-50 s at a desk's size)."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.engine import Brain
from cli import main
from tests.evolved_specs import write_pending

#: Waiting on the refit thread; a bound only so a broken refit fails the test.
REFIT_BOUND_S = 1800


@pytest.mark.slow
def test_an_approval_in_a_running_brain_fits_the_new_set_without_a_message(home: Path) -> None:
    with Brain.open() as brain:
        assert brain.semantic_model is not None  # fitted for the set before the approval
        name = write_pending(home)
        brain.evolution.approve(name, by="admin1")
        assert brain.parts.refit_done(REFIT_BOUND_S)
        fitted = brain.parts.semantic_if_current()
        assert fitted is not None and name in fitted.names


@pytest.mark.slow
def test_the_first_ask_after_brain_controllers_approve_does_not_fit(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = write_pending(home)
    assert main(["controllers", "approve", name, "--user", "admin1"]) == 0
    capsys.readouterr()
    assert main(["ask", "the toner is empty on the 4th floor printer", "--json"]) == 0
    assert "fitting the routing model" not in capsys.readouterr().err
