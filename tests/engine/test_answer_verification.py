"""Answer verification (seed 002's AnswerVerifier): a knowledge answer is returned
only when its passage addresses the question; otherwise the brain says it has no answer and
offers a person. The check is recorded in the decision."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from brain.engine import Brain
from core.records import Message
from tests.brain_calls import answered_by


def test_a_vague_stuck_gets_no_outlook_note(brain: Brain) -> None:
    decision = answered_by(brain, "it's stuck")
    assert decision.result is not None
    assert not decision.result.ok
    assert "no answer" in decision.result.summary
    assert "person" in decision.result.details
    assert "Outbox" not in decision.result.summary + decision.result.details
    checks = decision.result.data["verification"]
    assert checks and not any(c["passed"] for c in checks)


def test_another_error_code_gets_no_vpn_691_runbook(brain: Brain) -> None:
    decision = answered_by(brain, "how do I fix error 0x80070005?")
    assert decision.result is not None
    assert "691" not in decision.result.summary + decision.result.details
    assert all(
        "691" not in c["passage"] or not c["passed"] for c in decision.result.data["verification"]
    )


def test_the_matching_runbook_is_still_returned(brain: Brain) -> None:
    decision = answered_by(brain, "how do I fix VPN error 691?")
    assert decision.result is not None and decision.result.ok
    assert "691" in decision.result.summary + decision.result.details
    assert any(c["passed"] for c in decision.result.data["verification"])
    # Recorded in the decision as logged.
    logged = brain.get_decision(decision.decision_id)
    assert logged.result is not None and logged.result.data["verification"]


def test_incident_guidance_is_only_from_a_passage_about_the_error(brain: Brain) -> None:
    decision = answered_by(brain, "VPN fails with error 0x80070005", controller="incident")
    assert decision.result is not None and decision.result.ok  # the incident is still filed
    assert "691" not in decision.result.details


def _rows(answerable: bool) -> list[str]:
    path = Path(__file__).parents[2] / "benchmarks" / "data" / "answerability.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [r["text"] for r in rows if r["split"] == "tune" and r["answerable"] is answerable]


def test_no_labelled_unanswerable_question_gets_an_answer(brain: Brain) -> None:
    """Verification that passes a passage not addressing the question fails this (the tune
    split of benchmarks/data/answerability.jsonl, English and Chinese)."""
    answered = []
    for text in _rows(answerable=False):
        decision = brain.ask(Message(text, user="u1", channel="C1"))
        result = decision.result
        if result is not None and result.ok and result.citations:
            answered.append((text, result.citations))
    assert answered == []
    store = brain.services.tickets
    assert store is not None and store.all() == []


@pytest.mark.parametrize(
    "question", ["What is the maternity leave policy?", "Who do I ask about my pension?"]
)
def test_one_shared_word_of_two_is_no_answer(brain: Brain, question: str) -> None:
    decision = answered_by(brain, question)
    assert decision.result is not None and not decision.result.ok


def test_a_how_to_about_code_is_answered_from_the_guidelines_without_an_llm(
    brain: Brain,
) -> None:
    decision = brain.ask(Message("慢 SQL 怎么优化？", user="u1", channel="C1"))
    assert decision.result is not None and decision.result.ok
    assert decision.result.citations and re.search(r"[\u4e00-\u9fff]", decision.result.summary)


def test_a_chinese_how_to_with_a_work_verb_is_a_question(brain: Brain) -> None:
    decision = brain.ask(Message("软件不在目录里怎么安装？", user="u1", channel="C1"))
    assert decision.request_type == "question"
    store = brain.services.tickets
    assert store is not None and store.all() == []


def test_a_passage_sharing_words_but_not_meaning_is_no_answer(brain: Brain) -> None:
    """ "The code for the office alarm system" shares "alarm" and "system" with the disk-space
    alarm runbook, whose steps were the answer; the meanings are far apart (dense cosine 0.12),
    so it is no answer, and a right section of a page is still found beside a wrong one."""
    decision = brain.ask(Message("what's the code for the office alarm system?", "u1", "C1"))
    assert decision.result is not None and not decision.result.ok
    assert "df -h" not in decision.result.summary + decision.result.details
    assert any("not meaning" in c["reason"] for c in decision.result.data.get("verification", []))
    wifi = brain.ask(Message("How do I connect to the guest Wi-Fi?", "u1", "C1"))
    assert wifi.result is not None and wifi.result.ok
    assert "CORP-GUEST" in wifi.result.summary + wifi.result.details


@pytest.mark.parametrize(
    ("question", "answer", "not_answer"),
    [
        # shares no word with "非工作时间只处理 P1 故障……请拨打 7x24 值班热线（分机 5000）"
        ("半夜出了P1故障找谁？", "5000", None),
        # shares "公司"/"电脑" with the password-reset steps, which were the answer
        ("U盘在公司电脑上能用吗？", "U 盘", "密码"),
        ("客户合同可以发到外部邮箱吗？", "加密", "Outlook"),
    ],
)
def test_a_chinese_question_is_answered_on_meaning(
    brain: Brain, question: str, answer: str, not_answer: str | None
) -> None:
    """MiniLM reads English only and character bigrams see no paraphrase: a Chinese question
    is answered by the passage the multilingual encoder reads closest, and a passage that
    shares its words but not its meaning is no answer."""
    decision = brain.ask(Message(question, "u1", "C1"))
    assert decision.result is not None and decision.result.ok, decision.result
    summary = decision.result.summary  # the answer; details list further passages
    assert answer in summary
    assert not_answer is None or not_answer not in summary


def test_a_bilingual_passage_is_quoted_in_the_askers_language(brain: Brain) -> None:
    """The Chinese VPN 691 runbook gives its opening line in English too: a Chinese asker
    gets the Chinese line only."""
    decision = brain.ask(Message("VPN 连不上，报错 691", "u1", "C1"))
    assert decision.result is not None
    said = decision.result.summary + decision.result.details
    assert "691" in said and "gateway rejected" not in said


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("how do I connect to the guest wifi?", "wifi-network"),
        ("where is the walkin desk?", "support-hours"),
    ],
)
def test_a_word_spelled_without_the_articles_hyphen_is_stillanswered_by(
    brain: Brain, question: str, cited: str
) -> None:
    """People write "wifi" and "walkin" where the articles write "Wi-Fi" and "Walk-in": the
    question's key terms are covered all the same."""
    decision = answered_by(brain, question)
    assert decision.result is not None and decision.result.ok, decision.result
    assert any(cited in c for c in decision.result.citations)


