"""define, classify_id, find_ids and confirm on the shipped sample KB."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import load_settings
from core.text.embedder import DenseEmbedder
from knowledge import open_knowledge
from knowledge.skill import KnowledgeSkill

CONTROLLERS = ("ticket", "consultation", "alarm", "coding", "access", "incident", "change")


def test_define_exact_term_and_alias(sample_kb: KnowledgeSkill) -> None:
    rollover = sample_kb.define("滚仓")
    assert rollover is not None and rollover.term == "滚仓" and "头寸" in rollover.definition
    by_alias = sample_kb.define("Recon")
    assert by_alias is not None and by_alias.term == "reconciliation"


def test_define_polysemous_term_points_to_its_domain(sample_kb: KnowledgeSkill) -> None:
    money = sample_kb.define("钱没到")
    assert money is not None and money.domain == "ticket"


def test_define_finds_a_term_inside_a_question(sample_kb: KnowledgeSkill) -> None:
    found = sample_kb.define("what is 滚仓?")
    assert found is not None and found.term == "滚仓"


def test_define_is_fuzzy_on_typos(sample_kb: KnowledgeSkill) -> None:
    found = sample_kb.define("reconcilation")
    assert found is not None and found.term == "reconciliation"


def test_define_unknown_term_is_none(sample_kb: KnowledgeSkill) -> None:
    assert sample_kb.define("zzqx") is None
    assert sample_kb.define("  ") is None


@pytest.mark.parametrize(
    ("token", "kind", "domain"),
    [
        ("2025060300011279027", "settlement_work_order", "ticket"),
        ("INC0012345", "incident_ticket", "ticket"),
        ("REQ0045678", "request_ticket", "ticket"),
        ("SR123456", "service_request", "ticket"),
        ("#10086", "chat_ticket_ref", "ticket"),
        ("CHG0012345", "change_request", "change"),
        ("LT-12345", "asset_tag", ""),
        ("ORA-00942", "oracle_error", "coding"),
    ],
)
def test_classify_id(sample_kb: KnowledgeSkill, token: str, kind: str, domain: str) -> None:
    match = sample_kb.classify_id(token)
    assert match is not None and (match.kind, match.domain) == (kind, domain)
    assert match.token == token and match.description


@pytest.mark.parametrize("token", ["hello", "12345", "202506030001127902", "LT-1234"])
def test_classify_id_rejects_other_tokens(sample_kb: KnowledgeSkill, token: str) -> None:
    assert sample_kb.classify_id(token) is None


def test_find_ids_in_text_order(sample_kb: KnowledgeSkill) -> None:
    found = sample_kb.find_ids("工单2025060300011279027还没处理，另外 LT-12345 要换人，见 #10086")
    assert [(m.token, m.domain) for m in found] == [
        ("2025060300011279027", "ticket"),
        ("LT-12345", ""),
        ("#10086", "ticket"),
    ]
    assert sample_kb.find_ids("nothing to see 123") == []


def test_find_ids_again_on_one_text_is_a_fresh_list(sample_kb: KnowledgeSkill) -> None:
    """The same message is read for identifiers three times a decision (remembered once)."""
    text = "INC0012345 again, see #10086"
    first = sample_kb.find_ids(text)
    expected = [(m.token, m.kind) for m in first]
    first.clear()  # a caller's change to its list is not what the next caller gets
    assert [(m.token, m.kind) for m in sample_kb.find_ids(text)] == expected
    assert expected == [("INC0012345", "incident_ticket"), ("#10086", "chat_ticket_ref")]


def test_identifiers_and_glossary_follow_a_new_ingest(
    empty_home: Path, small_kb: Path, embedder: DenseEmbedder
) -> None:
    """What is remembered per KB generation (ID patterns' last text, the glossary's
    normalised names and matchers) is rebuilt when an ingest changes the KB."""
    text = "laptop LT-12345 rollover with ORA-00942"
    skill = open_knowledge(load_settings())
    try:
        skill.ingest([small_kb], progress=False)
        assert [m.token for m in skill.find_ids(text)] == ["LT-12345"]
        assert [d.term for d in skill.senses(text)] == []
        rollover = skill.define("rollover")
        assert rollover is not None and rollover.term == "滚仓"
        (small_kb / "more.yaml").write_text(
            "domain: coding\nglossary:\n  - term: ORA-00942\n    aliases: [table missing]\n"
            "    definition: The table or view does not exist.\n    contexts: [laptop]\n"
            "id_patterns:\n  - name: oracle_error\n    regex: 'ORA-\\d{5}'\n"
            "    domain: coding\n",
            encoding="utf-8",
        )
        skill.ingest([small_kb], progress=False)
        assert [m.token for m in skill.find_ids(text)] == ["LT-12345", "ORA-00942"]
        assert [d.term for d in skill.senses(text)] == ["ORA-00942"]
        missing = skill.define("table missing")
        assert missing is not None and missing.domain == "coding"
    finally:
        skill.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("process ticket 2025060300011279027", "ticket"),
        ("what is 滚仓", "consultation"),
        ("disk usage on /var is above 95% on app-prd-07, alert firing", "alarm"),
        ("please review this SQL: UPDATE accounts SET status = 0 without a where clause", "coding"),
        ("I need access to the finance shared mailbox, who approves it?", "access"),
        ("VPN 连不上，报错 691", "incident"),
        ("we need to roll back yesterday's release of the payment service", "change"),
    ],
)
def test_confirm_supports_the_right_controller(
    sample_kb: KnowledgeSkill, text: str, expected: str
) -> None:
    scores = sample_kb.confirm_many(text, CONTROLLERS)
    best = max(scores.values(), key=lambda c: c.score)
    assert best.controller == expected, {n: c.score for n, c in scores.items()}
    assert 0.0 < best.score <= 1.0
    assert best.evidence and all(hit.domain == expected for hit in best.evidence)
    single = sample_kb.confirm(text, expected)
    assert single.score == best.score


def test_ticket_id_gives_strong_support(sample_kb: KnowledgeSkill) -> None:
    assert sample_kb.confirm("process ticket 2025060300011279027", "ticket").score >= 0.8


def test_confirm_many_retrieves_once(
    sample_kb: KnowledgeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    original = sample_kb.store.search

    def counting(text: str, **kwargs: object) -> list:
        calls.append(text)
        return original(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sample_kb.store, "search", counting)
    sample_kb.confirm_many("printer on floor 3 shows error SC542, unique text 8812", CONTROLLERS)
    assert len(calls) == 1


def test_confirm_of_unknown_controller_and_empty_text(sample_kb: KnowledgeSkill) -> None:
    assert sample_kb.confirm("printer jam", "no-such-controller").score == 0.0
    assert sample_kb.confirm_many("  ", CONTROLLERS)["incident"].score == 0.0
