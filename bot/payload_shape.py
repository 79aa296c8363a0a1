"""Is a signed Slack payload shaped like one? Checked before Bolt sees it, because Bolt's
matchers index into it (``body["actions"][0]``, ``body["event"]["type"]``) and a signed but
malformed payload (``actions: []``, ``actions: "x"``, ``event: "x"``) raised there: a 500 and
a traceback per request. A payload that fails here gets 400 and one log line."""

from __future__ import annotations

from typing import Any

__all__ = ["well_formed"]

#: Keys that Slack always sends as objects when it sends them.
_OBJECTS = ("event", "user", "channel", "container", "message", "team", "view", "authorizations")


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def well_formed(body: dict[str, Any]) -> bool:
    """True when every part Bolt reads has the type Slack gives it."""
    for key in _OBJECTS:
        if key in body and not (
            _is_object(body[key]) or (key == "authorizations" and isinstance(body[key], list))
        ):
            return False
    if body.get("type") == "event_callback" and not _is_object(body.get("event")):
        return False
    if _is_object(body.get("event")) and not isinstance(body["event"].get("type", ""), str):
        return False
    if "actions" in body or body.get("type") == "block_actions":
        actions = body.get("actions")
        if not isinstance(actions, list) or not actions:
            return False
        if not all(_is_object(a) and isinstance(a.get("action_id"), str) for a in actions):
            return False
    return True
