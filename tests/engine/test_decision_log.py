"""The sharded TinyDB decision log, and the Brain used from several threads at once."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from brain.decisions.log import DecisionLog
from brain.engine import Brain
from core.errors import UnknownDecision
from core.records import Decision, FeedbackRecord, Message
from core.stores.tinydb.decisions import TinyDecisionStore


def test_decisions_are_sharded_indexed_and_survive_reopening(
    tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    log = DecisionLog(TinyDecisionStore(tmp_path / "decisions", shard_size=3))
    made = [make_decision(user=f"u{i % 2}", thread="T1" if i % 3 == 0 else None) for i in range(10)]
    for decision in made:
        log.append(decision)
    made[4].feedback.append(FeedbackRecord(kind="confirm", controller=None, user="u0"))
    log.update(made[4])
    log.close()

    shards = sorted((tmp_path / "decisions" / "shards").glob("*.json"))
    assert len(shards) == 4  # 3 + 3 + 3 + 1
    reopened = DecisionLog(TinyDecisionStore(tmp_path / "decisions", shard_size=3))
    try:
        for decision in made:
            assert reopened.get(decision.decision_id).decision_id == decision.decision_id
        assert reopened.get(made[4].decision_id).feedback == [
            FeedbackRecord(kind="confirm", controller=None, user="u0")
        ]
        last_u1 = reopened.last_for("u1", "C1")
        assert last_u1 is not None and last_u1.decision_id == made[9].decision_id
        thread_ids = [d.decision_id for d in reopened.session("C1:T1")]
        assert thread_ids == [made[i].decision_id for i in (0, 3, 6, 9)]
        with pytest.raises(UnknownDecision):
            reopened.get("d-000000000000")
        with pytest.raises(UnknownDecision):
            reopened.update(make_decision(user="x", channel="y"))
    finally:
        reopened.close()


def test_queued_decisions_are_readable_before_they_reach_the_disk(
    tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    log = DecisionLog(TinyDecisionStore(tmp_path / "decisions", durable=False))
    decision = make_decision()
    log.append(decision)
    assert log.get(decision.decision_id).text == decision.text
    assert log.session_ids("C1:u1")[-1] == decision.decision_id
    log.close()


def test_the_brain_decides_from_many_threads_at_once(brain: Brain) -> None:
    texts = [
        "VPN 连不上，报错 691",
        "reset my AD password please",
        "disk /var 95% on app-03",
        "what is 滚仓?",
    ] * 4

    with ThreadPoolExecutor(max_workers=4) as pool:
        decisions = list(
            pool.map(
                lambda pair: brain.decide(Message(pair[1], user=f"u{pair[0]}", channel="C")),
                enumerate(texts),
            )
        )

    ids = {d.decision_id for d in decisions}
    assert len(ids) == len(texts)
    brain.close()
    reopened = Brain.open()
    try:
        for decision in decisions:
            assert reopened.get_decision(decision.decision_id).text == decision.text
    finally:
        reopened.close()
