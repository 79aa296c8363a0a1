"""A request for work that names another system than the thread's record is a request of its
own, however much its words are the record's ("还要开通 SonarQube 的权限" after a Jenkins
request); a value that names part of the record's object narrows it, and a reason that reads
as work ("my lead asked me to do it") names no object of its own: it stays with the record."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from tests.chat_threads import chat_thread, records_field


@pytest.mark.parametrize(
    ("first", "then", "systems"),
    [
        ("请帮我开通 Jenkins 的权限", "还要开通 SonarQube 的权限", ["Jenkins", "SonarQube"]),
        ("我需要开通 Jira 的权限", "另外还需要 Confluence 的权限", ["Confluence", "Jira"]),
        ("I need access to the Visio licence", "I need access to Figma too", ["Figma", "Visio"]),
    ],
)
def test_a_request_for_another_system_files_its_own_record(
    brain: Brain, first: str, then: str, systems: list[str]
) -> None:
    replies = chat_thread(brain, first, then)
    assert replies[1].kind != "clarify", replies[1].text
    assert sorted(records_field(brain, "system")) == systems


def test_a_value_naming_part_of_the_records_object_narrows_it(brain: Brain) -> None:
    replies = chat_thread(
        brain, "申请开通GitLab的仓库权限", "仓库是 infra/terraform，需要developer权限"
    )
    decision = replies[1].decision
    assert decision is not None and decision.request_type == "update", decision.tier_path
    assert len(records_field(brain, "system")) == 1


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        ("need access to the AWS cost explorer", "for budget tracking, my lead asked me to do it"),
        (
            "need read access to the Datadog dashboards",
            "for on-call handover, my manager wants me to do it",
        ),
    ],
)
def test_a_reason_that_reads_as_work_names_no_object_and_stays_with_the_record(
    brain: Brain, request_: str, reason: str
) -> None:
    replies = chat_thread(brain, request_, reason)
    decision = replies[1].decision
    assert decision is not None and decision.outcome != "fallback", replies[1].text
    assert replies[1].kind != "clarify" or "REQ-" in replies[1].text, replies[1].text
    assert len(records_field(brain, "system")) == 1
