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


def _kill_after(home: Path, acknowledgements: int) -> list[dict[str, str]]:
    env = {**os.environ, "BRAIN_HOME": str(home)}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True, env=env
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
