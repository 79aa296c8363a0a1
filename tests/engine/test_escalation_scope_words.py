"""Scope words outside an incident page no one, through `brain ask --json`: a question of
general knowledge ("how many people live in china"), a statistic about a company, a person's
own life ("everyone in my family has the flu") and office chit-chat carry the words a
company-wide failure is named by, and each paged on-call at P1 (p 0.73-1.00) before the
thirteenth round of escalation rows. A live company-wide failure worded with the same scope
word still pages. None of the wordings is an escalation training row."""

from __future__ import annotations

import json

import pytest

from brain.escalation.model import labelled_rows
from cli import main

#: Must not page: (wording, the scope word it shares with its live twin below).
TALK = {
    "population_en": "how many people live in china",
    "headcount_en": "how many employees does google have",
    "family_en": "everyone in my family has the flu",
    "colleagues_zh": "我们公司很多人都喜欢打羽毛球",
}
#: Must page: a live company-wide failure with the same scope word.
LIVE = {
    "population_en": "how many people can't log in? all of them, email is down for the whole "
    "company",
    "headcount_en": "how many employees can't work right now? every one of them, the VPN is "
    "down for all staff",
    "family_en": "everyone in the company is locked out of email right now, nothing sends",
    "colleagues_zh": "公司很多人现在都登录不了邮箱，全公司收发都不行",
}


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_wordings_are_not_training_rows() -> None:
    known = {str(r["text"]) for r in labelled_rows(None)}
    assert not known & {*TALK.values(), *LIVE.values()}


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("name", list(TALK))
def test_scope_words_in_trivia_and_small_talk_do_not_page_but_a_live_outage_does(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    quiet = _ask(capsys, TALK[name])
    paged = _ask(capsys, LIVE[name])

    assert quiet["escalate"] is False, quiet["escalation"]["evidence"]
    assert quiet["escalation"]["priority"] != "P1"
    assert quiet["urgency"] != "critical"
    assert paged["escalate"] is True, paged["escalation"]["evidence"]
    assert paged["escalation"]["priority"] == "P1"
