"""Records carry their Slack workspace (team) on every backend: stored with it when the bot
serves many workspaces, and without any new key with one workspace, so those records (and
every record written before teams) read and serialise exactly as before."""

from __future__ import annotations

from collections.abc import Callable

from core.records import Decision
from core.stores import Stores
from core.stores.lesson import Lesson
from core.stores.records import Alert, ConversationState, Ticket


def _lesson(key: str, team: str | None) -> Lesson:
    return Lesson(key, "access", 0.1, "confirmation", "vpn", "d-1", "U1", "2026-12-01", team=team)


def _alert(alert_id: str, team: str | None) -> Alert:
    return Alert(alert_id, "d-1", "U1", "db down", "high", "", None, "C9", "C1", "1.1", 1.0, 1.0,
                 team=team)  # fmt: skip


def test_each_record_keeps_its_team_and_one_workspace_adds_no_key(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    ours, single = make_decision(team="T0000002"), make_decision()
    stores.decisions.append(ours)
    stores.decisions.append(single)
    got = stores.decisions.get_many([ours.decision_id, single.decision_id])
    assert [d.team for d in got] == ["T0000002", None]
    assert "team" not in got[1].to_dict() and got[0].to_dict()["team"] == "T0000002"

    stores.tickets.insert(Ticket("INC-000001", "incident", "vpn", "U1", slack_team="T0000002"))
    stores.tickets.insert(Ticket("INC-000002", "incident", "vpn", "U1"))
    assert stores.tickets.get("INC-000001").slack_team == "T0000002"  # type: ignore[union-attr]
    plain = stores.tickets.get("INC-000002")
    assert plain is not None and plain.slack_team is None and "slack_team" not in plain.to_dict()

    stores.lessons.put_many([_lesson("m1", "T0000002"), _lesson("m2", None)])
    teams = {lesson.memory_id: lesson.team for lesson in stores.lessons.all()}
    assert teams == {"m1": "T0000002", "m2": None}
    assert "team" not in _lesson("m2", None).to_doc()

    stores.alerts.save(_alert("a1", "T0000002"))
    stores.alerts.save(_alert("a2", None))
    assert stores.alerts.get("a1").team == "T0000002"  # type: ignore[union-attr]
    assert "team" not in _alert("a2", None).to_dict()

    stores.conversations.put(ConversationState("C1:1.1", team="T0000002"))
    stored = stores.conversations.get("C1:1.1")
    assert stored is not None and stored.team == "T0000002"
    assert "team" not in ConversationState("C1:1.2").to_dict()


def test_records_written_before_teams_load_with_none() -> None:
    old = {"id": "INC-1", "kind": "incident", "title": "t", "requester": "U"}
    assert Ticket.from_dict(old).slack_team is None
    assert Lesson.from_doc({"memory_id": "m", "controller": "c", "weight": 0.1}).team is None
    assert ConversationState.from_dict({"key": "C:1"}).team is None
