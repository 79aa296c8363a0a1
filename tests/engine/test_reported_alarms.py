"""A live problem a person reports to the alarm controller is diagnosed and filed: the
diagnosis runs first and the incident is filed with it (a pipeline), so the thread has a record
for its next turn. A resolved alert, a question about an alarm and an alert added to a named
ticket file nothing new."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.cli_calls import all_tickets, ask_json, comments


def _ask(capsys: pytest.CaptureFixture[str], text: str, thread: str = "T1") -> dict[str, Any]:
    return ask_json(capsys, text, "--thread", thread, "--user", "u1")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "follow_up", "category"),
    [
        ("订单服务的错误率突然升到了15%", "重启之后还是很高，没有降下来", "software"),
        ("CPU on web-03 has been at 98% for 20 minutes", "still pegged after the restart", None),
        # Read as a request for work by the speech-act model: before, diagnosed, filed nothing.
        ("昨晚的对账批处理任务失败了", "今天重跑了一次，又失败了", "software"),
    ],
)
def test_a_reported_alarm_is_diagnosed_and_filed_and_its_follow_up_goes_on_it(
    capsys: pytest.CaptureFixture[str], report: str, follow_up: str, category: str | None
) -> None:
    filed = _ask(capsys, report)
    assert filed["outcome"] == "composed" and filed["composition"] == "pipeline", filed
    assert [p["controller"] for p in filed["result"]["parts"]] == ["alarm", "incident"]
    [ticket] = all_tickets(capsys)
    assert ticket["kind"] == "incident"
    assert ticket["fields"]["upstream"]["controller"] == "alarm"  # the diagnosis went with it
    if category is not None:
        assert ticket["fields"]["category"] == category
    later = _ask(capsys, follow_up)
    assert later["request_type"] == "update", later
    [ticket] = all_tickets(capsys)
    assert comments(ticket) == [follow_up]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text",
    [
        "[RESOLVED] HighErrorRate service=payments",
        "What happens when the disk space alarm fires?",
    ],
)
def test_a_resolved_alert_or_a_question_about_an_alarm_files_nothing(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    _ask(capsys, text)
    assert all_tickets(capsys) == []


@pytest.mark.usefixtures("home")
def test_a_chinese_asker_gets_the_runbooks_chinese_steps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The error-rate runbook's Chinese section has prose, not a numbered list: its sentences
    are the steps, not the English section's list ("Open the service dashboard in Grafana")."""
    filed = _ask(capsys, "订单服务的错误率突然升到了15%")
    [diagnosis] = [p for p in filed["result"]["parts"] if p["controller"] == "alarm"]
    steps = diagnosis["data"]["steps"]
    assert steps and all(re.search(r"[\u4e00-\u9fff]", step) for step in steps), steps
    assert any("1.5 秒" in step for step in steps)  # a decimal point ends no step
    # the runbook named by its Chinese section, not the page's English title
    assert "API error rate" not in diagnosis["summary"] and "处理手册" in diagnosis["summary"]
    # the parts are tagged by their Chinese labels, not "[alarm - primary]"
    summary = filed["result"]["summary"]
    assert "[告警诊断（主要）]" in summary and "primary" not in summary, summary
