"""The `[tickets.jira]` section the connector's tests give a brain home (the fake's desk)."""

from __future__ import annotations

from tests.fakes.jira_api import SERVICE_DESK_ID

#: Request types of the fake's desk, by ticket kind.
REQUEST_TYPES = {"incident": "10", "access": "11", "change": "12", "default": "19"}


def jira_config(
    url: str,
    *,
    extra: str = "",
    timeout_s: float = 0.3,
    retry_base_s: float = 0.001,
    retry_max_s: float = 0.001,
    send_every_s: float = 0.05,
    poll_every_s: float = 0.1,
) -> str:
    """A `[tickets.jira]` section for the fake at `url`; by default every retry is due at
    once and the bot's rounds run several times a second."""
    types = ", ".join(f'{kind} = "{rtype}"' for kind, rtype in REQUEST_TYPES.items())
    return (
        "[tickets.jira]\n"
        f'base_url = "{url}"\n'
        f'service_desk_id = "{SERVICE_DESK_ID}"\n'
        f"request_types = {{ {types} }}\n"
        f"timeout_s = {timeout_s}\nretry_base_s = {retry_base_s}\nretry_max_s = {retry_max_s}\n"
        f"send_every_s = {send_every_s}\npoll_every_s = {poll_every_s}\n"
        f"{extra}"
    )
