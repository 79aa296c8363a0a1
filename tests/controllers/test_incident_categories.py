"""An incident whose message uses no cue word gets its category from the learned model, when
the model is sure enough; a message that says nothing of the kind of problem is asked about."""

from __future__ import annotations

import pytest

from controllers.builtin.incident import IncidentController
from controllers.incident_categories import MIN_PRECISION, fit
from tests.controllers.conftest import ContextFactory


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Tableau dashboards won't load for anyone on my team", "software"),
        ("Looker reports are taking ages today", "software"),
        ("the time tracking site throws an error when I save", "software"),
        ("报表系统今天特别慢", "software"),
        ("someone phoned pretending to be from IT and I read them my code", "security"),
    ],
)
def test_a_problem_named_by_no_cue_word_gets_its_category(
    make_context: ContextFactory, text: str, category: str
) -> None:
    incident = IncidentController()
    assert incident.fields(make_context(text))["category"] == category
    assert incident.dry_run(make_context(text)).ok  # filed without asking for a category


@pytest.mark.parametrize("text", ["it broke again, no idea why", "还是不行"])
def test_a_message_that_names_no_kind_of_problem_is_asked_about(
    make_context: ContextFactory, text: str
) -> None:
    dry = IncidentController().dry_run(make_context(text))
    assert (dry.ok, dry.missing) == (False, ["category"])


def test_the_bar_is_where_the_named_categories_were_right_out_of_fold() -> None:
    model = fit()
    assert model is not None
    assert model.precision >= MIN_PRECISION
    assert model.coverage > 0.5  # it names a category for most examples, not a handful


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Teams keeps freezing when I share my screen", "software"),
        ("my laptop was stolen from the car", "security"),
        ("the screen of my laptop is cracked and keeps freezing", "hardware"),
    ],
)
def test_cue_words_of_several_kinds_are_told_apart_by_the_model(
    make_context: ContextFactory, text: str, category: str
) -> None:
    """A message with cue words of two kinds gets the one the learned model finds likelier
    of them ("screen" named a program that freezes as hardware, with blue-screen guidance); a
    security cue is never outvoted (it pages)."""
    assert IncidentController().fields(make_context(text))["category"] == category
