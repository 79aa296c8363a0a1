"""A person's resolution and the asker's "This solved it", as every surface offers them.

The person who takes a message the brain could not place (Slack's "Send to a person" or
"Send to team …", `/resolve` in `brain chat`) types a route ("this is for `ticket`") or a short
plan ("ask facilities in #facilities"); it is read by `brain.dynamic.resolution.parse_resolution`
and recorded through the brain's one resolution API (`Brain.resolve`, what `brain resolve`
calls), so three alike become an evolved controller whatever surface they came from. The
asker's "This solved it" is a confirmation of the decision, which the case book counts
(`brain.dynamic.evolution.Evolution.after_feedback`).
"""

from __future__ import annotations

from typing import Any

from brain.conversation.reply import Reply, decision_reply, label_of
from brain.conversation.wording import say
from core.errors import InvalidFeedback, UnknownController, UnknownDecision

__all__ = ["resolve", "solved"]


def resolve(conversation: Any, decision_id: str, text: str, *, user: str) -> Reply:
    """Record `user`'s typed resolution of a decision. The reply's `headline` says what was
    done (for the asker), its `result_lines` whether it completed an evolved controller (for
    the person), its text both. An unusable resolution is an error reply naming what is
    known."""
    from brain.dynamic.resolution import parse_resolution

    labels = conversation.labels()
    try:
        route, plan = parse_resolution(text, list(labels))
        resolution = conversation.brain.resolve(decision_id, route=route, plan=plan, user=user)
        decision = conversation.brain.get_decision(decision_id)
    except UnknownController as exc:
        return Reply("error", f"{exc}. Name one of: {', '.join(labels)}, or write what you did.")
    except (InvalidFeedback, UnknownDecision) as exc:
        return Reply("error", str(exc))
    done = resolution.plan
    if route is not None:
        what = f"it is for {label_of(labels, route)}"
    elif done.steps:
        what = f"{done.note} ({done.describe()})"
    else:
        what = done.note
    lines = []
    if resolution.evolved:
        pending = resolution.evolved not in conversation.brain.registry.names()
        lines.append(
            f"Resolved the same way three times: the evolved controller {resolution.evolved} "
            + (
                f"waits for approval (brain controllers approve {resolution.evolved})."
                if pending
                else "now takes requests like this."
            )
        )
    text = " ".join([f"Recorded the resolution: {what}.", *lines])
    return decision_reply(
        "feedback", text, decision, labels, controller=route, lines=lines, head=what
    )


def solved(conversation: Any, decision_id: str, *, user: str, source: str) -> Reply:
    """The asker says the resolution (or the answer) solved it: a confirmation."""
    try:
        decision = conversation.brain.feedback(decision_id, "confirm", user=user, source=source)
    except UnknownDecision as exc:
        return Reply("error", str(exc))
    zh = decision.in_chinese
    return decision_reply(
        "feedback", say("solved", zh), decision, conversation.labels_for(decision)
    )
