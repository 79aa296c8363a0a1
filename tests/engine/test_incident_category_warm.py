"""The incident category model is fitted in-process from its examples
(`controllers.incident_categories`); a warm brain has fitted it, so the first incident that
needs it does not wait for the fit."""

from __future__ import annotations

from brain.engine import Brain


def test_a_warm_brain_has_fitted_the_incident_category_model(brain: Brain) -> None:
    brain.warm()
    assert brain.opened_parts()["incident category model"] is True
