"""What the bot says when a reply to its question about a record gives none of what it asked
for: not the same question again. Asked once ("To proceed I still need: system") and answered
with something else (a reason, a comment), it asks in other words, with the values a closed
field may take and what happens if the asker does not know; told the asker does not know
("not sure", "真的不清楚"), or asked twice already, the record goes ahead with what it has and
the bot stops asking (the people handling it ask), so a later unclear reply is not taken for
the value either. Each of these turns says how many times in a
row the question has been put (`ASKED_AGAIN` in its result), which the next turn reads through
the thread's open question."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from brain.conversation.follow_up import field_word, says_dont_know
from brain.conversation.wording import say
from core.records import Decision
from core.stores.records import ConversationState
from core.wording import wording_for

#: The result key of a follow-up turn that put the thread's open question again: how many
#: turns in a row had put it before that one.
ASKED_AGAIN = "asked_again"
#: Put this many times in a row without an answer, the question is not put again.
MOST_ASKED = 2


def times_asked(state: ConversationState, get_decision: Callable[[str], Decision]) -> int:
    """How many turns in a row have put the thread's open question (0 when none waits): 1
    for the decision that first asked it, one more for each follow-up that asked it again."""
    question = state.open_question
    if question is None:
        return 0
    try:
        result = get_decision(question.decision_id).result
    except Exception:  # an unknown or unreadable decision: it asked once
        return 1
    before = result.data.get(ASKED_AGAIN, 0) if result is not None else 0
    return 1 + (before if isinstance(before, int) else 0)


def unanswered(missing: Sequence[str], asked: Sequence[str], filled: object) -> bool:
    """The reply filled nothing and everything still missing was asked for already."""
    return bool(missing) and bool(asked) and not filled and set(missing) <= set(asked)


def again(
    record: str, missing: Sequence[str], text: str, zh: bool, *, times: int
) -> tuple[str, bool]:
    """The sentence after a reply `text` that did not answer the question about `record`, put
    `times` times already, and whether the record goes ahead without the `missing` fields
    (the bot stops asking)."""
    words = [field_word(name) for name in missing]
    fields = (
        wording_for(zh)
        .say("common.list_separator")
        .join(w.chinese if zh else w.english for w in words)
    )
    first = words[0].chinese if zh else words[0].english
    ahead = times >= MOST_ASKED or says_dont_know(text)
    sentence = say("went_ahead" if ahead else "ask_again", zh, record=record, fields=fields,
                   field=first)  # fmt: skip
    return (sentence if zh else f" {sentence}"), ahead
