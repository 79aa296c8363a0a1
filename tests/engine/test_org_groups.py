"""The correction groups behind organisation lessons (`brain.learning.org_lessons.MoveGroups`) are
kept
up to date from the lesson feed: a new correction looks up only its own neighbourhood, the
result is what a full recomputation gives, and a later process starts from the saved groups."""

from __future__ import annotations

from pathlib import Path

from brain.engine import Brain
from brain.learning.org_lessons import MoveGroups, org_rows
from brain.memory.example_pool import LINKING
from core.records import Message

MOVES = [
    ("the money for order 88231 has still not arrived", "U1"),
    ("money for order 51234 still has not arrived", "U2"),
    ("the money for order 66001 has not arrived yet", "U3"),
    ("my laptop battery swells and the case bends", "U4"),
    ("printer on floor 3 prints blank pages", "U5"),
]


def _correct(brain: Brain, text: str, user: str, to: str = "consultation") -> None:
    decision = brain.decide(Message(text, user=user, channel=f"C-{user}"))
    brain.feedback(decision.decision_id, "correct", controller=to, user=user)


def _full(brain: Brain) -> list[tuple[str, str, tuple[str, ...]]]:
    """The rows as a from-scratch computation gives them."""
    fresh = MoveGroups(None, linked=brain.agreed_examples.linked, linking=LINKING)
    rows = org_rows(
        brain.memory,
        names=list(brain.registry.names()),
        agreement=brain.settings.memory.agreement_users,
        groups=fresh,
    )
    return [(r.text, r.controller, r.users) for r in rows]


def test_a_new_correction_regroups_only_its_neighbourhood(home: Path) -> None:
    with Brain.open() as brain:
        for text, user in MOVES:
            _correct(brain, text, user)
        groups = brain.org_training.groups
        first = [(r.text, r.controller, r.users) for r in brain.org_training.rows()]
        # Each decision kept the groups current (organisation lessons are recalled by
        # meaning), so only the correction given after the last decision is looked up.
        assert groups.looked_up == 1
        assert first == _full(brain)
        assert {users for _, _, users in first} == {("U1", "U2", "U3")}

        _correct(brain, "printer on floor 5 prints blank pages", "U6")
        second = [(r.text, r.controller, r.users) for r in brain.org_training.rows()]

        assert groups.looked_up < len(MOVES)  # itself and the printer message, not all
        assert second == _full(brain)
        unchanged = [(r.text, r.controller, r.users) for r in brain.org_training.rows()]
        assert unchanged == second and groups.looked_up < len(MOVES)

    with Brain.open() as brain:  # a later process: the saved groups, nothing looked up
        again = [(r.text, r.controller, r.users) for r in brain.org_training.rows()]
        assert brain.org_training.groups.looked_up == 0
        assert again == second == _full(brain)
    assert (home / "models" / "org-groups.json").is_file()


#: Three people's own words for one request, 0.38-0.44 apart by the embedding: too far apart
#: for the memory's near-copy similarity, alike enough for the agreed examples (LINK).
OWN_WORDS = [
    ("our team needs a bigger quota on the shared drive", "U1"),
    ("can the storage limit of the finance share be raised", "U2"),
    ("we ran out of space on the marketing file share", "U3"),
]


def test_the_refit_learns_the_groups_that_move_everyone_online(home: Path) -> None:
    """Before, the refit grouped corrections by the memory's near-copy similarity: three
    people's own wordings of one request moved a fourth person's paraphrases online (agreed
    examples) and gave the refit no row at all."""
    with Brain.open() as brain:
        for text, user in OWN_WORDS:
            _correct(brain, text, user, to="consultation")
        rows = brain.org_training.rows()
        online = brain.agreed_examples.agreed(brain.settings.memory.agreement_users)

    assert sorted(r.text for r in rows) == sorted(text for text, _ in OWN_WORDS)
    assert {r.users for r in rows} == {("U1", "U2", "U3")}
    assert {r.controller for r in rows} == {"consultation"}
    assert sorted(r.text for r in rows) == sorted(e.text for g in online for e in g.members)
