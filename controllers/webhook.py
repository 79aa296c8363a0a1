"""POST a controller's context as JSON to a webhook; every fault becomes a failed result."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx

from controllers.base import ControllerContext, ControllerResult

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 5.0
_MAX_BODY_CHARS = 2000


def webhook_payload(controller: str, context: ControllerContext) -> dict[str, Any]:
    """The JSON body sent to a webhook: the message and what the brain knows about it."""
    return {
        "controller": controller,
        "decision_id": context.decision_id,
        "text": context.text,
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
    return f"{parts.scheme}://{host}{port}/…"


def expand_headers(headers: Mapping[str, str] | None) -> dict[str, str]:
    """Header values may name environment variables (`Bearer ${PAYROLL_TOKEN}`), so secrets
    stay out of controller files."""
    return {str(k): os.path.expandvars(str(v)) for k, v in (headers or {}).items()}


def post_json(
    url: str,
    payload: Mapping[str, Any],
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    headers: Mapping[str, str] | None = None,
) -> ControllerResult:
    """POST `payload`; a 2xx answer is ok, anything else (status, timeout, refusal) is not.

    Neither the full URL nor the headers are logged or returned: they may hold secrets.
    """
    shown = safe_url(url)
    try:
        response = httpx.post(
            url,
            json=dict(payload),
            headers=expand_headers(headers),
            timeout=timeout_s,
            follow_redirects=False,
        )
    except httpx.TimeoutException:
        log.warning("webhook %s timed out after %.1f s", shown, timeout_s)
        return ControllerResult(
            ok=False,
            summary=f"The webhook did not answer within {timeout_s:g} s.",
            data={"url": shown, "error": "timeout"},
        )
    except httpx.HTTPError as exc:
        log.warning("webhook %s failed: %s", shown, type(exc).__name__)
        return ControllerResult(
            ok=False,
            summary=f"The webhook could not be reached ({type(exc).__name__}).",
            data={"url": shown, "error": type(exc).__name__},
        )
    body: Any = response.text[:_MAX_BODY_CHARS]
    with contextlib.suppress(json.JSONDecodeError, UnicodeDecodeError):
        body = response.json()
    ok = response.is_success
    summary = _summary_from(body) if ok else None
    return ControllerResult(
        ok=ok,
        summary=summary or f"The webhook answered HTTP {response.status_code}.",
        data={"url": shown, "status_code": response.status_code, "response": body},
    )


def _summary_from(body: Any) -> str | None:
    """A webhook may answer `{"summary": "..."}` (or "text"/"message") to speak to the user."""
    if isinstance(body, dict):
        for key in ("summary", "text", "message"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()[:_MAX_BODY_CHARS]
    return None
