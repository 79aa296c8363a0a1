"""Block Kit views, built with slack_sdk's models so Slack's limits are checked.

Every view is a pure function of its arguments: a `Reply` carries its labels, choices and
rationale, so drawing a message never calls back into the brain. Text that would pass a limit
is shortened (with an ellipsis), never rejected. Text that comes from users or controllers is
escaped, so it cannot ping `<!channel>` or forge a link.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    MarkdownTextObject,
    Option,
    PlainTextObject,
    SectionBlock,
    StaticSelectElement,
)

from bot.wording import say
from brain import NONE_OF_THESE, Choice, Reply
from core.text.shortening import shorten
from core.wording import wording, wording_for

SECTION_TEXT = SectionBlock.text_max_length  # 3000
BUTTON_TEXT = ButtonElement.text_max_length  # 75
BUTTON_VALUE = ButtonElement.value_max_length  # 2000
OPTION_TEXT = Option.label_max_length  # 75
OPTION_VALUE = Option.value_max_length  # 150
SELECT_OPTIONS = StaticSelectElement.options_max_length  # 100
PLACEHOLDER = StaticSelectElement.placeholder_max_length  # 150
CONTEXT_TEXT = 2000
ACTIONS_ELEMENTS = ActionsBlock.elements_max_length  # 25
MESSAGE_BLOCKS = 50
#: Top-level `text` of a message (notification fallback); Slack truncates past 40,000.
FALLBACK_TEXT = 3000

ACTION_CONFIRM = "brain_confirm"
ACTION_REROUTE = "brain_reroute"
ACTION_CLARIFY_PREFIX = "brain_clarify_"
ACTION_ACK = "brain_oncall_ack"
#: An honest boundary's or a clarification's "Send to a person" (on-call is paged and asked
#: to resolve it in the alert's thread).
ACTION_HANDOFF = "brain_handoff"
#: "Send to team ..." (one button a configured team, numbered; the value is the team's name).
ACTION_SEND_TEAM = "brain_send_team_"
#: The person's "Resolve: route to..." select on a resolution prompt.
ACTION_RESOLVE = "brain_resolve"
#: The asker's "This solved it" under a person's resolution.
ACTION_SOLVED = "brain_solved"
#: "Say why" under the reply to a thumbs-down: opens the reason modal (`bot.listeners.reasons`).
ACTION_REASON = "brain_reason"
#: block_id prefixes carrying the decision id of the actions inside.
BLOCK_DECISION = "brain_decision:"
BLOCK_CLARIFY = "brain_clarify:"
BLOCK_REROUTE = "brain_reroute:"
BLOCK_ALERT = "brain_alert:"
BLOCK_RESOLVE = "brain_resolve:"
BLOCK_REASON = "brain_reason:"
#: What a person replies in a resolve prompt's thread to route it (read as a route by
#: `brain.dynamic.resolution`), shown in every language as typed.
RESOLVE_COMMAND = "this is for <controller>"


def escape(text: str) -> str:
    """Escape Slack's control characters in untrusted text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: A web address: its scheme and host (defanged by `defang`).
_URL = re.compile(r"\b(h)tt(ps?)://([^\s/?#<>|]+)", re.IGNORECASE)


def defang(text: str) -> str:
    """Web addresses in untrusted text made unclickable but readable, the way security teams
    quote evidence: `https://evil.example/login` -> `hxxps://evil[.]example/login`."""
    return _URL.sub(lambda m: f"{m[1]}xx{m[2]}://{m[3].replace('.', '[.]')}", text)


def _section(text: str, block_id: str | None = None, *, verbatim: bool = False) -> SectionBlock:
    """A mrkdwn section; `verbatim`: Slack links and mentions nothing it was not given as
    markup (for quoted user text: no "@here" broadcast, no auto-linked address)."""
    markdown = MarkdownTextObject(text=shorten(text, SECTION_TEXT), verbatim=verbatim or None)
    return SectionBlock(text=markdown, block_id=block_id)


def _context(text: str, *, verbatim: bool = False) -> ContextBlock:
    markdown = MarkdownTextObject(text=shorten(text, CONTEXT_TEXT), verbatim=verbatim or None)
    return ContextBlock(elements=[markdown])


def _button(text: str, action_id: str, value: str, style: str | None = None) -> ButtonElement:
    return ButtonElement(
        text=PlainTextObject(text=shorten(text, BUTTON_TEXT), emoji=True),
        action_id=action_id,
        value=shorten(value, BUTTON_VALUE),
        style=style,
    )


