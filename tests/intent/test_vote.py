"""Seed 002's vote: weights, fallback order, fine-grained refinement, the 0.5 floor."""

from __future__ import annotations

import pytest

from brain.intent.recognizers import Vote
from brain.intent.vote import vote

FAILED = Vote("other", 0.0, failed=True, status="timeout")


def test_unanimous_vote_is_the_weighted_sum_of_the_seed_example() -> None:
    result = vote(Vote("network_vpn", 0.9), Vote("network_vpn", 0.6), Vote("network_vpn", 0.8))
    assert result.intent == "network_vpn"
    assert result.confidence == pytest.approx(0.83)
    assert result.source_scores == {"llm": 0.9, "semantic": 0.6, "keyword": 0.8}


def test_split_vote_compares_label_totals() -> None:
    # llm 0.7*0.8 = 0.56 for email_issue; semantic+keyword 0.2*1.0 + 0.1*1.0 = 0.3 for printer.
    result = vote(Vote("email_issue", 0.8), Vote("printer_issue", 1.0), Vote("printer_issue", 1.0))
    assert result.intent == "email_issue"
    assert result.confidence == pytest.approx(0.56)
    assert result.source == "llm"


def test_llm_failure_falls_back_to_semantic_first() -> None:
    result = vote(FAILED, Vote("hardware_fault", 0.42), Vote("printer_issue", 0.9))
    assert (result.intent, result.confidence, result.source) == ("hardware_fault", 0.42, "semantic")


def test_llm_failure_then_keyword_when_semantic_has_nothing() -> None:
    result = vote(FAILED, Vote("other", 0.0), Vote("printer_issue", 0.7))
    assert (result.intent, result.confidence, result.source) == ("printer_issue", 0.7, "keyword")


def test_llm_failure_with_nothing_else_is_other_zero() -> None:
    result = vote(FAILED, Vote("other", 0.0), Vote("other", 0.0))
    assert (result.intent, result.confidence) == ("other", 0.0)


def test_fallback_does_not_apply_the_half_floor() -> None:
    # The seed returns the fallback result as is, even below 0.5.
    assert vote(FAILED, Vote("sql", 0.36), Vote("other", 0.0)).intent == "sql"


def test_broad_winner_is_refined_by_a_fine_grained_keyword_hit() -> None:
    result = vote(Vote("incident", 0.9), Vote("incident", 0.5), Vote("network_vpn", 0.7))
    # incident: 0.63 + 0.1 = 0.73 < 0.8; keyword is specific with 0.7 >= 0.5.
    assert result.intent == "network_vpn"
    assert result.confidence == pytest.approx(0.73)
    assert result.source_scores["refined_by_pattern"] == 0.7


def test_refinement_keeps_the_larger_of_vote_and_pattern() -> None:
    result = vote(Vote("incident", 0.6), Vote("other", 0.0), Vote("network_vpn", 0.9))
    assert result.intent == "network_vpn"
    assert result.confidence == pytest.approx(0.9)


@pytest.mark.parametrize(
    ("llm", "semantic", "keyword"),
    [
        # broad winner at >= 0.8 stays
        (Vote("incident", 1.0), Vote("incident", 0.6), Vote("network_vpn", 0.9)),
        # pattern below 0.5 does not refine
        (Vote("incident", 0.9), Vote("incident", 0.5), Vote("network_vpn", 0.45)),
        # a specific winner is not "refined"
        (Vote("email_issue", 0.9), Vote("email_issue", 0.5), Vote("network_vpn", 0.9)),
        # a stand-alone pattern intent is not fine-grained
        (Vote("incident", 0.9), Vote("incident", 0.5), Vote("complaint", 0.9)),
    ],
)
def test_no_refinement_outside_the_rule(llm: Vote, semantic: Vote, keyword: Vote) -> None:
    result = vote(llm, semantic, keyword)
    assert "refined_by_pattern" not in result.source_scores
    assert result.intent == llm.intent


def test_weak_winner_becomes_other_but_keeps_its_score() -> None:
    result = vote(Vote("release", 0.6), Vote("other", 0.0), Vote("other", 0.0))
    assert result.intent == "other"
    assert result.confidence == pytest.approx(0.42)


def test_exactly_half_is_enough() -> None:
    result = vote(Vote("rollback", 0.5), Vote("rollback", 0.75), Vote("other", 0.0))
    assert result.confidence == pytest.approx(0.5)
    assert result.intent == "rollback"
