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
