"""A live event followed by a plea for help, through `brain ask --json`.

People end a report with a plea ("..., can you help me with this?", "……，我该怎么做？").
"I shared the salary folder with a public link by mistake" pages (p 0.78 on the shipped
model); the same with ", can you help?" after it did not (p 0.06): in the escalation
model's training rows a message that ends as a question is a must-not-page row (a policy
question, a how-to) seven times as often as a must-page one, so the plea outweighed the
report, and the security rules read a closing "?" as a question about security. Such a
message's report is now also read apart from the plea (`brain.chain.plea`: a last clause the
speech-act model reads as a question, in which the escalation rules read nothing): the
security event the rules read there pages when the message is asked while it happens
(`brain.chain.escalate.decide_with_report`). The wordings still missed are strict xfails
(`STILL_MISSED`): a fix must remove them. Fitting each
training row once more with a plea after it was tried and dropped (benchmarks/HISTORY.md,
"Reports followed by a plea"). A how-to, one person's problem, a finished incident, a policy
question and a drill notice with the same kind of plea page no one. No wording is a training
row nor near one.
"""

from __future__ import annotations

import json

import pytest

from cli import main
from tests.escalation_probes import assert_not_near_training, live_and_quiet

#: Must page: a live event, bare (the first) and followed by a plea.
LIVE = {
    "salary_link_bare": "I shared the salary folder with a public link by mistake",
    "salary_link_plea": "I shared the salary folder with a public link by mistake, can you help "
    "me with this?",
    "export_wrong_address": "I just emailed the full customer export to the wrong outside "
    "address, what's the next step?",
    "gist_password": "my colleague put our production database password in a public github "
    "gist an hour ago, need help asap",
    "salary_zh": "我刚把员工工资表误发到了外部的邮箱，我该怎么做？",
    "caller_code": "someone claiming to be from IT is on the line asking for my login code "
    "right now, anyone around to help?",
    "caller_code_zh": "一个自称是银行的人现在在电话上让我报验证码，帮我看看怎么处理",
    "export_plea": "I accidentally emailed the customer export to the wrong external address, "
    "can you help?",
    "made_public": "I made the salary folder public by mistake",
    "key_in_channel": "I pasted the AWS root access key into the public #general channel ten "
    "minutes ago, what do I do?",
    "list_to_group_zh": "我不小心把客户名单发到了一个外部的微信群里，怎么办？",
}
#: Must not page: a how-to, a policy question, one person's device, a finished incident and a
#: drill notice, with the same kind of plea.
QUIET = {
    "howto_link": "how do I share a folder with a public link? can you help me with this?",
    "policy_export": "are we allowed to send customer exports to partners, what's the next step "
    "to get approval?",
    "battery": "my laptop battery drains in two hours, can you help me with this?",
    "finished": "last month I shared a folder with a public link by mistake, it was removed the "
    "same day and IT checked the logs; can you close my ticket?",
    "printer_zh": "我的打印机打不出来，我该怎么做？",
    "drill_zh": "下周的钓鱼演练会模拟冒充IT的电话，帮我看看通知怎么写",
    "calendar": "the shared calendar stopped syncing on my phone since yesterday, any idea what "
    "I should do?",
    "mail_zh": "我的邮箱今天收不到附件，谁能帮帮我？",
    "wiped_laptop": "the contractor laptop we lost in March was wiped remotely the same day, what "
    "should I do now?",
    "invoices_gmail": "is it okay to forward customer invoices to my personal gmail, what should I "
    "do?",
}
#: Live events with a plea the model still does not page.
STILL_MISSED = {
    "salary_link_plea": "the plea outweighs the report (p 0.06; bare, 0.78): the report is "
    "read apart from the plea only for the security rules' event, since the escalation "
    "model's own page on the report paged look-alikes on the unread splits",
    "made_public": "no plea, under the 0.5 bar the model pages alone at (p 0.46)",
}


def test_the_wordings_are_not_near_any_training_row() -> None:
    assert_not_near_training((*LIVE.values(), *QUIET.values()))


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "pages"),
    live_and_quiet(LIVE, QUIET, STILL_MISSED),
)
def test_a_live_event_with_a_plea_pages_and_its_look_alikes_do_not(
    capsys: pytest.CaptureFixture[str], text: str, pages: bool
) -> None:
    assert main(["ask", text, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)

    assert answer["escalate"] is pages, answer["escalation"]["evidence"]
    assert (answer["escalation"]["priority"] == "P1") is pages


@pytest.mark.usefixtures("home")
def test_the_evidence_says_the_report_was_read_without_its_plea(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", LIVE["export_plea"], "--json"]) == 0
    evidence = json.loads(capsys.readouterr().out)["escalation"]["evidence"]

    assert "without its closing plea 'can you help?'" in evidence[0]
