"""Ordinary desk chat pages no one; the live event on the same topic still does (brain API).

A Chinese password e-mail or link that did not arrive ("重置密码的链接一直没发到我邮箱") was
paged at P1 as an exposed secret: the taxonomy's "a password sent to ..." pattern read "没发到"
(not sent to) as "发到" (sent to). The negated verb no longer reports an event; a password
that was sent out still does. The wordings are no escalation training row nor near one
(character 3-gram overlap under the bar the training set's builder drops rows at)."""

from __future__ import annotations

import re

import pytest

from brain.engine import Brain
from brain.escalation.model import labelled_rows
from core.records import Message

#: Must not page: one person's request, question or trouble, no one else affected.
QUIET = {
    "reset_link_zh": "重置密码的链接一直没发到我邮箱",
    "initial_password_zh": "新同事的初始密码还没有发到他的邮箱，能再发一次吗",
}
#: Must page: the live event on the same topic.
LIVE = {
    "password_posted_zh": "有人刚把生产库的密码发到了外部的供应商群里",
    "password_pasted_en": "I just pasted the admin password of the prod database into the "
    "public vendor channel",
}
#: The bar at which `scripts/build_escalation_set.py` calls a row near a held-out one.
NEAR = 0.5


def _grams(text: str) -> set[str]:
    folded = re.sub(r"\s+", " ", text.lower())
    return {folded[i : i + 3] for i in range(max(1, len(folded) - 2))}


def test_the_wordings_are_not_near_any_training_row() -> None:
    rows = [_grams(str(r["text"])) for r in labelled_rows("train")]
    for text in [*QUIET.values(), *LIVE.values()]:
        mine = _grams(text)
        nearest = max(len(mine & g) / len(mine | g) for g in rows)
        assert nearest < NEAR, text


@pytest.mark.parametrize(
    ("text", "pages"),
    [pytest.param(t, False, id=f"quiet_{n}") for n, t in QUIET.items()]
    + [pytest.param(t, True, id=f"live_{n}") for n, t in LIVE.items()],
)
def test_desk_chat_pages_no_one_and_its_live_twin_pages(
    brain: Brain, text: str, pages: bool
) -> None:
    """One person's request, question or trouble: no page, not P1. The live event on the
    same topic: P1 and paged."""
    decision = brain.decide(Message(text, "U1", "C1"))
    record = decision.escalation

    assert record is not None
    assert decision.escalate is pages, record.evidence
    assert (record.priority == "P1") is pages
