"""The store contract, run on every backend: what each kind of store promises its callers."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from core.config import Settings
from core.errors import UnknownDecision
from core.records import Decision, ExecutionResult, FeedbackRecord
from core.stores import ManifestEntry, MessageLink, Stores, open_stores
from core.stores.lesson import Lesson
from core.stores.records import Alert, Ticket


def _ticket(ticket_id: str, title: str = "vpn", status: str = "open") -> Ticket:
    return Ticket(id=ticket_id, kind="incident", title=title, requester="U1", status=status)


def _lesson(key: str, weight: float = 0.1) -> Lesson:
    return Lesson(
        memory_id=key,
        controller="access",
        weight=weight,
        kind="confirmation",
        text=f"text of {key}",
        decision_id="d-1",
        user="U1",
        created_at="2026-12-01T00:00:00",
    )


def _alert(alert_id: str, messages: list[str]) -> Alert:
    return Alert(
        alert_id=alert_id,
        decision_id="d-1",
        asker="U1",
        text="db down",
        urgency="critical",
        summary="",
        permalink=None,
        oncall_channel="C-ONCALL",
        source_channel="C1",
        source_thread="1.1",
        created_at=1.0,
        last_sent_at=1.0,
        messages=messages,
    )


# -- decisions and feedback --------------------------------------------------------------------


def test_decisions_are_found_by_id_session_and_user(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    made = [make_decision(user=f"u{i % 2}", thread="T1" if i % 3 == 0 else None) for i in range(7)]
    for decision in made:
        stores.decisions.append(decision)

    got = stores.decisions.get_many([made[5].decision_id, made[0].decision_id])
    assert [d.decision_id for d in got] == [made[5].decision_id, made[0].decision_id]
    assert got[0].to_dict() == made[5].to_dict()
    last = stores.decisions.last_for("u0", "C1")
    assert last is not None and last.decision_id == made[6].decision_id
    assert stores.decisions.last_for("u9", "C1") is None
    assert stores.decisions.session_ids("C1:T1") == [made[i].decision_id for i in (0, 3, 6)]
    assert stores.decisions.session_ids("C1:u1") == [made[i].decision_id for i in (1, 5)]
    with pytest.raises(UnknownDecision):
        stores.decisions.get_many(["d-missing"])


def test_a_session_keeps_its_latest_fifty_ids(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    made = [make_decision() for _ in range(55)]
    for decision in made:
        stores.decisions.append(decision)
    assert stores.decisions.session_ids("C1:u1") == [d.decision_id for d in made[-50:]]


def test_update_replaces_a_decision_and_refuses_unknown_ones(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    decision = make_decision()
    stores.decisions.append(decision)
    decision.outcome = "clarify"
    decision.result = ExecutionResult(controller="incident", role="primary", ok=True, summary="ok")
    stores.decisions.update(decision)
    assert stores.decisions.get_many([decision.decision_id])[0].to_dict() == decision.to_dict()
    with pytest.raises(UnknownDecision):
        stores.decisions.update(make_decision())


def test_feedback_is_kept_with_its_decision_once(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    decision = make_decision()
    stores.decisions.append(decision)
    entry = {"kind": "confirm", "controller": None, "user": "u1", "source": "cli", "at": "t1"}

    updated = stores.feedback.add_feedback(decision.decision_id, entry)
    again = stores.feedback.add_feedback(decision.decision_id, {**entry, "at": "t2"})

    assert updated.feedback == [FeedbackRecord.from_dict(entry)]
    assert again.feedback == [FeedbackRecord.from_dict(entry)]
    assert stores.decisions.get_many([decision.decision_id])[0].feedback == [
        FeedbackRecord.from_dict(entry)
    ]
    with pytest.raises(UnknownDecision):
        stores.feedback.add_feedback("d-missing", entry)


def test_an_update_from_a_stale_copy_keeps_feedback_recorded_meanwhile(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    decision = make_decision()
    stores.decisions.append(decision)
    stale = stores.decisions.get_many([decision.decision_id])[0]
    entry = {"kind": "reject", "controller": None, "user": "u2", "source": "slack"}
    stores.feedback.add_feedback(decision.decision_id, entry)

    stale.rationale = "re-explained"
    stores.decisions.update(stale)

    stored = stores.decisions.get_many([decision.decision_id])[0]
    assert stored.rationale == "re-explained"
    assert stored.feedback == [FeedbackRecord.from_dict(entry)]


def test_feedback_from_many_threads_is_all_kept(
    stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    decision = make_decision()
    stores.decisions.append(decision)

    def give(user: int) -> None:
        stores.feedback.add_feedback(
            decision.decision_id,
            {"kind": "confirm", "controller": None, "user": f"u{user}", "source": "slack"},
        )

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(give, range(20)))
    stored = stores.decisions.get_many([decision.decision_id])[0]
    assert sorted(item.user for item in stored.feedback) == sorted(f"u{i}" for i in range(20))


def test_records_are_there_after_reopening(
    settings: Settings, make_decision: Callable[..., Decision]
) -> None:
    first = open_stores(settings)
    decision = make_decision()
    first.decisions.append(decision)
    first.tickets.insert(_ticket("INC-000001"))
    first.lessons.put_many([_lesson("m1")])
    first.close()

    second = open_stores(settings)
    try:
        assert second.decisions.get_many([decision.decision_id])[0].text == decision.text
        assert second.tickets.get("INC-000001") == _ticket("INC-000001")
        assert second.lessons.all() == [_lesson("m1")]
    finally:
        second.close()


def test_forgetting_a_user_redacts_their_decisions_quotes_and_feedback(
    settings: Settings, stores: Stores, make_decision: Callable[..., Decision]
) -> None:
    text = "the money for order 88231 has still not arrived"
    theirs = make_decision(text=text, user="U1", rationale=f"routed: {text!r}")
    other = make_decision(
        text="payment for order 4 not arrived",
        user="U9",
        rationale=f"people moved messages like this ({text[:57]}...) to consultation",
    )
    stores.decisions.append(theirs)
    stores.decisions.append(other)
    for decision, who in ((theirs, "U1"), (other, "U1"), (other, "U9")):
        stores.feedback.add_feedback(
            decision.decision_id,
            {"kind": "confirm", "controller": None, "user": who, "source": "cli"},
        )

    changed = stores.decisions.forget_user("U1", [text])

    assert sorted(changed) == sorted([theirs.decision_id, other.decision_id])
    mine, kept = stores.decisions.get_many([theirs.decision_id, other.decision_id])
    assert mine.text == "[forgotten]" and mine.controller == theirs.controller
    assert mine.feedback == [] and text not in mine.rationale
    assert kept.text == other.text and text[:57] not in kept.rationale
    assert [f.user for f in kept.feedback] == ["U9"]
    stores.decisions.flush()
    if settings.storage.backend == "tinydb":
        held = [
            p
            for p in settings.home.rglob("*")
            if p.is_file() and text[:40].encode() in p.read_bytes()
        ]
        assert held == []


# -- tickets -----------------------------------------------------------------------------------


def test_tickets_insert_once_and_change_atomically(stores: Stores) -> None:
    assert stores.tickets.insert(_ticket("INC-000001"))
    assert not stores.tickets.insert(_ticket("INC-000001", status="closed"))

    def close(ticket: Ticket) -> None:
        ticket.status = "closed"

    def refuse(ticket: Ticket) -> None:
        ticket.status = "half-written"
        raise ValueError("not allowed")

    assert stores.tickets.modify("INC-000001", close) == _ticket("INC-000001", status="closed")
    with pytest.raises(ValueError, match="not allowed"):
        stores.tickets.modify("INC-000001", refuse)
    assert stores.tickets.get("INC-000001") == _ticket("INC-000001", status="closed")
    assert stores.tickets.modify("INC-404", close) is None
    assert stores.tickets.get("INC-404") is None
    assert [ticket.id for ticket in stores.tickets.all()] == ["INC-000001"]


def test_ticket_numbers_are_never_handed_out_twice(stores: Stores) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        numbers = list(pool.map(lambda _: stores.tickets.next_number(), range(40)))
    assert sorted(numbers) == list(range(1, 41))


# -- memory lessons ----------------------------------------------------------------------------


def test_lessons_are_replaced_by_id_and_removed(stores: Stores) -> None:
    stores.lessons.put_many([_lesson(f"m{i}") for i in range(5)])
    stores.lessons.put_many([_lesson("m2", weight=-0.15)])
    stores.lessons.remove(["m0", "m4", "unknown"])

    rows = sorted(stores.lessons.all(), key=lambda lesson: lesson.memory_id)
    assert rows == [_lesson("m1"), _lesson("m2", weight=-0.15), _lesson("m3")]
    assert stores.lessons.count() == 3


# -- dynamic cases -----------------------------------------------------------------------------


def test_cases_insert_once_change_atomically_and_are_removed(stores: Stores) -> None:
    assert stores.cases.insert({"case_id": "c1", "text": "book a room", "confirmed_by": []})
    assert not stores.cases.insert({"case_id": "c1", "text": "other"})
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(
            pool.map(
                lambda i: stores.cases.modify(
                    "c1", lambda doc: doc["confirmed_by"].append(f"u{i}")
                ),
                range(12),
            )
        )
    case = stores.cases.get("c1")
    assert case is not None and case["text"] == "book a room"
    assert sorted(case["confirmed_by"]) == sorted(f"u{i}" for i in range(12))
    assert stores.cases.modify("missing", lambda doc: None) is None
    stores.cases.remove(["c1", "unknown"])
    assert stores.cases.count() == 0 and stores.cases.all() == []


def test_the_lesson_feed_names_what_changed_since_a_version(
    settings: Settings, stores: Stores
) -> None:
    assert stores.lessons.version() == 0
    assert stores.lessons.changed_since(0) == (0, [])
    stores.lessons.put_many([_lesson("m1")])
    seen = stores.lessons.version()
    stores.lessons.put_many([_lesson("m2")])
    stores.lessons.remove(["m1"])

    # Another opening of the same home (another process) follows the same feed.
    other = open_stores(settings) if settings.storage.backend != "memory" else stores
    current, changed = other.lessons.changed_since(seen)
    assert current == other.lessons.version() > seen
    assert changed == ["m1", "m2"]
    assert other.lessons.get("m1") is None
    assert other.lessons.get("m2") == _lesson("m2")
    assert other.lessons.changed_since(current) == (current, [])


def test_the_lesson_feed_says_when_a_reader_is_too_far_behind(stores: Stores) -> None:
    from core.stores.kinds import LESSON_FEED_KEEP

    stores.lessons.put_many([_lesson(f"m{i}") for i in range(LESSON_FEED_KEEP + 2)])

    current, changed = stores.lessons.changed_since(0)
    assert current == LESSON_FEED_KEEP + 2
    assert changed is None  # the reader reloads every lesson instead


# -- Slack state -------------------------------------------------------------------------------


def test_the_event_ledger_keeps_the_most_recent_keys(stores: Stores) -> None:
    stores.events.record([(f"Ev{i}", float(i)) for i in range(30)], keep=10)
    stores.events.record([("Ev5", 99.0)], keep=10)

    recent = stores.events.recent(10)
    assert recent[-1] == ("Ev5", 99.0)
    assert [key for key, _ in recent] == [f"Ev{i}" for i in range(21, 30)] + ["Ev5"]
    assert len(stores.events.recent(1000)) <= 12  # pruned to about `keep`


def test_message_links_are_keyed_by_channel_and_ts(stores: Stores) -> None:
    first = MessageLink("C1", "1.1", "d-1", "U1", "1.1", "question")
    again = MessageLink("C1", "1.1", "d-2", "U1", "1.1", "reroute")
    other = MessageLink("C2", "1.1", "d-3", "U2", "1.0", "reply")
    stores.links.add_many([first, other])
    stores.links.add_many([again])

    links = sorted(stores.links.all(), key=lambda link: link.channel)
    assert links == [again, other]


def test_alerts_are_saved_changed_and_listed_while_pending(stores: Stores) -> None:
    stores.alerts.save(_alert("a1", ["1"]))
    stores.alerts.save(_alert("a2", []))

    def acknowledge(alert: Alert) -> None:
        alert.acknowledged_by = "U7"

    assert stores.alerts.modify("a2", acknowledge) is not None
    assert [alert.alert_id for alert in stores.alerts.pending()] == ["a1"]
    acknowledged = _alert("a2", [])
    acknowledged.acknowledged_by = "U7"
    assert stores.alerts.get("a2") == acknowledged
    assert stores.alerts.get("a9") is None


# -- KB manifest -------------------------------------------------------------------------------


def test_the_manifest_records_each_source_once(stores: Stores) -> None:
    one = ManifestEntry("/kb/a.md", "h1", ("c1", "c2"), True)
    two = ManifestEntry("/kb/b.md", "h2", (), False)
    stores.manifest.put(one)
    stores.manifest.put(two)
    stores.manifest.put(ManifestEntry("/kb/a.md", "h3", ("c3",), True))

    assert stores.manifest.get("/kb/a.md") == ManifestEntry("/kb/a.md", "h3", ("c3",), True)
    assert stores.manifest.count() == 2
    stores.manifest.remove("/kb/b.md")
    assert [entry.source for entry in stores.manifest.all()] == ["/kb/a.md"]
    stores.manifest.clear()
    assert stores.manifest.count() == 0
    assert stores.manifest.get("/kb/a.md") is None


def test_conversation_state_round_trips_and_is_forgotten_by_user(stores: Stores) -> None:
    from core.stores.records import ConversationState, OpenQuestion

    state = ConversationState(key="C1:T1", history=["my printer is broken"], users=["u1"])
    state.remember("INC-000001", "incident")
    state.open_question = OpenQuestion(["category"], "incident", "INC-000001", "d-1")
    stores.conversations.put(state)
    assert stores.conversations.get("C1:T1") == state
    assert stores.conversations.keys_of("u1") == ["C1:T1"]
    stores.conversations.remove(["C1:T1"])
    assert stores.conversations.get("C1:T1") is None
