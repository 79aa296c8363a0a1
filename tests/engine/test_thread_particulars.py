"""An identifier said after a report (an asset tag, a serial, a host, a job) is a particular of
the thread's record, through `brain chat`'s `Conversation`. The continuation model learned such
lines from its training set's particulars (`scripts/continuation_particulars.py`); before, it
read them as new work: the bot asked which record they were about, or filed a second one."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from tests.chat_threads import chat_thread


@pytest.mark.parametrize(
    ("report", "particular"),
    [
        ("my monitor goes black every few minutes", "the sticker on the stand reads MON-44120"),
        ("我的扩展坞不给笔记本充电了", "上面的资产标签是 DK-20931"),
    ],
)
def test_an_identifier_said_after_a_report_goes_on_its_record(
    brain: Brain, report: str, particular: str
) -> None:
    replies = chat_thread(brain, report, particular)
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    said = replies[1]
    assert said.kind != "clarify" and said.decision is not None
    assert said.decision.request_type == "update"
    assert particular in [c["text"] for c in ticket.comments]
