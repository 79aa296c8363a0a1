"""Is a signed Slack payload shaped like one? Checked before Bolt routes it, because Bolt's
matchers index into it (``body["actions"][0]``, ``body["event"]["type"]``,
``body["view"]["callback_id"]``, ``body["view"]["type"]`` to tell a workflow step's save from
a modal's submission) and match ids with regular expressions, and the listeners read what
Slack always sends (a shortcut's message ``ts``, a modal's inputs) without checking: a signed
but malformed payload (``actions: []``, ``actions: "x"``, ``event: "x"``, ``action_id: false``,
a shortcut without ``callback_id``, a view without ``type``) raised there, a 500 and a
traceback per request. A payload that fails here gets 400 and one log line (the fuzz test over
HTTP: tests/fuzz/test_fuzz_slack_payloads.py)."""

from __future__ import annotations

from typing import Any

__all__ = ["well_formed"]

#: Keys that Slack always sends as objects when it sends them.
_OBJECTS = ("event", "user", "channel", "container", "message", "team", "view")
#: Keys that Slack always sends as strings when it sends them (Bolt matches them as text).
_STRINGS = ("type", "action_id", "callback_id", "command", "block_id", "response_url")
#: Payload types whose matcher reads `callback_id` unconditionally.
_NEEDS_CALLBACK = ("shortcut", "message_action")
_VIEW_TYPES = ("view_submission", "view_closed")
#: Events Slack always sends with the acting user's id as text.
_USER_EVENTS = ("app_home_opened", "app_mention", "reaction_added", "reaction_removed")
#: What Slack always sends with each kind of payload, and its type, as (path, type): the
#: listeners read these without checking (`body["user"]["id"]`, `command["trigger_id"]`).
_REQUIRED: dict[str, tuple[tuple[tuple[str, ...], type], ...]] = {
    "view_submission": ((("user", "id"), str), (("view", "state", "values"), dict)),
    "block_suggestion": ((("user", "id"), str),),
    "block_actions": ((("user", "id"), str),),
    "message_action": (
        (("user", "id"), str),
        (("channel", "id"), str),
        (("message",), dict),
        (("message", "ts"), str),
    ),
    "workflow_step_edit": ((("workflow_step",), dict),),
    "command": (
        (("command",), str),
        (("user_id",), str),
        (("channel_id",), str),
        (("trigger_id",), str),
    ),
}


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _is_url(value: Any) -> bool:
    """Slack's response URLs are absolute http(s) URLs (or empty, when it sends none)."""
    return isinstance(value, str) and (value == "" or value.startswith(("https://", "http://")))


def _typed_parts(body: dict[str, Any]) -> bool:
    """Every part Bolt reads, where present, has the type Slack gives it."""
    if any(key in body and not _is_object(body[key]) for key in _OBJECTS):
        return False
    if any(key in body and not isinstance(body[key], str) for key in _STRINGS):
        return False
    if "response_url" in body and not _is_url(body["response_url"]):
        return False
    urls = body.get("response_urls", [])
    if not isinstance(urls, list) or not all(
        _is_object(u) and _is_url(u.get("response_url", "")) for u in urls
    ):
        return False
    authorizations = body.get("authorizations", [])
    return isinstance(authorizations, list) and all(_is_object(a) for a in authorizations)


def _at(body: Any, path: tuple[str, ...]) -> Any:
    """The value at `path`, or None when a step is missing or not an object."""
    for key in path:
        if not _is_object(body):
            return None
        body = body.get(key)
    return body


def _carries(body: dict[str, Any], kind: str) -> bool:
    """The parts Slack always sends with this kind of payload are there, typed; a view's
    state is blocks of actions of objects."""
    if not all(isinstance(_at(body, path), want) for path, want in _REQUIRED.get(kind, ())):
        return False
    values = _at(body, ("view", "state", "values"))
    if kind != "view_submission" or not _is_object(values):
        return True
    return all(
        _is_object(block) and all(_input_typed(action) for action in block.values())
        for block in values.values()
    )


def _input_typed(action: Any) -> bool:
    """A modal's input as Slack sends it: typed text (null when left empty), a chosen option."""
    if not _is_object(action):
        return False
    value = action.get("value")
    return (value is None or isinstance(value, str)) and _option_typed(action)


def _option_typed(action: dict[str, Any]) -> bool:
    """A chosen option, where present, is an object with a text value (null when none is)."""
    option = action.get("selected_option", {})
    return option is None or (_is_object(option) and isinstance(option.get("value", ""), str))


def _view_typed(body: dict[str, Any]) -> bool:
    """A view names its callback and its type as text (Bolt reads both to route it), keeps
    its metadata as text, and a workflow step's view comes with its step."""
    view = body.get("view")
    if not isinstance(view, dict):
        return False
    if not isinstance(view.get("callback_id"), str) or not isinstance(view.get("type"), str):
        return False
    if not isinstance(view.get("private_metadata", ""), str):
        return False
    return view["type"] != "workflow_step" or _is_object(body.get("workflow_step"))


def well_formed(body: dict[str, Any]) -> bool:
    """True when every part Bolt reads has the type Slack gives it, and each kind of payload
    carries the parts its matcher reads."""
    if not _typed_parts(body):
        return False
    kind = "command" if "command" in body else body.get("type")
    if isinstance(kind, str) and not _carries(body, kind):
        return False
    if kind == "event_callback" and not _is_object(body.get("event")):
        return False
    event = body.get("event")
    if isinstance(event, dict) and not _event_typed(event):
        return False
    if kind in _NEEDS_CALLBACK and "callback_id" not in body:
        return False
    if kind in _VIEW_TYPES and not _view_typed(body):
        return False
    if "actions" in body or kind == "block_actions":
        actions = body.get("actions")
        if not isinstance(actions, list) or not actions:
            return False
        if not all(_is_object(a) and _action_typed(a) for a in actions):
            return False
    return True


def _event_typed(event: dict[str, Any]) -> bool:
    """An event has a text type; those Slack always sends with a user id carry one."""
    kind = event.get("type")
    if not isinstance(kind, str):
        return False
    return kind not in _USER_EVENTS or isinstance(event.get("user"), str)


def _action_typed(action: dict[str, Any]) -> bool:
    """A clicked element as Slack sends it: ids and values are text, a chosen option an
    object with a text value."""
    if not isinstance(action.get("action_id"), str):
        return False
    if any(k in action and not isinstance(action[k], str) for k in ("block_id", "value")):
        return False
    return _option_typed(action)
