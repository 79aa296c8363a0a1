"""Nothing the brain acknowledged is lost when its process is killed (`kill -9`).

A child process decides and takes feedback in a burst, printing each decision id once
`Brain.ask` returned and each feedback once `Brain.feedback` returned; it is killed (ten times,
each on the home the previous kill left) a random time after a random number of
acknowledgements. Every acknowledged decision, feedback item and memory lesson must be in the
store afterwards, and every store must open. Before acknowledgement was durable, the decision
log wrote behind and 8 of 10 such kills lost the last acknowledged feedback.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.engine import Brain
from core.config import Settings
from core.errors import UnknownDecision
from core.stores import open_stores

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


def _kill_after(home: Path, acknowledgements: int, child_code: str) -> list[dict[str, str]]:
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


#: Two threads asking and giving feedback at once (as the bot's workers do), on a warmed brain;
#: each line is printed once its call returned, i.e. once it was acknowledged.
MIXED = r"""
import json, sys, threading
from brain.engine import Brain
from core.records import Message

round_ = sys.argv[1]
brain = Brain.open()
brain.warm()
printing = threading.Lock()

def say(row):
    with printing:
        print(json.dumps(row), flush=True)

def burst(worker):
    index = 0
    while True:
        text = f"VPN error 691 on laptop {round_}-{worker}-{index}"
        decision = brain.ask(Message(text, user=f"u{worker}", channel="C1"))
        say({"decision": decision.decision_id})
        brain.feedback(decision.decision_id, "correct", controller="access", user=f"u{worker}")
        say({"feedback": decision.decision_id})
        index += 1

for worker in range(2):
    threading.Thread(target=burst, args=(worker,), daemon=True).start()
threading.Event().wait()
"""

#: Kills, each on the home the previous kill left behind.
KILLS = 10


def _kill_at_a_random_time(home: Path, rng: random.Random, round_: int) -> list[dict[str, str]]:
    """Start the burst, let it acknowledge a random number of writes, then `kill -9` it a
    random fraction of a second later (mid-ask, mid-feedback, mid-checkpoint, mid-fsync) and
    return every line it printed: each one an acknowledged write."""
    env = {**os.environ, "BRAIN_HOME": str(home)}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    child = subprocess.Popen(
        [sys.executable, "-c", MIXED, str(round_)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    seen: list[dict[str, str]] = []
    try:
        wanted = rng.randint(1, 12)
        for line in child.stdout:
            seen.append(json.loads(line))
            if len(seen) >= wanted:
                break
        time.sleep(rng.uniform(0.0, 0.25))
    finally:
        child.send_signal(signal.SIGKILL)
        # Read through the text stream, not `communicate(timeout=...)`: that reads the pipe's
        # file descriptor and misses the lines the loop above had already buffered, so a
        # feedback line could arrive without its decision line.
        rest = child.stdout.read()
        child.wait(timeout=60)
    seen.extend(json.loads(line) for line in rest.splitlines())  # printed before the kill
    assert child.returncode == -signal.SIGKILL
    return seen


def _every_store_opens(home: Path) -> None:
    stores = open_stores(Settings(home=home))
    try:
        for store in ("decisions", "lessons", "tickets", "events", "links", "alerts", "manifest"):
            getattr(stores, store)
        stores.lessons.all()
        stores.tickets.all()
    finally:
        stores.close()


@pytest.mark.slow
def test_ten_random_kill_9s_during_asks_and_feedback_lose_nothing_acknowledged(home: Path) -> None:
    rng = random.Random(14)
    seen: list[dict[str, str]] = []
    for round_ in range(KILLS):
        acknowledged = _kill_at_a_random_time(home, rng, round_)
        assert acknowledged, f"kill {round_}: nothing was acknowledged before the kill"
        seen.extend(acknowledged)
        _every_store_opens(home)  # and the next round's brain opens on what this kill left

    decided = [row["decision"] for row in seen if "decision" in row]
    corrected = [row["feedback"] for row in seen if "feedback" in row]
    assert len(set(decided)) == len(decided)
    stores = open_stores(Settings(home=home))
    try:
        found = {}
        for decision_id in decided:
            try:
                found[decision_id] = stores.decisions.get_many([decision_id])[0]
            except UnknownDecision:
                continue
        lessons = stores.lessons.all()
    finally:
        stores.close()
    taught = {lesson.decision_id for lesson in lessons if lesson.kind == "correction-right"}
    assert [i for i in decided if i not in found] == []  # 0 acknowledged decisions lost
    lost_feedback = [
        i for i in corrected if [f.controller for f in found[i].feedback] != ["access"]
    ]
    assert lost_feedback == []  # 0 acknowledged feedback lost
    assert [i for i in corrected if i not in taught] == []  # 0 acknowledged lessons lost
    assert len(found) == len(decided) and len(taught) >= len(corrected)


@pytest.mark.parametrize("seed", [4, 5])
def test_kill_9_during_a_feedback_burst_loses_no_acknowledged_lesson(home: Path, seed: int) -> None:
    from brain.memory.lessons import LessonRecall

    acknowledgements = random.Random(seed).randint(10, 40)
    seen = _kill_after(home, acknowledgements, BURST)
    assert len(seen) == acknowledgements

    stores = open_stores(Settings(home=home))
    memory = LessonRecall(stores.lessons)  # what a process opened after the crash sees
    taught = {(e.decision_id, e.user) for e in memory.entries() if e.kind == "correction-right"}
    version = stores.lessons.version()
    stores.close()
    assert {(row["feedback"], row["user"]) for row in seen} <= taught
    assert version >= len(taught)
    with Brain.open() as brain:
        for row in seen:
            users = {f.user for f in brain.get_decision(row["feedback"]).feedback}
            assert row["user"] in users
