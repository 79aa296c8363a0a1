"""A live company-wide loss that names what it followed pages, through `brain ask --json`:
"since the maintenance window" or "after the new password policy" names the loss's cause,
not a planned-work notice or a policy question, so the `not_live` cues ("maintenance window",
"policy", "维护窗口", "制度") no longer veto it. Before, every such loss was vetoed as no live
event whatever the model read. Drills, post-mortems, planned-work notices and policy
questions with the same words still page no one. None of the wordings is an escalation
training row."""

from __future__ import annotations

import json

import pytest

from brain.escalation.model import labelled_rows
from cli import main

#: Must page: a live loss for everyone, with planned work or a policy named as its cause.
LIVE = {
    "window_en": "since the maintenance window last night nobody can reach the file server, "
    "the whole company is stuck",
    "policy_en": "every laptop in the company is stuck at the sign-in screen ever since the new "
    "password policy went out this morning, nobody can log in",
    "window_zh": "自从昨晚的维护窗口以后，全公司都连不上文件服务器了",
    "policy_zh": "新的账号制度上线后，全体员工都登录不了VPN",
}
#: Must not page: the same words in a drill, a post-mortem, a notice of work to come and a
#: policy question.
QUIET = {
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


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_wordings_are_not_training_rows() -> None:
    known = {str(r["text"]) for r in labelled_rows(None)}
    assert not known & {*LIVE.values(), *QUIET.values()}


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "pages"),
    [(t, True) for t in LIVE.values()] + [(t, False) for t in QUIET.values()],
    ids=[f"live_{n}" for n in LIVE] + [f"quiet_{n}" for n in QUIET],
)
def test_a_named_cause_does_not_veto_a_live_loss_but_drills_notices_and_questions_stay_quiet(
    capsys: pytest.CaptureFixture[str], text: str, pages: bool
) -> None:
    answer = _ask(capsys, text)

    assert answer["escalate"] is pages, answer["escalation"]["evidence"]
    assert (answer["escalation"]["priority"] == "P1") is pages
