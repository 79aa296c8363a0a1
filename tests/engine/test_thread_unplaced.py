"""A report in a thread that neither the continuation model nor the chain alone places is
asked about as the thread's record or new work, not "which controller?"."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def test_a_report_no_controller_takes_alone_is_asked_about_as_the_record_or_new(
    brain: Brain,
) -> None:
    """After an account unlock request, "tried the self-service reset, it says the phone number
    is wrong" reads new to the continuation model (0.17) and the chain alone cannot place it:
    decided afresh it was asked "which controller?", and picking one filed a second request.
    It is asked about as this record or something new."""
    replies = chat_thread(brain, "我的账号被锁了", "试了自助重置，提示手机号不对")
    store = brain.services.tickets
    assert store is not None
    [record] = store.all()
    assert replies[1].kind == "clarify" and record.id in replies[1].text
