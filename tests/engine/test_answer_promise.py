"""A requester asking how their ticket stands is told when its team aims to answer it, through
`brain ask --json` on a home with a help-desk team.

"any update?" on an untaken ticket said only "open; last updated <ISO stamp>": nothing about
whether anyone will look at it, or when, although the team's SLA and working hours are
configured and the sweep warns the team at exactly that moment. Without a configured team the
brain promises nothing (it does not invent an SLA).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cli import main
from controllers.ticket_times import answer_promise
from core.teams import AnswerPromise, TeamConfig

TEAM = """
[helpdesk.teams.desk]
controllers = ["incident"]
sla_s = { P4 = 259200.0 }
"""
REPORT = "my laptop shows a blue screen and will not boot"


def _ask(capsys: pytest.CaptureFixture[str], text: str, thread: str) -> dict[str, object]:
    assert main(["ask", text, "--thread", thread, "--json"]) == 0
    decision: dict[str, object] = json.loads(capsys.readouterr().out)
    return decision


def _summary(decision: dict[str, object]) -> str:
    result = decision["result"]
    assert isinstance(result, dict)
    return str(result["summary"])


def _due_after(filed: dict[str, object], hours: float) -> str:
    """The due time a reply should name: `hours` after the ticket was filed (round the clock)."""
    result = filed["result"]
    assert isinstance(result, dict)
    ticket = result["data"]["ticket"]
    due = datetime.fromisoformat(ticket["created_at"]) + timedelta(hours=hours)
    return due.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


@pytest.mark.parametrize(
    ("follow_up", "said"),
    [
        (
            "any update?",
            "nobody has picked it up yet; the desk team aims to answer P4 tickets "
            "within 72 working hours, by {due}",
        ),
        (
            "what's the status of {ticket}?",
            "the desk team aims to answer P4 tickets within 72 working hours, by {due}",
        ),
    ],
)
def test_the_status_of_an_untaken_ticket_says_when_its_team_aims_to_answer(
    home: Path, follow_up: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "brain.toml").write_text(TEAM, encoding="utf-8")
    filed = _ask(capsys, REPORT, "T1")
    ticket = filed["result"]["data"]["ticket"]["id"]  # type: ignore[index]
    status = _ask(capsys, follow_up.format(ticket=ticket), "T1")
    assert said.format(due=_due_after(filed, 72)) in _summary(status)


def test_a_chinese_asker_is_told_in_chinese(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / "brain.toml").write_text(TEAM, encoding="utf-8")
    filed = _ask(capsys, "我的电脑蓝屏了，开不了机", "T2")
    status = _summary(_ask(capsys, "有进展吗", "T2"))
    assert "尚无人接手；desk 团队对 P4 工单的首次响应目标是 72 个工作小时内" in status
    assert _due_after(filed, 72) in status


def test_without_a_team_no_answer_time_is_promised(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _ask(capsys, REPORT, "T3")
    status = _summary(_ask(capsys, "any update?", "T3"))
    assert "is open" in status and "aims to answer" not in status
    assert "UTC" in status  # the last update as a person reads it, not an ISO stamp
    assert "T" not in status.split("last updated ")[1][:12]


def test_the_due_time_counts_only_the_teams_working_hours() -> None:
    team = TeamConfig(hours="09:00-18:00", days=[0, 1, 2, 3, 4])
    friday_late = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)
    due = team.after_working_seconds(friday_late, 4 * 3600)
    assert due == datetime(2026, 12, 7, 12, 0, tzinfo=UTC)  # one hour Friday, three Monday
    assert team.working_seconds(friday_late, due) == 4 * 3600


def test_a_passed_target_is_said_as_passed() -> None:
    due = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    promise = AnswerPromise("desk", "P2", 4 * 3600, due)
    later = due + timedelta(minutes=5)
    assert "target for a first answer (P2, 4 working hours) passed at 2026-12-07 12:00 UTC" in (
        answer_promise(promise, later, zh=False)
    )
    assert "已于 2026-12-07 12:00 UTC 到期" in answer_promise(promise, later, zh=True)
    assert "aims to answer P2 tickets" in answer_promise(promise, due - timedelta(hours=1), False)
