"""Optional Anthropic LLM client that never raises for model faults.

Every call returns an `LLMReply` whose ``status`` says what happened: "ok", "timeout",
"skipped", "error: <ExceptionClass>" or "invalid" (the reply was not the JSON the caller asked
for). The API is an untrusted network peer: a 200 whose body is no Messages response (a
proxy's HTML page, an error body, JSON of another shape; the SDK hands those back as a string,
a list or a half-built message) is "error: MalformedResponse", read inside the error handling
like any other fault, so the caller takes its no-LLM path.
User text is redacted (`core.redact.redact`) before it leaves the process. The API key is
kept inside the SDK client and never logged.

A call ends by the earliest of the configured timeout, the caller's and the decision's one
deadline (`core.llm_calls`); when that deadline has already passed, no request is sent at all
(status "skipped", not counted as a call). Within a call, a retryable failure (connection
error, 408, 409, 429, 5xx) is retried once only while the deadline has time left, and each
attempt waits at most the time that is left. (The SDK's own retries would each get the full
timeout, so a timeout of 8 s could become 16 s and more.)

While a request is on the wire the calling thread lends its compute slot
(`core.compute.lend_slot`), so one slow LLM call never holds up fast-path messages queued
behind it in the bot.

The `anthropic` SDK is imported only when a client is built, i.e. when an API key is
configured: without one, no command pays for importing it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.compute import lend_slot
from core.config import LLMConfig
from core.limits import LLM_MAX_RETRIES
from core.llm_calls import llm_time_left, record_llm_call
from core.prompts import JSON_ONLY
from core.redact import redact

if TYPE_CHECKING:
    import anthropic

__all__ = ["LLMClient", "LLMReply", "extract_json_object"]

log = logging.getLogger(__name__)

#: Attempts per call (the first and one retry), all within the call's deadline.
MAX_ATTEMPTS = 1 + LLM_MAX_RETRIES
#: Longest wait before a retry (less when the server's retry-after asks for less).
MAX_BACKOFF_S = 0.5
#: HTTP statuses worth another attempt (as the SDK's own retry rule).
RETRYABLE_STATUSES = frozenset({408, 409, 429})

#: Validators may reject a parsed reply by raising one of these or returning None/False.
VALIDATION_ERRORS = (ValueError, TypeError, KeyError, LookupError)


class _MalformedResponse(ValueError):
    """The API answered, but with a body that is no Messages response (control flow of
    `LLMClient._call`: it never reaches a caller, which sees "error: MalformedResponse")."""


@dataclass(frozen=True, slots=True)
class LLMReply:
    """The outcome of one LLM call."""

    ok: bool
    status: str
    text: str = ""
    data: Any = None
    purpose: str = ""
    latency_ms: float = 0.0
    #: Token counts the API reported (input, output, cache read / write), when it answered.
    usage: dict[str, int] | None = None


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (prose and code fences around it are ignored)."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


class LLMClient:
    """Thin wrapper around `anthropic.Anthropic` with redaction, timeouts and a call counter."""

    def __init__(
        self,
        client: anthropic.Anthropic,
        *,
        model: str,
        max_tokens: int = 512,
        timeout_s: float = 8.0,
        redactor: Callable[[str], str] = redact,
    ) -> None:
        self._client = client
        self.model = model
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self._redact = redactor
        self._lock = threading.Lock()
        self._calls = 0
        self._failures = 0
        self._tokens = {"input": 0, "output": 0}

    @classmethod
    def from_settings(cls, llm: LLMConfig) -> LLMClient | None:
        """A client for the configured model, or None when no API key is configured."""
        if llm.api_key is None or not llm.api_key.get_secret_value().strip():
            return None
        import anthropic

        client = anthropic.Anthropic(
            api_key=llm.api_key.get_secret_value(),
            base_url=llm.base_url,
            timeout=llm.timeout_s,
            max_retries=0,  # retries happen in `_call`, inside the call's deadline
        )
        return cls(client, model=llm.model, max_tokens=llm.max_tokens, timeout_s=llm.timeout_s)

    @property
    def calls(self) -> int:
        """How many requests were attempted so far (all threads).

        For the requests of one decision, see `core.llm_calls.count_llm_calls`.
        """
        with self._lock:
            return self._calls

    def stats(self) -> LLMStats:
        """Requests, failed requests and tokens so far (all threads), for `/metrics`."""
        with self._lock:
            return LLMStats(self._calls, self._failures, dict(self._tokens))

    def complete_text(
        self, *, system: str, user: str, purpose: str = "", max_tokens: int | None = None
    ) -> LLMReply:
        """Ask for free text; ``ok`` is False on timeout or API error."""
        return self._call(system=system, user=user, purpose=purpose, max_tokens=max_tokens)

    def complete_json(
        self,
        *,
        system: str,
        user: str,
        validate: Callable[[Any], Any] | None = None,
        purpose: str = "",
        max_tokens: int | None = None,
        cache_system: bool = False,
        timeout_s: float | None = None,
    ) -> LLMReply:
        """Ask for one JSON object and validate it.

        ``validate`` receives the parsed object and returns the cleaned data (True keeps the
        object as is); returning None/False or raising ValueError/TypeError/KeyError rejects it,
        and so does a reply holding no JSON object: status "invalid", ``ok`` False.
        ``cache_system``: mark the (fixed) system prompt for prompt caching.
        ``timeout_s``: what is left of a longer deadline (several calls of one decision); the
        call then ends by the earlier of it and the configured timeout.
        """
        if JSON_ONLY not in system:
            system = f"{system}\n{JSON_ONLY}"
        reply = self._call(
            system=system,
            user=user,
            purpose=purpose,
            max_tokens=max_tokens,
            cache_system=cache_system,
            timeout_s=timeout_s,
        )
        if not reply.ok:
            return reply
        parsed = extract_json_object(reply.text)
        data: Any = parsed
        if parsed is not None and validate is not None:
            try:
                checked = validate(parsed)
            except VALIDATION_ERRORS:
                checked = None
            data = parsed if checked is True else checked
        if data is None or data is False:
            log.info("llm %s: reply was not valid JSON for the task", purpose or "call")
            return LLMReply(
                False, "invalid", reply.text, None, purpose, reply.latency_ms, reply.usage
            )
        return LLMReply(True, "ok", reply.text, data, purpose, reply.latency_ms, reply.usage)

    def _call(
        self,
        *,
        system: str,
        user: str,
        purpose: str,
        max_tokens: int | None,
        cache_system: bool = False,
        timeout_s: float | None = None,
    ) -> LLMReply:
        import anthropic

        started = time.perf_counter()
        # The least of: the configured timeout, the caller's, and what is left before the
        # decision's one deadline (`count_llm_calls(within_s=...)`). A deadline that has
        # passed sends nothing: the caller takes its no-LLM path, and no request is counted.
        budgets = [b for b in (self.timeout_s, timeout_s, llm_time_left()) if b is not None]
        deadline = started + min(budgets)
        if min(budgets) <= 0:
            log.info("llm %s: skipped (the decision's LLM deadline has passed)", purpose or "call")
            return LLMReply(False, "skipped", "", None, purpose, 0.0)
        with self._lock:
            self._calls += 1
        record_llm_call()
        content = self._redact(user)
        system_param: Any = system
        if cache_system:
            system_param = [
                {"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}
            ]
        status = "timeout"
        for attempt in range(MAX_ATTEMPTS):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                status = "timeout"
                break
            try:
                with lend_slot():  # waiting on the network uses no CPU
                    response = self._client.messages.create(
                        model=self.model,
                        max_tokens=max_tokens or self.max_tokens,
                        system=system_param,
                        messages=[{"role": "user", "content": content}],
                        timeout=remaining,
                    )
            except anthropic.APITimeoutError:
                status = "timeout"
                break  # the deadline is spent
            except Exception as exc:  # never raise for model faults: the brain runs without it
                status = f"error: {type(exc).__name__}"
                wait = _retry_wait(exc)
                last = attempt + 1 >= MAX_ATTEMPTS
                if wait is None or last or time.perf_counter() + wait >= deadline:
                    break
                with lend_slot():
                    time.sleep(wait)
            else:
                try:
                    text = _reply_text(response)
                except _MalformedResponse as exc:
                    status = "error: MalformedResponse"
                    log.info("llm %s: %s", purpose or "call", exc)
                    break
                elapsed = (time.perf_counter() - started) * 1000
                self._count_tokens(getattr(response, "usage", None))
                return LLMReply(True, "ok", text, None, purpose, elapsed, _usage(response))
        with self._lock:
            self._failures += 1
        elapsed = (time.perf_counter() - started) * 1000
        log.warning("llm %s failed: %s after %.0f ms", purpose or "call", status, elapsed)
        return LLMReply(False, status, "", None, purpose, elapsed)

    def _count_tokens(self, usage: Any) -> None:
        with self._lock:
            for kind in ("input", "output"):
                count = getattr(usage, f"{kind}_tokens", 0)
                self._tokens[kind] += count if isinstance(count, int) else 0


@dataclass(frozen=True, slots=True)
class LLMStats:
    """What `LLMClient.stats` reports."""

    calls: int
    failures: int
    #: "input" / "output" -> tokens.
    tokens: dict[str, int]


def _reply_text(response: Any) -> str:
    """The text of a Messages response's text blocks; raises _MalformedResponse when the
    response has no list of content blocks or a text block holds no string."""
    content = getattr(response, "content", None)
    if not isinstance(content, list):
        raise _MalformedResponse(f"no content blocks in the reply ({type(response).__name__})")
    texts = []
    for block in content:
        if getattr(block, "type", None) != "text":
            continue  # another kind of block (or a stray value): no text of the reply
        text = getattr(block, "text", None)
        if not isinstance(text, str):
            raise _MalformedResponse("a text block without its text")
        texts.append(text)
    return "".join(texts)


def _usage(response: Any) -> dict[str, int]:
    """The token counts of a response (absent or non-integer fields count 0)."""
    usage = getattr(response, "usage", None)
    return {
        name: count if isinstance(count := getattr(usage, name, 0), int) else 0
        for name in (
            "input_tokens",
            "output_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
        )
    }


def _retry_wait(exc: Exception) -> float | None:
    """Seconds to wait before retrying after `exc`, or None when it is not worth a retry."""
    import anthropic

    if isinstance(exc, anthropic.APIConnectionError):
        return 0.0
    if not isinstance(exc, anthropic.APIStatusError):
        return None
    code = exc.status_code
    if code not in RETRYABLE_STATUSES and code < 500:
        return None
    headers = exc.response.headers
    try:
        if "retry-after-ms" in headers:
            return min(MAX_BACKOFF_S, float(headers["retry-after-ms"]) / 1000)
        if "retry-after" in headers:
            return min(MAX_BACKOFF_S, float(headers["retry-after"]))
    except ValueError:
        pass
    return MAX_BACKOFF_S
