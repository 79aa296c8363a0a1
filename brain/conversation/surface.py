"""What the user can do on a surface, in words that surface can honour.

Slack has buttons (Right, Route elsewhere, Send to a person); `brain chat` has typed
commands and numbered answers. A surface hands `Conversation` its own `SurfaceWording`
(the typed surfaces `TYPED`; a new surface its own, with no edit here), so text that names an
action names one the surface offers, in the asker's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.wording import wording_for

_CHAT_HELP = (
    "Type a message and the brain routes it. When it asks, answer with a number or a "
    "controller name.\n"
    "  /why [DECISION_ID]    explain the last (or given) decision\n"
    "  /right [DECISION_ID]  confirm the last (or given) decision\n"
    "  /wrong CONTROLLER [DECISION_ID]  correct it (runs CONTROLLER)\n"
    "  /wrong                reject the last decision without a better choice\n"
    "  /resolve ROUTE-OR-PLAN [DECISION_ID]  resolve it as a person: 'this is for ticket',\n"
    "                        or what you did ('ask facilities in #facilities')\n"
    "  /solved [DECISION_ID] the resolution (or the answer) solved it\n"
    "  /forget               forget what you learned from me (and my texts)\n"
    "  /help                 this text\n"
    "  /quit                 leave"
)


@dataclass(frozen=True, slots=True)
class SurfaceWording:
    """A surface's own words for what its user can do."""

    #: The commands a user can type (`/help`).
    help: str = _CHAT_HELP

    def no_question_pending(self, zh: bool) -> str:
        """A bare pick ("2") typed when no question is waiting for one."""
        return wording_for(zh).say("conversation.no_question_pending")


#: `brain chat` and `brain ask --thread`: typed commands and numbered answers.
TYPED = SurfaceWording()
