"""Three people agree about a message when each of them moved a message like it to the same
controller, even where their own three messages are less alike to one another: the projector,
the HDMI adapter and the room camera of one meeting room are three wordings of "the meeting-room
equipment is broken", and a fourth person's message naming them together moves with them. Before,
the nearest correction's own group (the corrections within LINK of it) had to hold all three."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Message

TARGET = "alarm"
#: Three people's own messages; each is alike to the fourth person's, not all to one another.
TAUGHT = [
    ("U1", "the projector bulb in the big conference room is dead"),
    ("U2", "HDMI adapter missing from the table in meeting room 4"),
    ("U3", "zoom camera on the boardroom wall is not detected by the room pc"),
]
FOURTH = [
    "meeting room equipment broken: projector, hdmi and camera not working",
    "nothing in the boardroom works, no projector and the camera is not found",
]


def test_three_people_who_each_moved_a_message_like_it_move_a_fourth_persons(
    brain: Brain,
) -> None:
    before = [brain.decide(Message(t, user="U4", channel=f"C-b{i}")) for i, t in enumerate(FOURTH)]
    assert TARGET not in [d.controller for d in before]
    for user, text in TAUGHT:
        decision = brain.ask(Message(text, user=user, channel=f"C-{user}"))
        assert decision.controller != TARGET
        brain.feedback(decision.decision_id, "correct", controller=TARGET, user=user)

    after = [brain.decide(Message(t, user="U4", channel=f"C-a{i}")) for i, t in enumerate(FOURTH)]

    assert [d.controller for d in after] == [TARGET] * len(FOURTH), [d.rationale for d in after]
    assert all("3 people moved messages like this" in d.rationale for d in after)
