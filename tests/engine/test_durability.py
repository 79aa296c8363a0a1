"""Nothing the brain acknowledged is lost when its process is killed (`kill -9`).

A child process decides and takes feedback in a loop, printing each decision id once
`Brain.ask` returned and each feedback once `Brain.feedback` returned; it is killed after a
random number of acknowledgements. Every acknowledged decision, feedback item and memory
lesson must be in the store afterwards, and every store must open. Before acknowledgement was
durable, the decision log wrote behind and a kill lost the last acknowledged records.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from brain.engine import Brain
from core.config import Settings
from core.stores import open_stores

CHILD = r"""
import json, sys
from brain.engine import Brain
from core.records import Message

brain = Brain.open()
index = 0
while True:
    decision = brain.ask(Message(f"VPN error 691 on laptop {index}", user="u1", channel="C1"))
    print(json.dumps({"decision": decision.decision_id}), flush=True)
    brain.feedback(decision.decision_id, "correct", controller="access", user="u1")
    print(json.dumps({"feedback": decision.decision_id}), flush=True)
    index += 1
"""


#: A burst of feedback from many people on a few decisions, each acknowledged once recorded.
BURST = r"""
import json, sys
from brain.engine import Brain
from core.records import Message

brain = Brain.open()
ids = [
    brain.decide(Message(f"the money for order {n} has still not arrived", user="u1",
                         channel="C1")).decision_id
    for n in (88231, 99127, 55123)
]
targets = ["consultation", "incident", "access"]
index = 0
while True:
    decision_id = ids[index % 3]
    brain.feedback(decision_id, "correct", controller=targets[index % 3], user=f"p{index}")
    print(json.dumps({"feedback": decision_id, "user": f"p{index}"}), flush=True)
    index += 1
"""


def _kill_after(home: Path, acknowledgements: int, child_code: str = CHILD) -> list[dict[str, str]]:
    env = {**os.environ, "BRAIN_HOME": str(home)}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    child = subprocess.Popen(
        [sys.executable, "-c", child_code], stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    seen: list[dict[str, str]] = []
    try:
        for line in child.stdout:
            seen.append(json.loads(line))
            if len(seen) >= acknowledgements:
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kill_9_loses_nothing_acknowledged(home: Path, seed: int) -> None:
    acknowledgements = random.Random(seed).randint(4, 24)
    seen = _kill_after(home, acknowledgements)
    assert len(seen) == acknowledgements

    stores = open_stores(Settings(home=home))
    for store in ("tickets", "events", "links", "alerts", "manifest"):
        getattr(stores, store)  # every store opens
    lessons = stores.lessons.all()
    stores.close()
    brain = Brain.open()
    try:
        for row in seen:
            decision_id = row.get("decision") or row["feedback"]
            decision = brain.get_decision(decision_id)
            if "feedback" in row:
                assert [f.controller for f in decision.feedback] == ["access"]
                lesson_kinds = {
                    lesson["kind"] for lesson in lessons if lesson["decision_id"] == decision_id
                }
                assert "correction-right" in lesson_kinds
    finally:
        brain.close()


@pytest.mark.parametrize("seed", [4, 5])
def test_kill_9_during_a_feedback_burst_loses_no_acknowledged_lesson(home: Path, seed: int) -> None:
    from brain.memory import MemoryStore

    acknowledgements = random.Random(seed).randint(10, 40)
    seen = _kill_after(home, acknowledgements, BURST)
    assert len(seen) == acknowledgements

    stores = open_stores(Settings(home=home))
    memory = MemoryStore(stores.lessons)  # what a process opened after the crash sees
    taught = {(e.decision_id, e.user) for e in memory.entries() if e.kind == "correction-right"}
    version = stores.lessons.version()
    stores.close()
    assert {(row["feedback"], row["user"]) for row in seen} <= taught
    assert version >= len(taught)
    with Brain.open() as brain:
        for row in seen:
            users = {f.user for f in brain.get_decision(row["feedback"]).feedback}
            assert row["user"] in users
