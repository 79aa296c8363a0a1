"""Live company-wide losses the service-desk matrix misread, through `brain ask --json`.

A loss that names what it followed pages:
"since the maintenance window" or "after the new password policy" names the loss's cause,
not a planned-work notice or a policy question, so the `not_live` cues ("maintenance window",
"policy", "维护窗口", "制度") no longer veto it. Before, every such loss was vetoed as no live
event whatever the model read. Drills, post-mortems, planned-work notices and policy
questions with the same words still page no one.

A failure for every employee is read as company-wide: "every employee", "all of us", "every
one of us", "every single person", "每个员工" and "所有同事" were not scope words of the
matrix, so "every employee has lost access to X" was read as one person's problem and paged
only if the model alone was sure. The same words in office life and a person's own life still
page no one.

A question for a count or a fact reports no live event: "how many employees does X have" and
"which company has the most employees" paged at P1 (p 0.74-0.99) on their scope words, and a
statistic about failures asked alone ("how many people worldwide still have no internet
access") on its failure words too. A count asked beside a report, or said to be happening
now, still pages.

None of the wordings is an escalation training row."""

from __future__ import annotations

import json

import pytest

from brain.escalation.model import labelled_rows
from cli import main

#: Must page: a live loss for everyone, with planned work or a policy named as its cause.
CAUSE_LIVE = {
    "window_en": "since the maintenance window last night nobody can reach the file server, "
    "the whole company is stuck",
    "policy_en": "every laptop in the company is stuck at the sign-in screen ever since the new "
    "password policy went out this morning, nobody can log in",
    "window_zh": "自从昨晚的维护窗口以后，全公司都连不上文件服务器了",
    "policy_zh": "新的账号制度上线后，全体员工都登录不了VPN",
}
#: Must not page: the same words in a drill, a post-mortem, a notice of work to come and a
#: policy question.
CAUSE_QUIET = {
    "drill_en": "reminder: after lunch we run a failover drill, the whole site will be down for "
    "ten minutes",
    "post_mortem_en": "post-mortem notes: since the maintenance window all staff lost the file "
    "shares for two hours, restored at 9",
    "notice_en": "planned maintenance notice: after the change window on sunday, email will be "
    "unavailable for everyone until 6am",
    "policy_en": "what's the policy when the whole company loses the VPN after a maintenance "
    "window?",
    "post_mortem_zh": "复盘：维护窗口之后全公司网盘打不开了两个小时，现已恢复",
    "notice_zh": "下周六维护窗口期间，全公司邮箱将暂停服务",
    "policy_zh": "如果维护窗口之后所有人都登不上电脑，制度上应该找谁？",
}
#: Must page, read as everyone affected.
PEOPLE_LIVE = {
    "every_employee_en": "every employee in the building has been unable to open the HR "
    "portal since 9",
    "all_of_us_en": "all of us lost the connection to the ticketing system twenty minutes ago",
    "every_single_person_en": "every single person at the office can't print anything this morning",
    "every_one_of_us_en": "every one of us has been unable to sign in to workday since lunch",
    "every_employee_zh": "每个员工都登不上考勤系统了，从早上九点开始",
    "colleagues_zh": "所有同事的电脑都连不上打印服务器",
}
#: Must not page: the same scope words with no failure.
PEOPLE_QUIET = {
    "lunch_en": "all of us loved the team lunch today",
    "coffee_en": "every employee gets a free coffee on fridays",
    "family_en": "every single person in my family caught a cold this week",
    "birthday_zh": "每个员工的生日都有蛋糕",
    "party_zh": "所有同事都去参加年会了",
}
#: Must not page: a count or a fact asked, with scope words and failure words.
COUNT_QUIET = {
    "platform_en": "how many users does the whole whatsapp platform have worldwide",
    "headcount_en": "how many employees across the entire company of apple are there in total",
    "fact_en": "which company has the most employees worldwide",
    "cannot_en": "how many people in the whole country cannot read",
    "no_internet_en": "how many people worldwide still have no internet access",
    "headcount_zh": "京东全集团一共有多少名员工",
    "all_staff_zh": "苹果公司全球所有员工一共多少人",
    "no_internet_zh": "全国一共有多少人用不了互联网",
    "banks_zh": "全国有多少家银行的系统宕机过",
}
#: Must page: a count asked beside a live failure, or said to be happening now.
COUNT_LIVE = {
    "beside_en": "how many users are affected? every customer, checkout returns 500 for all "
    "of them",
    "now_en": "how many of us can't sign in right now? the whole company is locked out of email",
    "beside_zh": "有多少人受影响？全公司都登不上邮箱了",
    "now_zh": "现在全公司有多少人登不上邮箱，我看是所有人",
}
WORDINGS = (CAUSE_LIVE, CAUSE_QUIET, PEOPLE_LIVE, PEOPLE_QUIET, COUNT_QUIET, COUNT_LIVE)


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_wordings_are_not_training_rows() -> None:
    known = {str(r["text"]) for r in labelled_rows(None)}
    assert not known & {text for table in WORDINGS for text in table.values()}


def _cases(live: dict[str, str], quiet: dict[str, str]) -> list[object]:
    return [pytest.param(t, True, id=f"live_{n}") for n, t in live.items()] + [
        pytest.param(t, False, id=f"quiet_{n}") for n, t in quiet.items()
    ]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "pages"), _cases(CAUSE_LIVE, CAUSE_QUIET) + _cases(COUNT_LIVE, COUNT_QUIET)
)
def test_a_named_cause_or_a_count_asked_pages_only_beside_a_live_failure(
    capsys: pytest.CaptureFixture[str], text: str, pages: bool
) -> None:
    """A loss naming planned work as its cause pages, drills, notices and policy questions do
    not; a count or a fact asked does not page, one asked beside a live failure does."""
    answer = _ask(capsys, text)

    assert answer["escalate"] is pages, answer["escalation"]["evidence"]
    assert (answer["escalation"]["priority"] == "P1") is pages


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("name", list(PEOPLE_LIVE))
def test_a_failure_for_every_employee_is_company_wide_and_pages(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    answer = _ask(capsys, PEOPLE_LIVE[name])

    assert answer["escalation"]["impact"] == "all", answer["escalation"]["evidence"]
    assert answer["escalate"] is True, answer["escalation"]["evidence"]
    assert answer["escalation"]["priority"] == "P1"


@pytest.mark.usefixtures("home")
def test_the_same_scope_words_with_no_failure_do_not_page(
    capsys: pytest.CaptureFixture[str],
) -> None:
    paged = {name: _ask(capsys, text)["escalate"] for name, text in PEOPLE_QUIET.items()}

    assert not any(paged.values()), paged
