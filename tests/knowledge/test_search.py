"""Retrieval quality on the shipped sample KB: English, Chinese and mixed questions."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.skill import KnowledgeSkill


def _names(hits: list) -> list[str]:
    return [Path(hit.source).name for hit in hits]


def test_english_question_finds_the_english_runbook(sample_kb: KnowledgeSkill) -> None:
    hits = sample_kb.search("my VPN connection fails with error 691 after I changed my password")
    assert _names(hits)[0] == "vpn-error-691.md"


def test_chinese_question_finds_the_chinese_runbook(sample_kb: KnowledgeSkill) -> None:
    hits = sample_kb.search("连接VPN时提示691，用户名密码被拒绝怎么办")
    assert _names(hits)[0] == "vpn-error-691-zh.md"


def test_mixed_message_finds_the_vpn_691_runbook_first(sample_kb: KnowledgeSkill) -> None:
    hits = sample_kb.search("VPN 连不上，报错 691")
    assert _names(hits)[0] in {"vpn-error-691.md", "vpn-error-691-zh.md"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("disk usage alarm on /var above 95%", "disk-space-alarm.md"),
        ("批处理作业失败了，返回码12，可以直接重跑吗", "failed-batch-job-zh.md"),
        ("can I use my personal laptop on the VPN", "byod-personal-devices.md"),
        ("客户说钱没到，放款一直没到账", "disbursement-not-received-zh.md"),
    ],
)
def test_other_questions_find_their_document(
    sample_kb: KnowledgeSkill, query: str, expected: str
) -> None:
    assert expected in _names(sample_kb.search(query, k=3))


def test_hits_carry_payload_and_a_relevance_between_0_and_1(sample_kb: KnowledgeSkill) -> None:
    hits = sample_kb.search("printer paper jam", k=5)
    assert hits
    top = hits[0]
    assert top.title and top.text and top.domain == "incident" and top.language
    assert all(0.0 <= hit.score <= 1.0 for hit in hits)
    assert top.score > 0.5
    unrelated = sample_kb.search("recipe for chocolate cake with strawberries", k=1)
    assert not unrelated or unrelated[0].score < top.score


def test_domain_filter_keeps_only_that_domain(sample_kb: KnowledgeSkill) -> None:
    hits = sample_kb.search("VPN error 691", domain="access", k=5)
    assert hits and all(hit.domain == "access" for hit in hits)


def test_empty_query_returns_nothing(sample_kb: KnowledgeSkill) -> None:
    assert sample_kb.search("   ") == []


def test_a_chinese_question_finds_a_passage_it_shares_no_word_with(
    sample_kb: KnowledgeSkill,
) -> None:
    # Not one character bigram in common with the support-hours section ("非工作时间……请拨打
    # 7x24 值班热线"), and MiniLM does not read Chinese: only the multilingual encoder,
    # searched as a channel of its own, finds it.
    question = "凌晨系统宕机了应该打给谁？"
    hits = sample_kb.search(question, k=5, meaning=True)
    found = [hit for hit in hits if hit.section == "IT 服务时间（中文）"]
    assert found, [(hit.source, hit.section) for hit in hits]
    assert found[0].meaning is not None