@pytest.mark.parametrize(
    "question", ["what's the phone number for P1 at night?", "P1 的夜间电话号码是什么"]
)
def test_a_question_naming_a_term_is_not_answered_by_its_definition(
    brain: Brain, question: str
) -> None:
    """It names P1 but asks for a number: the glossary's definition of P1 is no answer."""
    decision = answered_by(brain, question)
    assert decision.result is not None
    assert not any("glossary" in c for c in decision.result.citations)


def test_a_term_asked_about_in_a_few_words_is_still_defined(brain: Brain) -> None:
    decision = answered_by(brain, "滚仓这个词是什么意思")
    assert decision.result is not None and decision.result.ok
    assert any("glossary" in c for c in decision.result.citations)


def test_a_chinese_question_is_answered_by_the_english_section_it_shares_no_bigram_with(
    brain: Brain,
) -> None:
    """The section that answers it is English ("VPN connected but internal sites do not
    open"): not one Chinese bigram in common, only "VPN". Retrieval finds it on meaning, and
    verification counts the key terms the section writes in English ("内部" / "internal",
    "网站" / "sites"); before, both counted only words written alike, and it was no answer.
    (It reads as a problem report, an incident; here it is asked of the answering controller.)"""
    decision = answered_by(brain, "VPN 连上了可是内部网站一个都打不开")
    assert decision.result is not None and decision.result.ok, decision.result
    assert any("internal sites" in c for c in decision.result.citations)


