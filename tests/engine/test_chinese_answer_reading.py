"""A Chinese question is verified against the passages that mean most what it asks, not those
MiniLM (English-only) ranks first. Through the brain API: the answering controller's reply
as the decision records it."""

from __future__ import annotations

from brain.engine import Brain
from tests.brain_calls import answered_by


def test_the_support_hours_are_read_before_sections_minilm_puts_first(brain: Brain) -> None:
    """MiniLM cannot read Chinese and ranks a laptop-battery section above the support
    hours; the multilingual encoder reads the question."""
    decision = answered_by(brain, "服务台几点上班")

    assert decision.result is not None and decision.result.ok, decision.result
    assert "周六 09:00-13:00" in decision.result.summary, decision.result.summary
    assert decision.result.citations


def test_a_question_worded_apart_from_the_section_isanswered_by(brain: Brain) -> None:
    """ "周末" and "几点" are not in the section ("周六 09:00-13:00"), whose score is low for
    character pairs across word boundaries; it is verified on meaning and on what the question
    names ("服务台")."""
    decision = answered_by(brain, "服务台周末几点开始上班？")

    assert decision.result is not None and decision.result.ok, decision.result
    assert "周六 09:00-13:00" in decision.result.summary, decision.result.summary


def test_an_office_word_does_not_make_an_alarm_code_question_answerable(brain: Brain) -> None:
    """ "办公" (office) frames the question, as "office" does in English: the office-network
    section holds it and "密码" and is no answer to the office alarm's code."""
    decision = answered_by(brain, "办公室报警器的密码是多少")

    assert decision.result is not None and not decision.result.ok, decision.result
    assert not decision.result.citations


def test_a_question_about_one_item_of_a_section_meets_that_item(brain: Brain) -> None:
    """The section lists two things to check; the question meets one of them. Read whole,
    the VPN pages' other sections (slow VPN, error 691's symptoms) were closer to the question
    and the three passages read held no answer; read in parts, its DNS item is close."""
    decision = answered_by(brain, "VPN 显示已连接，公司内部网页还是打不开")

    assert decision.result is not None and decision.result.ok, decision.result
    assert "nslookup intranet.corp.example" in decision.result.summary, decision.result.summary
