"""A learned note that says where requests like this go is followed, not only repeated.

People resolve a request nothing could place with a note of what they did ("ask facilities in
#facilities"); three alike become an evolved controller whose answer is that note
(`controllers.evolved`). In Slack the note is also carried out: the asker's request is posted
in the channel the note names (a `#channel`, or a configured team named in it, whose channel
is used), once per decision, and the asker is told in their thread where it went.

Only the note, written by the people allowed to resolve, chooses the channel: the asker's
words are posted there as quoted data (escaped, addresses defanged, nobody mentioned) and can
never name a channel themselves.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import defang, escape, fallback_text
from bot.posting import permalink_of
from bot.services import BotServices
from bot.wording import in_chinese, say
from brain import Reply
from core.teams import TeamConfig

log = logging.getLogger(__name__)

#: A Slack channel name in a note: `#` and lower-case letters, digits, `-` and `_` (at most
#: 80, at least one letter, so "#5" stays a number), not inside a word ("C#") or an entity.
_CHANNEL = re.compile(r"(?<![A-Za-z0-9_&/#])#([a-z0-9_-]*[a-z][a-z0-9_-]*)", re.IGNORECASE)
_NAME_LENGTH = 80


def note_of(reply: Reply) -> str | None:
    """The learned note a reply passed on (None for any other reply)."""
    decision = reply.decision
    if decision is None or decision.result is None or not reply.fresh:
        return None
    note = decision.result.data.get("passed_note")
    return str(note) if isinstance(note, str) and note.strip() else None


def target_of(note: str, teams: Mapping[str, TeamConfig]) -> str | None:
    """Where the note sends requests: the channel it names (a configured team of that name
    gives its channel's id), else the channel of a configured team the note names; None when
    it names neither."""
    named = _CHANNEL.search(note)
    if named is not None and len(named.group(1)) <= _NAME_LENGTH:
        name = named.group(1).lower()
        named_team = teams.get(name)
        return named_team.channel if named_team and named_team.channel else f"#{name}"
    for team, config in teams.items():
        if config.channel and re.search(rf"(?<!\w){re.escape(team)}(?!\w)", note, re.I):
            return config.channel
    return None


def _shown(channel: str) -> str:
    """A channel as Slack shows it in a message: its id as a link, a name as typed."""
    return channel if channel.startswith("#") else f"<#{channel}>"


async def pass_on(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    channel: str,
    thread_ts: str,
    asker: str,
) -> bool:
    """Post the asker's request where the reply's learned note says and tell the asker in
    the thread; whether it was posted (a retry that finds it posted counts)."""
    note = note_of(reply)
    decision = reply.decision
    target = target_of(note, services.settings.helpdesk.teams) if note is not None else None
    if note is None or target is None or decision is None:
        return False
    if not services.events.claim(f"note-passed:{decision.decision_id}"):
        return True  # another replica (or a retry) passed it on already
    zh = in_chinese(decision)
    permalink = await permalink_of(client, channel, thread_ts)
    quoted = escape(defang(decision.text))
    lines = [
        f"<@{asker}> asked: {quoted}",
        f"Passed on here as the learned note of `{escape(decision.controller or '')}` says: "
        f"{escape(note)}",
    ]
    if permalink:
        lines.append(f"<{permalink}|Their thread>")
    try:
        posted = await client.chat_postMessage(
            channel=target,
            text=fallback_text("\n".join(lines)),
            parse="none",
            link_names=False,
            unfurl_links=False,
        )
    except SlackApiError as exc:
        error = exc.response.get("error")
        log.warning("could not pass a note's request on to %s: %s", target, error)
        await client.chat_postMessage(
            channel=channel,
            thread_ts=thread_ts,
            text=say("note_not_passed", zh, channel=_shown(target)),
        )
        return False
    where = str(posted.get("channel") or target)
    await client.chat_postMessage(
        channel=channel, thread_ts=thread_ts, text=say("note_passed", zh, channel=_shown(where))
    )
    return True