def _select(
    placeholder: str | None, action_id: str, choices: Sequence[Choice]
) -> StaticSelectElement:
    """A menu of `choices` within Slack's limits (the first 100; a value too long is left
    out, a label shortened); no placeholder where the menu sits under its own label."""
    options = [
        Option(text=PlainTextObject(text=shorten(c.label, OPTION_TEXT)), value=c.value)
        for c in choices[:SELECT_OPTIONS]
        if len(c.value) <= OPTION_VALUE
    ]
    return StaticSelectElement(
        placeholder=(
            PlainTextObject(text=shorten(placeholder, PLACEHOLDER)) if placeholder else None
        ),
        action_id=action_id,
        options=options,
    )


def _fit_buttons(choices: Sequence[Choice]) -> list[Choice]:
    """At most one actions block of buttons; "None of these" is kept when candidates are cut."""
    if len(choices) <= ACTIONS_ELEMENTS:
        return list(choices)
    way_out = [c for c in choices if c.value == NONE_OF_THESE][:1]
    rest = [c for c in choices if c.value != NONE_OF_THESE]
    return rest[: ACTIONS_ELEMENTS - len(way_out)] + way_out


def to_dicts(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    """Validated JSON of the blocks (slack_sdk raises on any limit we failed to respect)."""
    return [block.to_dict() for block in blocks[:MESSAGE_BLOCKS]]


def fallback_text(text: str) -> str:
    """The notification text of a message."""
    return shorten(text, FALLBACK_TEXT)


def message_blocks(reply: Reply) -> list[dict[str, Any]]:
    """The blocks of any reply posted in a thread."""
    if reply.kind == "explain":
        return text_blocks(reply.text, code=True)
    if reply.kind == "feedback" and reply.choices and reply.decision is not None:
        return reroute_prompt_blocks(
            reply.decision.decision_id, reply.text, reply.choices, reply.decision.in_chinese
        )
    return reply_blocks(reply)


def reply_blocks(reply: Reply) -> list[dict[str, Any]]:
    """The in-thread answer to a message: decision and result, rationale, and actions."""
    decision = reply.decision
    blocks: list[Block] = [_section(escape(reply.text))]
    if decision is None:
        return to_dicts(blocks)
    zh = decision.in_chinese
    if reply.kind == "small_talk":  # "hello", "thanks": a plain reply, no buttons
        return to_dicts(blocks)
    if reply.kind == "clarify":
        buttons = [
            _button(c.label, f"{ACTION_CLARIFY_PREFIX}{i}", c.value)
            for i, c in enumerate(_fit_buttons(reply.choices))
        ]
        blocks.append(ActionsBlock(block_id=BLOCK_CLARIFY + decision.decision_id, elements=buttons))
        blocks.append(_context(escape(reply.rationale)))
        person = _button(say("person", zh), ACTION_HANDOFF, decision.decision_id)
        blocks.append(
            ActionsBlock(block_id=BLOCK_DECISION + decision.decision_id, elements=[person])
        )
        return to_dicts(blocks)
    if reply.parts:
        return to_dicts([*blocks, *_part_blocks(reply, zh), _context(escape(reply.rationale))])
    blocks.append(_context(escape(reply.rationale)))
    elements: list[Any] = []
    if reply.confirmable:
        elements.append(
            _button(say("right", zh), ACTION_CONFIRM, decision.decision_id, style="primary")
        )
    elif reply.kind == "fallback" and decision.result is not None and decision.result.ok:
        # The fallback ladder found an answer: confirming it is what evolution counts.
        elements.append(
            _button(say("solved", zh), ACTION_CONFIRM, decision.decision_id, style="primary")
        )
    if reply.kind == "fallback":
        elements.append(_button(say("person", zh), ACTION_HANDOFF, decision.decision_id))
    if reply.reroute_choices:
        elements.append(_select(say("route_elsewhere", zh), ACTION_REROUTE, reply.reroute_choices))
    if elements:
        blocks.append(
            ActionsBlock(block_id=BLOCK_DECISION + decision.decision_id, elements=elements)
        )
    return to_dicts(blocks)


def _part_blocks(reply: Reply, zh: bool) -> list[Block]:
    """Each request of a multi-intent reply with its own Right / Route elsewhere (its own
    decision id in the block id, so the listeners handle a click as for any decision)."""
    blocks: list[Block] = []
    for view in reply.parts:
        words = wording_for(zh)
        part = words.say(
            "common.parts_part",
            label=f"*{escape(view.label)}*",
            role=words.term("plan_roles", view.role),
        )
        head = words.say("common.parts_quoted", part=part, text=escape(view.text))
        blocks.append(_section("\n".join([head, *(escape(line) for line in view.lines)])))
        elements: list[Any] = [
            _button(say("right", zh), ACTION_CONFIRM, view.decision_id, style="primary"),
        ]
        if view.reroute_choices:
            elements.append(
                _select(say("route_elsewhere", zh), ACTION_REROUTE, view.reroute_choices)
            )
        blocks.append(ActionsBlock(block_id=BLOCK_DECISION + view.decision_id, elements=elements))
    return blocks


def with_team_sends(
    blocks: list[dict[str, Any]], decision_id: str, teams: Sequence[str], *, zh: bool = False
) -> list[dict[str, Any]]:
    """A reply's blocks with "Send to team ..." beside its "Send to a person" (one button a
    configured team, as many as the actions block holds)."""
    if not teams:
        return blocks
    drawn = []
    for block in blocks:
        elements = list(block.get("elements") or [])
        if block.get("block_id") == BLOCK_DECISION + decision_id and any(
            e.get("action_id") == ACTION_HANDOFF for e in elements
        ):
            room = ACTIONS_ELEMENTS - len(elements)
            sends = [
                _button(say("send_team", zh, team=team), f"{ACTION_SEND_TEAM}{i}", team).to_dict()
                for i, team in enumerate(teams[:room])
            ]
            block = {**block, "elements": [*elements, *sends]}
        drawn.append(block)
    return drawn


def resolve_prompt_blocks(
    decision_id: str, *, asker: str, text: str, team: str | None, choices: Sequence[Choice]
) -> list[dict[str, Any]]:
    """What a person (on-call, or a team) is asked: the asker's words and how to resolve them,
    with a "Resolve: route to..." select of every controller."""
    whom = say("desk.for_team", False, team=escape(team)) if team else ""
    head = say("desk.needs_person", False, asker=f"<@{asker}>", team=whom)
    how = say("desk.how_to_resolve", False, command=RESOLVE_COMMAND)
    blocks: list[Block] = [
        _section(head),
        _section("> " + escape(defang(text)).replace("\n", "\n> "), verbatim=True),
        _context(how),
        ActionsBlock(
            block_id=BLOCK_RESOLVE + decision_id,
            elements=[_select(say("desk.pick", False), ACTION_RESOLVE, choices)],
        ),
    ]
    return to_dicts(blocks)


def solved_blocks(decision_id: str, text: str) -> list[dict[str, Any]]:
    """A person's resolution told to the asker, with "This solved it"."""
    blocks: list[Block] = [
        _section(text),
        ActionsBlock(
            block_id=BLOCK_DECISION + decision_id,
            elements=[_button("This solved it", ACTION_SOLVED, decision_id, style="primary")],
        ),
    ]
    return to_dicts(blocks)


#: The one input of the "What was wrong?" modal (`reason_modal`), and the most it takes.
REASON_BLOCK, REASON_INPUT, REASON_MAX = "reason", "value", 2000


def reason_modal(
    callback_id: str, metadata: Mapping[str, str], zh: bool, *, optional: bool
) -> dict[str, Any]:
    """The "What was wrong?" modal after a thumbs-down, on a reply (`bot.listeners.reasons`) or on a
    ticket's "did this solve it?" (`bot.helpdesk.ticket_actions`); `metadata` says what it is
    about and rides in the view (Slack returns it on submission)."""
    view: dict[str, Any] = {
        "type": "modal",
        "callback_id": callback_id,
        "private_metadata": json.dumps(dict(metadata)),
        "title": {"type": "plain_text", "text": say("why_title", zh)},
        "submit": {"type": "plain_text", "text": say("why_submit", zh)},
        "blocks": [
            {
                "type": "input",
                "block_id": REASON_BLOCK,
                "optional": optional,
                "label": {"type": "plain_text", "text": say("why_label", zh)},
                "element": {
                    "type": "plain_text_input",
                    "action_id": REASON_INPUT,
                    "multiline": True,
                    "max_length": REASON_MAX,
                    "placeholder": {"type": "plain_text", "text": say("why_hint", zh)},
                },
            }
        ],
    }
    if optional:
        view["close"] = {"type": "plain_text", "text": say("why_skip", zh)}
    return view


def submitted_reason(values: Any) -> str:
    """The text typed into a `reason_modal` ("" when none, or the state is not as built)."""
    try:
        return str(values[REASON_BLOCK][REASON_INPUT].get("value") or "").strip()
    except (KeyError, TypeError, AttributeError):
        return ""


def reroute_prompt_blocks(
    decision_id: str, text: str, choices: Sequence[Choice], zh: bool = False
) -> list[dict[str, Any]]:
    """After a thumbs-down: "Route elsewhere", and "Say why" in a block of its own (each actions
    block takes one click, and saying why must not use up the route's)."""
    blocks: list[Block] = [
        _section(escape(text)),
        ActionsBlock(
            block_id=BLOCK_REROUTE + decision_id,
            elements=[_select(say("route_elsewhere", zh), ACTION_REROUTE, choices)],
        ),
        ActionsBlock(
            block_id=BLOCK_REASON + decision_id,
            elements=[_button(say("say_why", zh), ACTION_REASON, decision_id)],
        ),
    ]
    return to_dicts(blocks)


def resolved_blocks(
    original: Sequence[dict[str, Any]], note: str, block_id: str | None = None
) -> list[dict[str, Any]]:
    """The original message with its actions replaced by a note, so nobody clicks twice.

    With `block_id` (a multi-intent reply: one actions block per request) only that block is
    replaced, in place; the other requests keep their buttons."""
    if block_id and sum(1 for b in original if b.get("type") == "actions") > 1:
        note_block = _context(note).to_dict()
        return [note_block if b.get("block_id") == block_id else b for b in original]
    kept = [block for block in original if block.get("type") != "actions"]
    kept = kept[: MESSAGE_BLOCKS - 1]
    kept.append(_context(note).to_dict())
    return kept


def clarify_note(value: str, label: str, user: str, zh: bool = False) -> str:
    """What replaces the clarification buttons once answered (`zh`: in Chinese)."""
    if value == NONE_OF_THESE:
        return say("none_by", zh, user=f"<@{user}>")
    return say("routed_by", zh, label=escape(label), user=f"<@{user}>")


def text_blocks(text: str, *, code: bool = False) -> list[dict[str, Any]]:
    """Long text as consecutive sections (split on lines), e.g. a /brain-why explanation."""
    if not text.strip():
        return []
    fence = "```" if code else ""
    room = SECTION_TEXT - 2 * len(fence) - 2
    chunks: list[str] = []
    current = ""
    for line in escape(text).splitlines() or [""]:
        while len(line) > room:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:room])
            line = line[room:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > room:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current or not chunks:
        chunks.append(current)
    if len(chunks) > MESSAGE_BLOCKS:
        chunks = [*chunks[: MESSAGE_BLOCKS - 1], say("shortened", False)]
    return to_dicts([_section(f"{fence}\n{c}\n{fence}" if fence else c) for c in chunks])


def alert_blocks(
    *,
    alert_id: str,
    mention: str | None,
    asker: str,
    text: str,
    urgency: str,
    permalink: str | None,
    summary: str,
    resend: int = 0,
) -> list[dict[str, Any]]:
    """The on-call alert: who, what, urgency, link to the thread, summary, Acknowledge.

    The asker's words are quoted verbatim (escaped, never parsed: "@here" in them pages
    nobody) with their web addresses defanged, so on-call sees a link's real target and
    cannot click it by accident."""
    who = f"{mention} " if mention else ""
    again = f" (re-sent #{resend}: not acknowledged yet)" if resend else ""
    head = f"{who}:rotating_light: *Escalation* from <@{asker}>, urgency *{escape(urgency)}*{again}"
    link = f"<{permalink}|Open the thread>" if permalink else "(no link to the thread)"
    blocks: list[Block] = [
        _section(head),
        _section("> " + escape(defang(text)).replace("\n", "\n> "), verbatim=True),
        _context(_detail(escape(defang(summary)), link), verbatim=True),
        ActionsBlock(
            block_id=BLOCK_ALERT + alert_id,
            elements=[_button("Acknowledge", ACTION_ACK, alert_id, style="danger")],
        ),
    ]
    return to_dicts(blocks)


def _detail(summary: str, link: str) -> str:
    """A page's summary and its link, joined as the details of one line (on-call reads English)."""
    return wording("en").say("common.detail_separator").join((summary, link))


def priority_blocks(
    *, team: str, priority: str, asker: str, text: str, permalink: str | None, summary: str
) -> list[dict[str, Any]]:
    """A P2 (or a P1 that notifies instead of paging) told to the owning team's channel: who,
    what, the priority, the link; quoted like an alert, with no Acknowledge (nobody is paged)."""
    head = f":large_orange_circle: *{escape(priority)}* for *{escape(team)}* from <@{asker}>"
    link = f"<{permalink}|Open the thread>" if permalink else "(no link to the thread)"
    blocks: list[Block] = [
        _section(head),
        _section("> " + escape(defang(text)).replace("\n", "\n> "), verbatim=True),
        _context(_detail(escape(defang(summary)), link), verbatim=True),
    ]
    return to_dicts(blocks)
