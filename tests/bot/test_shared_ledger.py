"""Two bots' event ledgers on one PostgreSQL: a key claimed by one is refused to the other at
once (the claim is the database's), and counted as a duplicate for /metrics."""

from __future__ import annotations

from bot.state import EventLedger
from core.config import Settings
from core.stores import open_stores


def test_a_key_claimed_through_one_replica_is_refused_to_another(
    postgres_settings: Settings,
) -> None:
    first, second = open_stores(postgres_settings), open_stores(postgres_settings)
    try:
        one, other = EventLedger(first.events), EventLedger(second.events)
        assert one.claim("event:Ev1")
        assert not other.claim("event:Ev1")  # nothing flushed: the claim itself is shared
        assert not one.claim("event:Ev1")
        assert other.claim("message:C1:1.0")
        assert (one.duplicates["event"], other.duplicates["event"]) == (1, 1)
        restarted = EventLedger(open_stores(postgres_settings).events)
        assert restarted.seen("event:Ev1") and restarted.seen("message:C1:1.0")
    finally:
        first.close()
        second.close()


def test_a_message_posted_by_one_replica_is_found_by_another(postgres_settings: Settings) -> None:
    from bot.state import MessageLink, MessageLinks

    first, second = open_stores(postgres_settings), open_stores(postgres_settings)
    try:
        poster, other = MessageLinks(first.links), MessageLinks(second.links)
        question = MessageLink("C1", "1.000001", "d-1", "U1", "1.000001", "question")
        reply = MessageLink("C1", "1.000009", "d-1", "U1", "1.000001", "reply")
        later = MessageLink("C1", "1.000010", "d-2", "U1", "1.000001", "reroute")
        for link in (question, reply, later):
            poster.add(link)
        poster.flush()

        assert other.get("C1", "1.000009") == reply  # e.g. a 👍 on the reply reached replica 2
        assert other.get("C1", "9.9") is None
        assert other.find_ts("C1", "1.000001") == question  # the thread's own root message
        assert other.find_ts("C2", "1.000001") is None
        roots_only = MessageLinks(second.links)
        assert roots_only.find_ts("C1", "1.000001") == question
    finally:
        first.close()
        second.close()


async def test_take_claims_off_the_event_loop_with_the_same_answers(
    postgres_settings: Settings,
) -> None:
    first, second = open_stores(postgres_settings), open_stores(postgres_settings)
    try:
        one, other = EventLedger(first.events), EventLedger(second.events)
        assert await one.take("event:Ev9")
        assert not await other.take("event:Ev9")
        assert not await one.take("event:Ev9")
        assert other.duplicates["event"] == 1 and one.duplicates["event"] == 1
    finally:
        first.close()
        second.close()


def test_an_owed_claim_is_taken_over_only_from_a_dead_owner_and_answered_once(
    postgres_settings: Settings,
) -> None:
    from core.stores.postgres.ledger import PgEventLedger

    stores = open_stores(postgres_settings)
    ledger = stores.events
    assert isinstance(ledger, PgEventLedger)
    ledger.heartbeat("A", 60)
    ledger.heartbeat("B", 60)
    assert ledger.claim(["event:E1"], 1.0, owner="A", payload={"event_id": "E1"})
    assert not ledger.claim(["event:E1"], 2.0, owner="B")  # A is alive: a plain duplicate
    assert ledger.orphans("B") == []

    ledger.heartbeat("A", -1)  # A's heartbeat lapsed: A is dead
    assert ledger.orphans("B") == [("event:E1", {"event_id": "E1"}, False)]
    assert ledger.orphans("C") == []  # B, alive, holds it now
    assert not ledger.settle(["event:E1"], "A")  # A woke up: it must not answer
    assert ledger.settle(["event:E1"], "B")  # B is sending the answer ...
    ledger.heartbeat("B", -1)  # ... and dies before Slack took it: ask Slack, then answer
    assert ledger.orphans("C") == [("event:E1", {"event_id": "E1"}, True)]
    assert ledger.settle(["event:E1"], "C")
    ledger.confirm(["event:E1"], "C")
    ledger.heartbeat("C", -1)
    assert ledger.orphans("D") == []  # answered: never taken again
    assert not ledger.claim(["event:E1"], 3.0, owner="D")

    # A Slack retry reaching a live replica takes a dead owner's unanswered claim over.
    assert ledger.claim(["message:C1:1.0"], 4.0, owner="A")
    assert ledger.claim(["message:C1:1.0"], 5.0, owner="E")
    assert not ledger.settle(["message:C1:1.0"], "A")
    assert ledger.settle(["message:C1:1.0"], "E")
    # A claim nobody owes an answer (a reaction, a click) is settled at once.
    assert ledger.claim(["event:R1"], 6.0)
    assert not ledger.claim(["event:R1"], 7.0, owner="E")
    assert ("event:R1", 6.0) in ledger.recent(10)
    stores.close()
