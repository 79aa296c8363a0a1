"""Three people's own wordings of one request are rarely alike to one another (within LINK), yet
online they move a fourth person's message together through their controller's class example
set (`brain.memory.org_classes`). The refit's training rows are held to the same agreement:
before, such corrections were no group of the organisation and the refit learned nothing from
them. One person's corrections, however many and however alike, remain one voice. Through the
`brain` command line, each step a process of its own."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from tests.cli_calls import brain_call

Capsys = pytest.CaptureFixture[str]

#: Three DNS requests in words not alike to one another, which the brain sends elsewhere.
WORDINGS = [
    "please add a TXT record to verify our domain for the new email vendor",
    "the hostname wiki.corp.example should resolve to the new load balancer",
    "can you create a subdomain shop.example.com for the online store",
]

_ASKED = itertools.count()


def _correct(capsys: Capsys, user: str, text: str, controller: str) -> None:
    channel = f"C-{user}-{next(_ASKED)}"
    decision: dict[str, Any] = json.loads(
        brain_call(capsys, "ask", "--json", text, "--user", user, "--channel", channel)
    )
    assert decision["controller"] != controller  # the mistake the user corrects
    brain_call(capsys, "feedback", decision["decision_id"], "--correct", controller, "--user", user)


def _rows(capsys: Capsys) -> set[tuple[str, str, tuple[str, ...]]]:
    org = json.loads(brain_call(capsys, "memory", "show", "--org", "--json"))
    return {(row["text"], row["controller"], tuple(row["users"])) for row in org["rows"]}


@pytest.mark.usefixtures("home")
def test_three_people_whose_wordings_differ_teach_the_refit(capsys: Capsys) -> None:
    for user, text in zip(("U1", "U2", "U3"), WORDINGS, strict=True):
        _correct(capsys, user, text, "change")

    assert _rows(capsys) == {(text, "change", ("U1", "U2", "U3")) for text in WORDINGS}


@pytest.mark.usefixtures("home")
def test_one_persons_corrections_teach_the_refit_nothing(capsys: Capsys) -> None:
    for text in WORDINGS:
        _correct(capsys, "U1", text, "change")

    assert _rows(capsys) == set()
