"""Signing in: the admin token (local use), or Slack's OpenID Connect through slack_sdk.

Slack sign-in: `/console/auth/slack` sends the browser to Slack's authorize page (built by
slack_sdk's `OpenIDConnectAuthorizeUrlGenerator`) with a random `state` kept in a signed
cookie; Slack sends it back to `/console/auth/slack/callback` with a code, which is exchanged
(`openid.connect.token`) for a user token whose `openid.connect.userInfo` says who this is and
from which workspace. The token response's ID token must carry the `nonce` this sign-in sent
(kept in the same signed cookie) and name this app as its audience: an ID token minted for
another sign-in (a replayed or injected code) is refused. The ID token comes straight from
Slack's token endpoint over TLS, so its signature is not checked (OpenID Connect Core 3.1.3.7
allows TLS in its place). Only users in `[console] admins` (and of `[console] team`, when set)
get a session; anyone else gets 403.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import secrets
from typing import Any

from aiohttp import web
from slack_sdk.errors import SlackApiError
from slack_sdk.oauth import OpenIDConnectAuthorizeUrlGenerator
from slack_sdk.web.async_client import AsyncWebClient

from console.render import render
from console.security import OIDC_COOKIE, PRESESSION_COOKIE, SESSION_COOKIE, Sessions, csrf_ok
from core.config import Settings

log = logging.getLogger(__name__)
#: Seconds a Slack sign-in may take between leaving and coming back.
OIDC_MAX_AGE = 600


class SignIn:
    """The sign-in routes of one console."""

    def __init__(self, settings: Settings, sessions: Sessions) -> None:
        self.settings = settings
        self.config = settings.console
        self.sessions = sessions

    @property
    def slack_enabled(self) -> bool:
        config = self.config
        return bool(config.slack_client_id and config.slack_client_secret and config.redirect_uri)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/login", self.login_page),
            web.post("/login", self.login),
            web.post("/logout", self.logout),
            web.get("/auth/slack", self.slack_start),
            web.get("/auth/slack/callback", self.slack_callback),
        ]

    async def login_page(self, request: web.Request, error: str = "") -> web.Response:
        pre = self.sessions.read(request.cookies.get(PRESESSION_COOKIE), max_age=OIDC_MAX_AGE)
        csrf = str(pre["csrf"]) if pre and pre.get("csrf") else secrets.token_urlsafe(24)
        response = render(
            request,
            "login.html",
            csrf=csrf,
            error=error,
            token_enabled=self.config.admin_token is not None,
            slack_enabled=self.slack_enabled,
            status=401 if error else 200,
        )
        value = self.sessions.sign({"csrf": csrf})
        Sessions.set_cookie(response, request, PRESESSION_COOKIE, value, OIDC_MAX_AGE)
        return response

    async def login(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        pre = self.sessions.read(request.cookies.get(PRESESSION_COOKIE), max_age=OIDC_MAX_AGE)
        if pre is None or not csrf_ok(str(pre.get("csrf", "")), form.get("csrf")):
            raise web.HTTPForbidden(text="missing or wrong CSRF token")
        if not self.sessions.token_matches(str(form.get("token", ""))):
            return await self.login_page(request, error="That is not the admin token.")
        response = web.HTTPSeeOther("/console/")
        self.sessions.start(response, request, "token:admin", self.config.team)
        raise response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        # The gate checked the session's CSRF token before this runs.
        response = web.HTTPSeeOther("/console/login")
        response.del_cookie(SESSION_COOKIE, path="/console")
        raise response

    async def slack_start(self, request: web.Request) -> web.StreamResponse:
        if not self.slack_enabled:
            raise web.HTTPNotFound(text="Slack sign-in is not configured")
        config = self.config
        assert config.slack_client_id is not None and config.redirect_uri is not None
        state, nonce = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        url = OpenIDConnectAuthorizeUrlGenerator(
            client_id=config.slack_client_id,
            redirect_uri=config.redirect_uri,
            scopes=["openid", "profile"],
            authorization_url=config.authorize_url,
        ).generate(state=state, nonce=nonce, team=config.team)
        response = web.HTTPSeeOther(url)
        value = self.sessions.sign({"state": state, "nonce": nonce})
        Sessions.set_cookie(response, request, OIDC_COOKIE, value, OIDC_MAX_AGE)
        raise response

    async def slack_callback(self, request: web.Request) -> web.StreamResponse:
        if not self.slack_enabled:
            raise web.HTTPNotFound(text="Slack sign-in is not configured")
        expected = self.sessions.read(request.cookies.get(OIDC_COOKIE), max_age=OIDC_MAX_AGE)
        state = request.query.get("state", "")
        if expected is None or not csrf_ok(str(expected.get("state", "")), state):
            raise web.HTTPForbidden(text="the sign-in's state does not match: start again")
        code = request.query.get("code", "")
        if not code:
            raise web.HTTPForbidden(text="Slack did not sign you in")
        user, team = await self._identity(code, str(expected.get("nonce", "")))
        if self.config.team and team != self.config.team:
            raise web.HTTPForbidden(text="this workspace's users cannot use this console")
        if user not in self.config.admins:
            log.info("console: refused Slack user %s (not an admin)", user)
            raise web.HTTPForbidden(text="admins only")
        response = web.HTTPSeeOther("/console/")
        response.del_cookie(OIDC_COOKIE, path="/console")
        self.sessions.start(response, request, f"slack:{user}", team)
        raise response

    async def _identity(self, code: str, nonce: str) -> tuple[str, str | None]:
        """The Slack user id and team id the code stands for, once its ID token shows it was
        issued for this sign-in (`nonce`) to this app."""
        config = self.config
        assert config.slack_client_id and config.slack_client_secret
        base_url = self.settings.slack.api_url or AsyncWebClient.BASE_URL
        base_url = base_url if base_url.endswith("/") else base_url + "/"
        try:
            token = await AsyncWebClient(base_url=base_url, timeout=10).openid_connect_token(
                client_id=config.slack_client_id,
                client_secret=config.slack_client_secret.get_secret_value(),
                code=code,
                redirect_uri=config.redirect_uri,
            )
            claims = id_token_claims(token.get("id_token"))
            if claims is None or not csrf_ok(nonce, claims.get("nonce")):
                log.info("console: refused a Slack sign-in whose ID token is not this sign-in's")
                raise web.HTTPForbidden(text="the sign-in's nonce does not match: start again")
            if config.slack_client_id not in _audience(claims):
                raise web.HTTPForbidden(text="the ID token is not for this app")
            access = str(token.get("access_token") or "")
            info = await AsyncWebClient(
                token=access, base_url=base_url, timeout=10
            ).openid_connect_userInfo()
        except SlackApiError as exc:
            log.info("console: Slack sign-in failed (%s)", exc.response.get("error"))
            raise web.HTTPForbidden(text="Slack did not sign you in") from None
        user = str(info.get("https://slack.com/user_id") or info.get("sub") or "")
        team = info.get("https://slack.com/team_id")
        if not user:
            raise web.HTTPForbidden(text="Slack did not say who you are")
        return user, None if team is None else str(team)


def id_token_claims(id_token: object) -> dict[str, Any] | None:
    """The claims of a JWT (its middle part), or None when it is not one."""
    if not isinstance(id_token, str) or id_token.count(".") != 2:
        return None
    body = id_token.split(".")[1]
    try:
        claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError):
        return None
    return claims if isinstance(claims, dict) else None


def _audience(claims: dict[str, Any]) -> list[str]:
    """`aud` is one client id or a list of them."""
    aud = claims.get("aud")
    return [aud] if isinstance(aud, str) else [a for a in aud or [] if isinstance(a, str)]
