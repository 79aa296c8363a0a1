"""Roles: the jobs the decision chain hands to whichever controller declares them.

The chain never names a controller of the built-in pack. It asks for a role: the controller
that works on existing records (a message naming a ticket it asks about is a look-up, never a
new filing), the one that answers questions from the knowledge base, the one that takes outages
no other controller fits. A controller declares its roles (`roles` in the catalog or a YAML
controller, or a class attribute); `[routing.roles]` in the config names a controller for a role
instead, so a company can rename or replace the pack.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: Works on existing records: look-ups, updates and actions on tickets a message names.
RECORDS = "records"
#: Answers questions (how-to, policy, definitions) from the knowledge base.
ANSWERS = "answers"
#: Takes outages and security events that no other controller fits.
OUTAGES = "outages"
#: The roles the chain asks for.
ROLES = (RECORDS, ANSWERS, OUTAGES)


def roles_of(controller: object) -> tuple[str, ...]:
    """The roles `controller` declares (its optional `roles` attribute)."""
    return tuple(str(role) for role in getattr(controller, "roles", None) or ())


def role_holders(
    controllers: Iterable[object], overrides: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Role -> the controller that takes it: the configured one when it is registered, else the
    first controller that declares the role; a role nobody holds is absent. A configured name
    that is not registered leaves the declared holder in place."""
    by_name = {str(getattr(c, "name", "")): c for c in controllers}
    holders: dict[str, str] = {}
    for name, controller in by_name.items():
        for role in roles_of(controller):
            holders.setdefault(role, name)
    for role, name in (overrides or {}).items():
        if name in by_name:
            holders[role] = name
    return holders
