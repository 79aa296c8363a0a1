"""POST a controller's context as JSON to a webhook; every fault becomes a failed result.

A webhook controller file is admin-trusted configuration, but what it may do is bounded by
the brain's own configuration (`[webhooks]`, `core.config.WebhookConfig`):

- the destination must not be link-local or a cloud metadata service, and must be on
  `allowed_hosts` when that list is set (no redirects are followed);
- a header may name only the environment variables on `header_env`;
- the message text is redacted before it leaves;
- the answer is read up to `WEBHOOK_MAX_RESPONSE_BYTES` and within the controller's timeout.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import os
import socket
import time
from collections.abc import Collection, Mapping
from string import Template
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from controllers.base import ControllerContext, ControllerResult
from core.config import WebhookConfig
from core.errors import BrainError
from core.limits import (
    WEBHOOK_MAX_RESPONSE_BYTES,
    WEBHOOK_MAX_SUMMARY_CHARS,
    WEBHOOK_TIMEOUT_S,
)
from core.redact import redact
from core.text.shortening import ELLIPSIS

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = WEBHOOK_TIMEOUT_S
#: A dry-run checks that the webhook accepts a connection within this long.
PROBE_TIMEOUT_S = 1.0

#: Host names of cloud instance-metadata services (credentials live there).
_METADATA_HOSTS = frozenset(
    {"metadata.google.internal", "metadata.goog", "metadata", "instance-data"}
)
#: Metadata addresses outside the link-local ranges (AWS IPv6, Alibaba, ECS task role).
_METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("fd00:ec2::254", "100.100.100.200", "169.254.170.2")
)


class WebhookRefused(BrainError, ValueError):
    """The call is not made; the message says why (never a header's value)."""


def webhook_payload(controller: str, context: ControllerContext) -> dict[str, Any]:
    """The JSON body sent to a webhook: the message (redacted) and what the brain knows."""
    return {
        "controller": controller,
        "decision_id": context.decision_id,
        "text": redact(context.text),
        "user": context.user,
        "channel": context.channel,
        "thread": context.thread,
        "intent": context.intent,
        "urgency": context.urgency,
        "entities": context.entities,
        "parameters": context.parameters,
        "upstream": context.upstream,
    }


def safe_url(url: str) -> str:
    """The URL without path, query or credentials: webhook paths often embed a secret."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}/{ELLIPSIS}"


def expand_headers(
    headers: Mapping[str, str] | None,
    allowed: Collection[str],
    env: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Header values may name environment variables (`Bearer ${PAYROLL_TOKEN}`), so secrets
    stay out of controller files; only the variables in `allowed` expand, anything else
    refuses the call (`WebhookRefused`)."""
    env = os.environ if env is None else env
    expanded: dict[str, str] = {}
    for name, value in (headers or {}).items():
        template = Template(str(value))
        wanted = {
            match.group("named") or match.group("braced")
            for match in template.pattern.finditer(template.template)
            if match.group("named") or match.group("braced")
        }
        for variable in sorted(wanted):
            if variable not in allowed:
                raise WebhookRefused(
                    f"header {name} names ${{{variable}}}, which is not in [webhooks] header_env"
                )
            if variable not in env:
                raise WebhookRefused(f"header {name} names ${{{variable}}}, which is not set")
        expanded[str(name)] = template.safe_substitute({v: env[v] for v in wanted})
    return expanded


def _refused_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (
        address.is_link_local
        or address.is_unspecified
        or address.is_multicast
        or address in _METADATA_ADDRESSES
    )


def check_destination(url: str, policy: WebhookConfig) -> None:
    """Refuse (`WebhookRefused`) a host off the allow-list, a metadata service, or a name
    that resolves to a link-local or metadata address."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().rstrip(".")
    if parts.scheme not in ("http", "https") or not host:
        raise WebhookRefused("the URL needs http(s):// and a host")
    allowed = {name.lower().rstrip(".") for name in policy.allowed_hosts}
    if allowed and host not in allowed:
        raise WebhookRefused(f"host {host} is not in [webhooks] allowed_hosts")
    if host in _METADATA_HOSTS:
        raise WebhookRefused(f"host {host} is a cloud metadata service")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError):
        return  # unresolvable: the request itself fails and says so
    for *_, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if _refused_address(address):
            raise WebhookRefused(f"host {host} is a link-local or metadata address ({address})")


def _read_bounded(response: httpx.Response, deadline: float) -> tuple[bytes, bool]:
    """At most WEBHOOK_MAX_RESPONSE_BYTES of the answer (True when cut), before `deadline`."""
    import httpx

    body = bytearray()
    for chunk in response.iter_bytes():
        body.extend(chunk)
        if len(body) > WEBHOOK_MAX_RESPONSE_BYTES:
            return bytes(body[:WEBHOOK_MAX_RESPONSE_BYTES]), True
        if time.monotonic() > deadline:
            raise httpx.ReadTimeout("the answer took longer than the timeout")
    return bytes(body), False


def _failed(shown: str, summary: str, error: str) -> ControllerResult:
    return ControllerResult(
        ok=False, summary=summary, data={"url": shown, "error": error}, error=error
    )


def unreachable(url: str, policy: WebhookConfig, timeout_s: float = PROBE_TIMEOUT_S) -> str | None:
    """Why the webhook cannot be called now (refused by policy, or no TCP connection within
    `timeout_s`), or None. A connection is opened and closed: nothing is sent."""
    try:
        check_destination(url, policy)
    except WebhookRefused as exc:
        return f"refused: {exc}"
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "", port), timeout=timeout_s):
            return None
    except OSError as exc:
        return f"unreachable ({type(exc).__name__}) within {timeout_s:g} s"


def post_json(
    url: str,
    payload: Mapping[str, Any],
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    headers: Mapping[str, str] | None = None,
    policy: WebhookConfig | None = None,
) -> ControllerResult:
    """POST `payload`; a 2xx answer is ok, anything else (status, timeout, refusal) is not.

    Neither the full URL nor the headers are logged or returned: they may hold secrets.
    """
    import httpx  # here: importing it (and the CLI tools it loads) costs a warm `brain ask`

    policy = policy or WebhookConfig()
    shown = safe_url(url)
    try:
        check_destination(url, policy)
        sent_headers = expand_headers(headers, policy.header_env)
    except WebhookRefused as exc:
        log.warning("webhook %s refused: %s", shown, exc)
        return _failed(shown, f"The webhook was not called: {exc}.", "refused")
    deadline = time.monotonic() + timeout_s
    try:
        with (
            httpx.Client(timeout=timeout_s, follow_redirects=False) as client,
            client.stream("POST", url, json=dict(payload), headers=sent_headers) as response,
        ):
            raw, cut = _read_bounded(response, deadline)
    except httpx.TimeoutException:
        log.warning("webhook %s timed out after %.1f s", shown, timeout_s)
        return _failed(shown, f"The webhook did not answer within {timeout_s:g} s.", "timeout")
    except httpx.HTTPError as exc:
        log.warning("webhook %s failed: %s", shown, type(exc).__name__)
        return _failed(
            shown, f"The webhook could not be reached ({type(exc).__name__}).", type(exc).__name__
        )
    text = raw.decode(response.encoding or "utf-8", "replace")
    body: Any = text[:WEBHOOK_MAX_SUMMARY_CHARS]
    if not cut:
        with contextlib.suppress(json.JSONDecodeError, UnicodeDecodeError):
            body = json.loads(text)
    ok = response.is_success
    summary = _summary_from(body) if ok else None
    error = f"HTTP {response.status_code}" if response.status_code >= 500 else ""
    data: dict[str, Any] = {"url": shown, "status_code": response.status_code, "response": body}
    if cut:
        data["truncated_at_bytes"] = WEBHOOK_MAX_RESPONSE_BYTES
    return ControllerResult(
        ok=ok,
        summary=summary or f"The webhook answered HTTP {response.status_code}.",
        data=data,
        error=error,
    )


def _summary_from(body: Any) -> str | None:
    """A webhook may answer `{"summary": "..."}` (or "text"/"message") to speak to the user."""
    if isinstance(body, dict):
        for key in ("summary", "text", "message"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()[:WEBHOOK_MAX_SUMMARY_CHARS]
    return None
