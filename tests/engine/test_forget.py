"""`brain memory forget --user U1`: no text of U1's is left in any file under BRAIN_HOME,
their decisions stay (redacted), and their messages route as before the lesson."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from brain.engine import Brain
from core.records import Message

ORIGINAL = "the money for order 88231 has still not arrived"
PARAPHRASES = [
    "order 99127: funds still not received",
    "钱没到，订单 77102",
    "payment for order 40211 not arrived yet",
]


def _cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "brain", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _files_holding(home: Path, texts: list[str]) -> list[str]:
    forms = [t.encode() for t in texts] + [json.dumps(t).strip('"').encode() for t in texts]
    return [
        str(path.relative_to(home))
        for path in home.rglob("*")
        if path.is_file() and any(form in path.read_bytes() for form in forms)
    ]


def test_forget_leaves_no_text_of_the_user_and_undoes_the_lesson(home: Path) -> None:
    with Brain.open() as brain:
        first = brain.ask(Message(ORIGINAL, user="U1", channel="C1"))
        assert first.controller == "ticket"
        brain.feedback(first.decision_id, "correct", controller="consultation", user="U1")
        learned = [brain.ask(Message(t, user="U1", channel="C2")) for t in PARAPHRASES]
        assert sum(d.controller == "consultation" for d in learned) >= 2
        kept = brain.ask(Message("my VPN keeps dropping, error 691", user="U9", channel="C9"))
    assert _files_holding(home, [ORIGINAL, *PARAPHRASES])  # precondition: the texts are kept
    shown = json.loads(_cli("memory", "show", "--user", "U1", "--json"))
    assert {lesson["kind"] for lesson in shown} == {"correction-wrong", "correction-right"}

    report = json.loads(_cli("memory", "forget", "--user", "U1", "--json"))

    assert report["lessons"] == 2 and report["decisions"] >= 4
    assert _files_holding(home, [ORIGINAL, *PARAPHRASES]) == []
    assert json.loads(_cli("memory", "show", "--user", "U1", "--json")) == []
    with Brain.open() as brain:
        forgotten = brain.get_decision(first.decision_id)
        assert forgotten.text == "[forgotten]" and forgotten.controller == "ticket"
        assert forgotten.feedback == []
        assert brain.get_decision(kept.decision_id).text == kept.text  # others' stay
        again = [brain.decide(Message(t, user="U1", channel="C3")) for t in PARAPHRASES]
    assert all(d.controller != "consultation" for d in again), [d.tier_path for d in again]
    assert not any(d.preference for d in again)
