"""Several processes on one brain home: nothing any of them acknowledged is lost.

Each worker process appends decisions, tickets and memory lessons and, at the same time, gives
feedback on the decisions of the other worker (read back from the shared store), printing each
id once its call returned.
Before stores took an inter-process lock, both processes read, modified and rewrote the same
files, and one silently lost the other's records.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.config import Settings
from core.stores import open_stores

WORKER = r"""
import json, sys, time
from pathlib import Path
from core.config import Settings
from core.records import Decision, IntentResult
from core.stores import open_stores
from core.stores.lesson import Lesson
from core.stores.records import Ticket

home, me, other, count = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
stores = open_stores(Settings(home=home))
start = home / "start"
while not start.exists():
    time.sleep(0.001)
given: set[str] = set()
for index in range(count):
    decision = Decision(
        decision_id=f"d-{me}-{index:04d}", text=f"message {index} from {me}", user=me,
        channel="C", thread=None, controller="incident", supporting=[], confidence=0.5,
        tier="verify", outcome="routed", escalate=False, urgency="low",
        intent=IntentResult.from_dict({}, urgency="low", entities={}),
        entities={}, signals={}, rationale="",
    )
    stores.decisions.append(decision)
    print(json.dumps({"decision": decision.decision_id}), flush=True)
    stores.tickets.insert(Ticket(id=f"T-{me}-{index}", kind="incident", title="x", requester=me))
    print(json.dumps({"ticket": f"T-{me}-{index}"}), flush=True)
    lesson = Lesson(memory_id=f"m-{me}-{index}", controller="incident", weight=0.1,
                    kind="confirmation", text="", decision_id=decision.decision_id, user=me,
                    created_at="")
    stores.lessons.put_many([lesson])
    print(json.dumps({"lesson": lesson.memory_id}), flush=True)
    for decision_id in stores.decisions.session_ids(f"C:{other}"):
        if decision_id not in given:
            stores.feedback.add_feedback(
                decision_id, {"kind": "confirm", "controller": None, "user": me, "source": "t"}
            )
            given.add(decision_id)
            print(json.dumps({"feedback": decision_id}), flush=True)
stores.close()
"""


def _run_workers(home: Path, count: int) -> list[dict[str, str]]:
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": "/usr/bin:/bin"}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(home), me, other, str(count)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for me, other in (("p1", "p2"), ("p2", "p1"))
    ]
    (home / "start").touch()
    acknowledged: list[dict[str, str]] = []
    for worker in workers:
        out, _ = worker.communicate(timeout=300)
        assert worker.returncode == 0
        acknowledged.extend(json.loads(line) for line in out.splitlines())
    return acknowledged


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    acknowledged = _run_workers(home, count=60)

    stores = open_stores(Settings(home=home))
    decision_ids = [row["decision"] for row in acknowledged if "decision" in row]
    feedback_ids = [row["feedback"] for row in acknowledged if "feedback" in row]
    assert len(decision_ids) == 120
    assert len(feedback_ids) > 0
    stored = {d.decision_id: d for d in stores.decisions.get_many(decision_ids)}
    tickets = [row["ticket"] for row in acknowledged if "ticket" in row]
    assert len(tickets) == 120
    assert [t for t in tickets if stores.tickets.get(t) is None] == []
    lessons = [row["lesson"] for row in acknowledged if "lesson" in row]
    assert len(lessons) == 120
    assert [m for m in lessons if stores.lessons.get(m) is None] == []
    assert stores.lessons.count() == 120
    assert stores.lessons.version() == 120  # the change feed counted every write
    lost_feedback = [d for d in feedback_ids if not stored[d].feedback]
    assert lost_feedback == []
    for user in ("p1", "p2"):
        assert len(stores.decisions.session_ids(f"C:{user}")) == 50  # the session keeps 50
    stores.close()
