"""A follow-up of several sentences that each go on with the thread's record goes on with it:
"is there any workaround meanwhile? I have a client call at 3" after an Outlook password loop
was read as something new as a whole (0.07) and asked "which controller?", though the model
read each sentence alone as the record's (0.94, 0.89). A new request with its reason is still
new."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def _records(brain: Brain) -> list[str]:
    store = brain.services.tickets
    assert store is not None
    return [ticket.id for ticket in store.all()]


def test_a_question_and_why_it_is_pressing_go_on_the_record(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "outlook keeps asking for my password every few minutes",
        "is there any workaround meanwhile? I have a client call at 3",
    )
    assert _records(brain) == ["INC-000001"], replies[1].text
    assert replies[1].kind != "clarify" and "INC-000001" in replies[1].text, replies[1].text


def test_a_new_request_with_its_reason_is_still_new(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "outlook keeps asking for my password every few minutes",
        "I also need access to the finance sharepoint. It's for the Q4 budget review",
    )
    assert len(_records(brain)) == 2, replies[1].text
