"""Where a learned note sends a request: the channel it names, a configured team's channel
(by the channel's or the team's name), or nowhere; look-alikes of a channel are not one."""

from __future__ import annotations

import pytest

from bot.passed_notes import target_of
from core.teams import TeamConfig

TEAMS = {"facilities": TeamConfig(channel="CFACIL001"), "payroll": TeamConfig(channel="CPAY0001")}


@pytest.mark.parametrize(
    ("note", "target"),
    [
        ("ask facilities in #facilities", "CFACIL001"),
        ("post it in #Office-Moves please", "#office-moves"),
        ("请到#facilities频道找行政", "CFACIL001"),
        ("payroll handles these, forward it", "CPAY0001"),
        ("told them to call the help line", None),
        ("it is room #5 on floor 2", None),
        ("they use C# for that tool", None),
        ("see &#39;the handbook&#39;", None),
        ("the payrolls sheet is in the drive", None),
    ],
)
def test_a_note_names_where_its_requests_go(note: str, target: str | None) -> None:
    assert target_of(note, TEAMS) == target
