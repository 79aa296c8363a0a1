"""Which passages an answer shows, and in what order: the section whose heading names what is
asked opens it, and a section translated for the other language's readers is not shown when
the asker's own language says the same. Through `brain chat`'s conversation, as a user met it:
after a docking problem, "what are your support hours by the way?" opened with the priority
table and ended with the Chinese support-hours section, unlabelled, in an English reply."""

from __future__ import annotations

import re

from brain.engine import Brain
from tests.chat_threads import chat_thread

_CJK = re.compile(r"[\u4e00-\u9fff]")


def test_a_question_in_a_thread_is_answered_by_the_section_named_for_it(brain: Brain) -> None:
    *_, reply = chat_thread(
        brain,
        "my second screen isn't detected when I dock the laptop",
        "the dock is a Lenovo thunderbolt one",
        "what are your support hours by the way?",
    )

    decision = reply.decision
    assert decision is not None and decision.result is not None, reply.text
    assert decision.result.ok, reply.text
    assert "Monday to Friday" in decision.result.summary, decision.result.summary
    assert "Service desk hours" in decision.result.citations[0], decision.result.citations
    shown = " ".join([reply.text, *reply.result_lines, decision.result.details])
    assert not _CJK.search(shown), shown


def test_a_chinese_question_is_answered_in_chinese_only(brain: Brain) -> None:
    *_, reply = chat_thread(brain, "服务台的工作时间是几点到几点？")

    decision = reply.decision
    assert decision is not None and decision.result is not None, reply.text
    assert decision.result.ok, reply.text
    shown = "\n".join([decision.result.summary, decision.result.details])
    assert "08:00-20:00" in shown, shown
    assert "Monday" not in shown and "From the knowledge base" not in shown, shown


def test_an_english_no_answer_names_the_nearest_pages_in_english(brain: Brain) -> None:
    (reply,) = chat_thread(brain, "What is the dress code on Fridays?")

    shown = " ".join([reply.text, *reply.result_lines])
    assert "no answer" in shown, shown
    assert "Printer problems" in shown, shown
    assert not _CJK.search(shown), shown


def test_the_sections_read_are_the_searchs_best_not_the_most_alike(brain: Brain) -> None:
    """The three passages read are the search's first, not the three of highest 0..1
    relevance: by relevance, "Who approves my access request?" read the access policy's
    quarterly review, introduction and "How long it takes", never its "Who approves"."""
    (reply,) = chat_thread(brain, "Who approves my access request?")

    decision = reply.decision
    assert decision is not None and decision.result is not None, reply.text
    assert decision.result.ok, reply.text
    assert any("#Who approves" in c for c in decision.result.citations), decision.result.citations
