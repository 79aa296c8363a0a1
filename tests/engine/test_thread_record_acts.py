"""A follow-up that acts on the thread's record in words no one tuned for: a question about the
record's impact or alternatives, a change of its own time, others affected. Each reads as
something new today (continuation 0.00-0.14) and files or asks about a second record, so they
are kept as strict expected failures until a change moves them without moving the held-out
splits the wrong way (benchmarks/HISTORY.md, "Follow-ups that act on the record's
particulars"); a new request in the record's own words files one of its own and must go on
doing so."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from tests.chat_threads import chat_thread

_STILL_NEW = pytest.mark.xfail(
    strict=True, reason="read as something new: kept until the model moves it"
)


def _records(brain: Brain) -> list[str]:
    store = brain.services.tickets
    assert store is not None
    return [ticket.id for ticket in store.all()]


@pytest.mark.parametrize(
    ("opening", "follow_up"),
    [
        pytest.param("我需要开通团队共享盘的访问权限", "别人也打不开", marks=_STILL_NEW),
        pytest.param(
            "三楼的打印机坏了，一直卡纸打不出来",
            "那我先用哪台打印？下午要交合同",
            marks=_STILL_NEW,
        ),
        pytest.param(
            "please schedule a restart of payments-db tonight at 22:00",
            "can we move it to 23:00 instead? sales are running late",
            marks=_STILL_NEW,
        ),
        pytest.param(
            "申请给订单服务的数据库扩容，磁盘从500G扩到1T",
            "扩容期间服务会中断吗？",
            marks=_STILL_NEW,
        ),
    ],
)
def test_a_follow_up_acting_on_the_record_stays_on_it(
    brain: Brain, opening: str, follow_up: str
) -> None:
    replies = chat_thread(brain, opening, follow_up)
    first = _records(brain)
    assert len(first) == 1, replies[0].text
    assert replies[1].kind != "clarify" and first[0] in replies[1].text, replies[1].text


def test_a_new_request_in_the_records_words_files_its_own(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "please schedule a restart of payments-db tonight at 22:00",
        "also, I need read access to the payments-db logs in Kibana",
    )
    assert len(_records(brain)) == 2, replies[1].text
