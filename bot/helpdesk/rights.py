"""Who may act on what: the one check every help desk click goes through first."""

from __future__ import annotations

from bot.services import BotServices
from core.errors import UnknownDecision


def is_admin(services: BotServices, user: str) -> bool:
    """On-call engineers and admins (`[access] oncall_users`)."""
    return user in services.settings.access.oncall_users


def owns_decision(services: BotServices, user: str, decision_id: str) -> bool:
    """The decision is `user`'s own (they asked it), or `user` is an admin (blocking)."""
    try:
        decision = services.brain.get_decision(decision_id)
    except UnknownDecision:
        return False
    return decision.user == user or is_admin(services, user)