def test_a_same_topic_question_the_knowledge_base_does_not_answer_is_still_refused(
    brain: Brain,
) -> None:
    """The VPN pages come back for a monthly data cap, and one of their English words is near
    one of its key terms ("每个" / "every", "公司" / "corporate"): one such word is not an answer,
    so it is still "no answer" (two different words are needed)."""
    decision = answered_by(brain, "公司 VPN 每个月的流量上限是多少？")
    assert decision.result is not None and not decision.result.ok
    assert decision.result.data.get("verification")


def assert_answered(brain: Brain, question: str, cited: str, said: str) -> None:
    """The question is answered from a passage of a page named `cited` that says `said`."""
    decision = answered_by(brain, question)
    assert decision.result is not None and decision.result.ok, decision.result
    assert any(cited in c for c in decision.result.citations), decision.result.citations
    assert said in decision.result.summary + decision.result.details


@pytest.mark.parametrize(
    ("question", "cited", "said"),
    [
        # "night" and "urgent" are "outside these hours" and "P1" in the passage
        ("who do I ring about an urgent P1 outage at night?", "support-hours", "5000"),
        # "own" and "iPad" are "personal" and "tablet"
        ("Am I allowed to read company email on my own iPad?", "byod-personal-devices", "tablet"),
    ],
)
def test_a_passage_meaning_the_question_answers_it_in_other_words(
    brain: Brain, question: str, cited: str, said: str
) -> None:
    """The passage says it in its own words: one key term in common, and a dense cosine at
    which the word rules refused no unanswerable question of the labelled pairs."""
    assert_answered(brain, question, cited, said)


@pytest.mark.parametrize(
    ("question", "cited", "said"),
    [
        ("When is the chnage freeze?", "change-management", "December 20"),
        ("battrey is bulging", "laptop-hardware", "swollen"),
        ("How do I get a Viiso licence?", "software-licences", "Visio"),
    ],
)
def test_a_question_typed_with_a_slip_is_answered(
    brain: Brain, question: str, cited: str, said: str
) -> None:
    """Two letters swapped, one dropped or doubled ("chnage", "battrey", "Viiso") is the word
    the passage writes: the key term is held, as it is spelled right."""
    assert_answered(brain, question, cited, said)


@pytest.mark.parametrize(
    ("question", "cited", "said"),
    [
        ("What are the maintenacne windows?", "change-management", "Sunday"),
        ("My lapotp won't turn on", "laptop-hardware", "charger"),
        ("attachmnt size limit", "", "25 MB"),
    ],
)
def test_a_question_typed_with_a_slip_is_searched_as_spelt(
    brain: Brain, question: str, cited: str, said: str
) -> None:
    """A slip in the word that names the subject ("maintenacne") hides the passage from the
    search's words and MiniLM's cosine alike (0.09 for the maintenance windows' section, under
    the verifier's floor): the question is searched with the knowledge base's own word."""
    assert_answered(brain, question, cited, said)


def test_a_thing_named_by_another_glossary_name_is_answered(brain: Brain) -> None:
    """The glossary says "payout" is a disbursement: the runbook's "Never pay a disbursement
    twice" answers a question that says payout, which holds no other key term of it."""
    question = "customer didn't get the payout, should I just pay it again?"
    assert_answered(brain, question, "disbursement-not-received", "twice")


@pytest.mark.parametrize(
    "question",
    [
        "How many days until my password expires?",
        "How do I set an out-of-office reply in Outlook?",
        "Who chairs the CAB?",
        "VPN 地址池是哪个网段",
        "Outlook 怎么设置自动回复",
    ],
)
def test_a_question_on_an_articles_topic_that_it_does_not_answer_is_refused(
    brain: Brain, question: str
) -> None:
    """The article on the question's subject is found (password resets, Outlook, the CAB, the
    VPN's address pool) and says nothing of what is asked: verification reads it and passes
    no passage, so the answer is "no answer" with the nearest articles. (Questions of
    brain/data/answer_pairs.jsonl's near-miss topics, train split.)"""
    decision = answered_by(brain, question)
    assert decision.result is not None and not decision.result.ok, decision.result
    assert not decision.result.citations
    checks = decision.result.data["verification"]
    assert checks and not any(c["passed"] for c in checks)
