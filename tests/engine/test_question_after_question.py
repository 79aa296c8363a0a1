"""A question asked right after a question on the same topic is answered, not filed: read as
part of the ongoing work, "邮件附件大小限制是多少" (what is the attachment limit, after asking
how large an attachment may be) was taken as an update of that work and filed as an e-mail
incident. A report after the question is still filed."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Decision, Message


def _asked(brain: Brain, text: str) -> Decision:
    return brain.execute(brain.decide(Message(text, "U-asker", "D-asker")))


def test_a_second_question_on_the_topic_is_answered(brain: Brain) -> None:
    first = _asked(brain, "邮件附件最大能发多大？")
    assert first.controller == "consultation"
    second = _asked(brain, "邮件附件大小限制是多少")
    assert second.request_type == "question", second.rationale
    assert second.controller == "consultation", second.rationale
    assert second.result is not None and "INC-" not in second.result.summary


def test_a_report_after_the_question_is_still_filed(brain: Brain) -> None:
    _asked(brain, "邮件附件最大能发多大？")
    report = _asked(brain, "邮件还是发不出去")
    assert report.controller == "incident", report.rationale
    assert report.result is not None and "INC-" in report.result.summary
