"""A reply is in one language: the controller's words and the conversation's lines around them
read the asker's language the same way. A turn the conversation answers in Chinese ("打印机
still not working", or a bare "HP LaserJet" in a Chinese thread) was filed with an English
controller reply under Chinese headlines, because the controllers read the text alone."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Message
from core.text.language import has_cjk


def _decided(brain: Brain, message: Message) -> tuple[bool, str]:
    """Whether the decision replies in Chinese, and what it says: the controller's reply, or
    the chain's own question or boundary where nothing ran."""
    decision = brain.execute(brain.decide(message))
    said = decision.result.summary if decision.result else decision.clarification
    assert said
    return decision.in_chinese, said


def test_a_report_written_mostly_in_chinese_words_is_answered_in_chinese(brain: Brain) -> None:
    chinese, summary = _decided(brain, Message("打印机 still not working"))
    assert chinese
    assert has_cjk(summary) and "Filed" not in summary, summary


def test_a_bare_name_in_a_chinese_thread_is_answered_in_chinese(brain: Brain) -> None:
    message = Message("HP LaserJet 3F", thread="t1", history=("三楼的打印机一直卡纸，打不出来",))
    chinese, summary = _decided(brain, message)
    assert chinese
    assert has_cjk(summary), summary


def test_an_english_report_keeps_its_english_reply(brain: Brain) -> None:
    chinese, summary = _decided(brain, Message("the printer on floor 3 is not working"))
    assert not chinese
    assert not has_cjk(summary), summary
