"""A live event followed by a plea for help, through `brain ask --json`.

People end a report with a plea ("..., can you help me with this?", "……，我该怎么做？").
"I shared the salary folder with a public link by mistake" pages (p 0.78 on the shipped
model); the same with ", can you help?" after it does not (p 0.02): in the escalation
model's training rows a message that ends as a question is a must-not-page row (a policy
question, a how-to) seven times as often as a must-page one, so the plea outweighs the
report. The wordings the model still misses are strict xfails (`STILL_MISSED`): a fix must
remove them. Fitting each training row once more with a plea after it was tried and dropped
(benchmarks/HISTORY.md, "Reports followed by a plea"): it paged such reports, and more look-alikes
on the unread splits. A how-to, one person's problem, a finished incident and a drill notice
with the same kind of plea page no one. No wording is a training row nor near one.
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
}
#: Live events with a plea the model still does not page.
STILL_MISSED = {
    "salary_link_plea": "the plea outweighs the report (p 0.06; bare, 0.78)",
    "export_plea": "the security rules read the trailing question as a question about security "
    "(a consultation) and the model is not sure enough to page one asked (p 0.13)",
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
