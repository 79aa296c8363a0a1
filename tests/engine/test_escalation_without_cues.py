"""Live events said without a failure or attack word, through `brain ask --json`.

A company-wide loss said as a state ("everyone is locked out of X", "the whole floor can no
longer reach X", "自从系统升级完成以后，我们整个公司都进不了考勤系统"), often after a cause
that has finished, pages; the same loss told as over, as work to come or written up
afterwards, and the same words with nothing lost, page no one. Three such losses are still
missed (`STILL_MISSED`, strict: a fix must remove them): the model reads a finished cause
("since the planned maintenance finished an hour ago") as the loss being over (p 0.00), and a
bare state with no cause or time ("everyone is locked out of the expense portal", "the whole
floor can no longer reach the print server") as no event (p 0.28-0.38). Training families for
them were tried and dropped (benchmarks/HISTORY.md, `esc8`): they moved unrelated borderline
wordings more than these.

A security event in progress said with no cue word (a caller pretending to be IT with the CFO
right now, a contractor mailing the customer list to his own gmail, a forged vendor mailbox,
a screenshot of customer data posted publicly) pages; the same told as past and reported, a
policy question about it or a drill announcement do not.

None of the wordings is an escalation training row, nor near one (character 3-gram overlap
under the bar the training set's own builder drops rows at): what pages must be what the
model learned, not these sentences."""

from __future__ import annotations

import json

import pytest

from cli import main
from tests.escalation_probes import assert_not_near_training, live_and_quiet

#: Must page: a live loss for everyone, said as a state, often after a finished cause.
LIVE = {
    "maintenance_finished_en": "all colleagues have lost the shared calendar since the planned "
    "maintenance finished an hour ago",
    "locked_out_en": "everyone is locked out of the expense portal",
    "no_longer_reach_en": "the whole floor can no longer reach the print server",
    "migration_completed_en": "ever since the storage migration was completed, every team in "
    "the company has been without its shared drive",
    "no_access_anymore_en": "the entire sales org has no access to the quoting tool anymore, "
    "it's been like that since the firewall work ended",
    "shut_out_en": "our whole office is shut out of Teams after the license cleanup went "
    "through this morning",
    "vpn_zh": "所有人都连不上VPN了",
    "dingtalk_zh": "全员的钉钉都打不开了，消息也发不出去",
    "upgrade_done_zh": "自从系统升级完成以后，我们整个公司都进不了考勤系统",
    "cutover_over_zh": "割接结束后，全楼的人都收不到邮件了",
    "kept_out_zh": "全组织的人现在都被挡在报销平台外面了",
}
#: Must not page: the loss told as over, as work to come, written up afterwards, and the same
#: words with nothing lost.
QUIET = {
    "back_en": "all colleagues lost the shared calendar during the planned maintenance; it "
    "finished an hour ago and the calendar is back",
    "tonight_en": "heads-up: everyone is going to be locked out of the expense portal for two "
    "hours tonight during the vendor's upgrade",
    "review_en": "post-incident review: the whole floor could no longer reach the print server "
    "yesterday after the patch, fixed by noon",
    "recovered_zh": "维护已经结束，全员的邮箱都恢复正常了",
    "faster_zh": "自从系统升级完成以后，考勤系统快了很多，大家都说好用",
}
#: Losses the model still misses: a finished cause reads as the loss being over, a bare state
#: with no cause or time as no event.
STILL_MISSED = {
    "maintenance_finished_en": "a finished cause reads as the loss being over (p 0.00)",
    "locked_out_en": "a bare state with no cause or time (p 0.28)",
    "no_longer_reach_en": "a bare state with no cause or time (p 0.38)",
}
#: Must page: a security event in progress with no cue word.
SECURITY_LIVE = {
    "fake_it_cfo_en": "someone is on the phone with our CFO pretending to be IT right now",
    "gmail_list_en": "a contractor just emailed the customer list to his gmail",
    "fake_ceo_wire_en": "there's a guy on a call with accounts payable right now claiming to be "
    "our CEO and asking for an urgent wire",
    "public_drive_en": "the new intern just uploaded the whole payroll spreadsheet to a public "
    "google drive folder",
    "vendor_mailbox_en": "a vendor's mailbox is sending our finance team invoices with changed "
    "bank details as we speak",
    "screen_share_en": 'my colleague is screen-sharing with a "microsoft support" caller who is '
    "walking him through installing something",
    "reception_en": "there is a man at reception who says he is from the fire alarm company and "
    "wants to go into the server room, he is waiting there now",
    "gift_cards_en": "my manager's whatsapp is asking me to buy gift cards and send the codes, "
    "she's in a meeting so I can't check",
    "leaver_contracts_en": "the sales director is forwarding every client contract to a "
    "personal hotmail as we speak, he resigned yesterday",
    "slack_ceo_en": "someone with our CEO's name is in the finance slack channel asking for the "
    "payroll file",
    "fake_it_zh": "有人正冒充IT给财务总监打电话，要他的验证码",
    "qq_list_zh": "一个外包刚把客户名单发到了他自己的QQ邮箱",
    "fake_vendor_zh": "有个自称是供应商的人在电话里让出纳改收款账号，电话还没挂",
    "fake_boss_zh": "有人冒充老板在微信上让会计马上转账，会计正在操作",
    "moments_zh": "实习生刚把带客户手机号的后台截图发到了朋友圈",
}
#: Must not page: the same told as past and reported, a policy question, a drill notice.
SECURITY_QUIET = {
    "reported_en": "last month someone pretended to be IT on the phone with our CFO, she hung "
    "up and reported it",
    "policy_en": "what should we do if a contractor emails the customer list to his gmail?",
    "drill_en": 'reminder: next week\'s phishing drill will include a fake call from "IT" asking '
    "for your code",
    "reported_zh": "上个月有人冒充IT给财务总监打电话，她当时就挂了并上报了",
    "policy_zh": "如果外包把客户名单发到私人邮箱，应该怎么处理？",
}
WORDINGS = (LIVE, QUIET, SECURITY_LIVE, SECURITY_QUIET)


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_wordings_are_not_near_any_training_row() -> None:
    assert_not_near_training(t for table in WORDINGS for t in table.values())


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "pages"),
    live_and_quiet(LIVE, QUIET, STILL_MISSED, "loss_")
    + live_and_quiet(SECURITY_LIVE, SECURITY_QUIET, STILL_MISSED, "security_"),
)
def test_a_live_event_said_without_a_cue_pages_and_its_look_alikes_do_not(
    capsys: pytest.CaptureFixture[str], text: str, pages: bool
) -> None:
    """A loss said as a state, a security event in progress with no cue word: P1 and paged;
    the same told as over, to come, written up, asked about or drilled: neither."""
    answer = _ask(capsys, text)

    assert answer["escalate"] is pages, answer["escalation"]["evidence"]
    assert (answer["escalation"]["priority"] == "P1") is pages
