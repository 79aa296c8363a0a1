"""Who may use the console: signed sessions, CSRF tokens, and the gate on every URL.

A session is a cookie signed with itsdangerous (tamper-evident, timed): who signed in
(`token:admin` for the admin token, `slack:U123` for a Slack admin), their workspace and the
CSRF token their forms carry. Without a session every console URL answers 401 (a redirect to
the sign-in page for a browser asking for a page); a Slack user who is not in `[console]
admins` gets 403; a form posted without the session's CSRF token is refused with 403. The
sign-in form itself carries the CSRF token of a pre-session cookie (double submit).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from itsdangerous import BadSignature, URLSafeTimedSerializer

from core.config import ConsoleConfig

SESSION_COOKIE = "brain_console"
PRESESSION_COOKIE = "brain_console_pre"
OIDC_COOKIE = "brain_console_oidc"
#: Paths open without a session (the sign-in pages and the style sheet).
PUBLIC = ("/console/login", "/console/auth/slack", "/console/static/")


@dataclass(frozen=True, slots=True)
class Admin:
    """The signed-in admin."""

    who: str
    team: str | None
    csrf: str


ADMIN_KEY = web.RequestKey("console.admin", Admin)


def secret_of(config: ConsoleConfig) -> bytes:
    """The session signing key: configured, else derived from the admin token, else random
    for this process (sessions then end when it restarts)."""
    if config.session_secret is not None:
        return config.session_secret.get_secret_value().encode("utf-8")
    if config.admin_token is not None:
        token = config.admin_token.get_secret_value().encode("utf-8")
        return hmac.new(token, b"brain-console-session", hashlib.sha256).digest()
    return secrets.token_bytes(32)


class Sessions:
    """Signing and reading the console's cookies."""

    def __init__(self, config: ConsoleConfig) -> None:
        self.config = config
        self._serializer = URLSafeTimedSerializer(secret_of(config), salt="brain-console")
        self.max_age = int(config.session_hours * 3600)

    def sign(self, value: dict[str, Any]) -> str:
        return self._serializer.dumps(value)

    def read(self, text: str | None, *, max_age: int | None = None) -> dict[str, Any] | None:
        """The signed value, or None when absent, forged or expired."""
        if not text:
            return None
        try:
            value = self._serializer.loads(text, max_age=max_age or self.max_age)
        except BadSignature:
            return None
        return value if isinstance(value, dict) else None

    def admin_of(self, request: web.Request) -> Admin | None:
        value = self.read(request.cookies.get(SESSION_COOKIE))
        if value is None or not isinstance(value.get("who"), str):
            return None
        return Admin(str(value["who"]), value.get("team"), str(value.get("csrf", "")))

    def start(
        self, response: web.StreamResponse, request: web.Request, who: str, team: str | None
    ) -> None:
        """Give `response` a fresh session for `who` (a new CSRF token each sign-in)."""
        value = {"who": who, "team": team, "csrf": secrets.token_urlsafe(24)}
        self.set_cookie(response, request, SESSION_COOKIE, self.sign(value), self.max_age)
        response.del_cookie(PRESESSION_COOKIE, path="/console")

    @staticmethod
    def set_cookie(
        response: web.StreamResponse, request: web.Request, name: str, value: str, age: int
    ) -> None:
        response.set_cookie(
            name,
            value,
            max_age=age,
            path="/console",
            httponly=True,
            samesite="Lax",
            secure=request.secure,
        )

    def is_admin(self, who: str) -> bool:
        """Still allowed in? (A Slack user removed from `admins` is refused at once.)"""
        if who == "token:admin":
            return self.config.admin_token is not None
        kind, _, user = who.partition(":")
        return kind == "slack" and user in self.config.admins

    def token_matches(self, given: str) -> bool:
        token = self.config.admin_token
        if token is None or not given:
            return False
        return hmac.compare_digest(given.encode("utf-8"), token.get_secret_value().encode("utf-8"))


def csrf_ok(expected: str, given: object) -> bool:
    return bool(expected) and isinstance(given, str) and hmac.compare_digest(expected, given)


def gate(sessions: Sessions) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware every console request passes."""

    @web.middleware
    async def middleware(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        if not path.startswith("/console") or path.startswith(PUBLIC):
            return await handler(request)
        admin = sessions.admin_of(request)
        if admin is None:
            if request.method == "GET" and "text/html" in request.headers.get("Accept", ""):
                raise web.HTTPSeeOther("/console/login")
            raise web.HTTPUnauthorized(text="sign in at /console/login")
        if not sessions.is_admin(admin.who):
            raise web.HTTPForbidden(text="admins only")
        if request.method == "POST":
            form = await request.post()
            if not csrf_ok(admin.csrf, form.get("csrf")):
                raise web.HTTPForbidden(text="missing or wrong CSRF token")
        request[ADMIN_KEY] = admin
        return await handler(request)

    return middleware


def admin(request: web.Request) -> Admin:
    """The admin the gate let in."""
    return request[ADMIN_KEY]
