"""A fake Slack Web API on 127.0.0.1 (ephemeral port) that records every call.

Implements the methods the bot uses (auth.test, chat.postMessage, chat.update,
chat.postEphemeral, chat.getPermalink, conversations.replies (the bot's own replies in a
thread), users.info, usergroups.users.list, reactions.add, oauth.v2.access (codes scripted
in `oauth_codes`; auth.test then names each token's team), views.open / publish / update
(the view recorded parsed), apps.connections.open) plus response_url endpoints. Errors and
429 rate limits can be scripted per method. Tests assert on `calls`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

BOT_USER_ID = "UBOT0001"
BOT_ID = "BBOT0001"
TEAM_ID = "T0000001"


@dataclass
class Call:
    """One recorded Web API call."""

    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


@dataclass
class _Script:
    status: int
    error: str | None
    retry_after: int
    times: int


class FakeSlackAPI:
    """Serve with `await fake.start()`; point the bot at `fake.url` (SLACK_API_URL)."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        #: ts returned by each recorded chat.postMessage, in order.
        self.posted_ts: list[str] = []
        self.rejected: list[Call] = []
        self.socket_url: str | None = None
        #: Bot tokens auth.test accepts (None: any); others get invalid_auth.
        self.valid_tokens: set[str] | None = None
        #: User-group id -> member ids, for usergroups.users.list.
        self.usergroups: dict[str, list[str]] = {}
        #: OAuth: code -> (team id, bot token) that oauth.v2.access exchanges it for.
        self.oauth_codes: dict[str, tuple[str, str]] = {}
        #: Bot token -> team id (auth.test answers with that team; revoked: invalid_auth).
        self.token_teams: dict[str, str] = {}
        #: Sign in with Slack: code -> (user id, team id), for openid.connect.token/userInfo.
        self.oidc_codes: dict[str, tuple[str, str]] = {}
        #: The nonce each code's ID token carries (the sign-in that asked for it); none: no
        #: nonce claim. `oidc_client_id` is its audience.
        self.oidc_nonces: dict[str, str] = {}
        self.oidc_client_id = "111.222"
        self._scripts: dict[str, list[_Script]] = {}
        self._ts = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self.url = ""
        self.response_base = ""

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> FakeSlackAPI:
        """Listen on an ephemeral port."""
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/response/{hook}", self._response_url)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}/api/"
        self.response_base = f"http://127.0.0.1:{port}/response/"
        return self

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()

    # -- scripting -----------------------------------------------------------------------------

    def fail(
        self,
        method: str,
        *,
        status: int = 200,
        error: str | None = None,
        retry_after: int = 0,
        times: int = 1,
    ) -> None:
        """The next `times` calls of `method` answer `status` (429 gets Retry-After)."""
        self._scripts.setdefault(method, []).append(_Script(status, error, retry_after, times))

    def forget(self) -> None:
        """Forget every call recorded and every failure scripted, as a fresh fake would have
        none (the tokens, user groups and codes it was given stay): the record of one test
        when several share a running bot."""
        self.calls.clear()
        self.posted_ts.clear()
        self.rejected.clear()
        self._scripts.clear()

    def response_url(self, hook: str = "hook") -> str:
        """A response_url the fake records calls to."""
        return f"{self.response_base}{hook}"

    # -- queries -------------------------------------------------------------------------------

    def of(self, method: str) -> list[Call]:
        """Calls of one method, oldest first."""
        return [c for c in self.calls if c.method == method]

    async def wait_for(
        self,
        method: str,
        count: int = 1,
        *,
        timeout: float = 20.0,
        where: Callable[[Call], bool] | None = None,
    ) -> list[Call]:
        """Wait until at least `count` matching calls were recorded; returns them."""
        deadline = time.monotonic() + timeout
        while True:
            found = [c for c in self.of(method) if where is None or where(c)]
            if len(found) >= count:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                seen = [c.method for c in self.calls]
                raise AssertionError(f"{count} x {method} not seen in {timeout}s; calls: {seen}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(remaining, 0.2))

    # -- handlers ------------------------------------------------------------------------------

    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        raw = await request.read()
        if raw:
            if request.content_type == "application/json":
                params.update(json.loads(raw))
            else:
                params.update(parse_qsl(raw.decode()))
        for key in ("blocks", "attachments"):
            if isinstance(params.get(key), str):
                params[key] = json.loads(params[key])
        return params

    def _scripted(self, method: str) -> _Script | None:
        queue = self._scripts.get(method)
        if not queue:
            return None
        script = queue[0]
        script.times -= 1
        if script.times <= 0:
            queue.pop(0)
        return script

    def _record(self, call: Call, rejected: bool = False) -> None:
        (self.rejected if rejected else self.calls).append(call)
        self._changed.set()

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        params["_authorization"] = request.headers.get("Authorization", "")
        script = self._scripted(method)
        if script is not None:
            self._record(Call(method, params), rejected=True)
            if script.status == 429:
                return web.json_response(
                    {"ok": False, "error": "ratelimited"},
                    status=429,
                    headers={"Retry-After": str(script.retry_after)},
                )
            body = {"ok": False, "error": script.error or "fatal_error"}
            return web.json_response(body, status=script.status)
        self._record(Call(method, params))
        return web.json_response(self._answer(method, params))

    def _next_ts(self) -> str:
        return f"{1_700_000_000 + next(self._ts)}.000100"

    def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        channel = str(params.get("channel") or "")
        if method == "oauth.v2.access":
            found = self.oauth_codes.pop(str(params.get("code") or ""), None)
            if found is None:
                return {"ok": False, "error": "invalid_code"}
            team, token = found
            self.token_teams[token] = team
            return {
                "ok": True,
                "app_id": "AAPP0001",
                "access_token": token,
                "token_type": "bot",
                "scope": "chat:write,commands",
                "bot_user_id": BOT_USER_ID,
                "team": {"id": team, "name": f"Team {team}"},
                "enterprise": None,
                "is_enterprise_install": False,
                "authed_user": {"id": "UINSTALL1"},
            }
        if method == "auth.test":
            token = str(params.get("_authorization") or "").removeprefix("Bearer ")
            if self.valid_tokens is not None and token not in self.valid_tokens:
                return {"ok": False, "error": "invalid_auth"}
            return {
                "ok": True,
                "url": "https://fake.slack.com/",
                "team": "Fake",
                "user": "brain",
                "team_id": self.token_teams.get(token, TEAM_ID),
                "user_id": BOT_USER_ID,
                "bot_id": BOT_ID,
            }
        if method == "chat.postMessage":
            ts = self._next_ts()
            self.posted_ts.append(ts)
            message = {k: v for k, v in params.items() if not k.startswith("_")}
            return {"ok": True, "channel": channel, "ts": ts, "message": {**message, "ts": ts}}
        if method == "chat.update":
            return {
                "ok": True,
                "channel": channel,
                "ts": params.get("ts"),
                "text": params.get("text"),
            }
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": self._next_ts()}
        if method == "chat.getPermalink":
            ts = str(params.get("message_ts") or "").replace(".", "")
            return {
                "ok": True,
                "channel": channel,
                "permalink": f"https://fake.slack.com/archives/{channel}/p{ts}",
            }
        if method == "users.info":
            user = str(params.get("user") or "")
            return {"ok": True, "user": {"id": user, "name": user.lower(), "tz": "UTC"}}
        if method == "usergroups.users.list":
            group = str(params.get("usergroup") or "")
            if group not in self.usergroups:
                return {"ok": False, "error": "no_such_subteam"}
            return {"ok": True, "users": list(self.usergroups[group])}
        if method == "apps.connections.open":
            if not self.socket_url:
                return {"ok": False, "error": "socket_mode_not_configured"}
            return {"ok": True, "url": self.socket_url}
        if method == "conversations.replies":
            root = str(params.get("ts") or "")
            posted = zip(self.of("chat.postMessage"), self.posted_ts, strict=False)
            messages = [
                {"type": "message", "ts": ts, "thread_ts": root, "bot_id": BOT_ID,
                 "user": BOT_USER_ID, "text": call.params.get("text", "")}
                for call, ts in posted
                if call.params.get("channel") == channel
                and str(call.params.get("thread_ts") or "") == root
            ]  # fmt: skip
            return {"ok": True, "messages": messages, "has_more": False}
        if method in ("views.open", "views.publish", "views.update"):
            view = params.get("view")
            view = json.loads(view) if isinstance(view, str) else view
            params["view"] = view
            return {"ok": True, "view": {"id": f"V{next(self._ts):08d}", **(view or {})}}
        if method == "openid.connect.token":
            code = str(params.get("code") or "")
            if code not in self.oidc_codes:
                return {"ok": False, "error": "invalid_code"}
            user, team = self.oidc_codes[code]
            claims = {"iss": "https://slack.com", "sub": user, "aud": self.oidc_client_id,
                      "https://slack.com/team_id": team}  # fmt: skip
            if code in self.oidc_nonces:
                claims["nonce"] = self.oidc_nonces[code]
            return {"ok": True, "access_token": f"xoxp-{code}", "token_type": "Bearer",
                    "id_token": _jwt(claims)}  # fmt: skip
        if method == "openid.connect.userInfo":
            token = str(params.get("_authorization") or "").removeprefix("Bearer xoxp-")
            if token not in self.oidc_codes:
                return {"ok": False, "error": "invalid_auth"}
            user, team = self.oidc_codes[token]
            return {"ok": True, "sub": user, "https://slack.com/user_id": user,
                    "https://slack.com/team_id": team}  # fmt: skip
        if method == "reactions.add":
            return {"ok": True}
        return {"ok": False, "error": "unknown_method"}

    async def _response_url(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        self._record(Call("response_url", {**params, "_hook": request.match_info["hook"]}))
        return web.Response(text="ok")


def _jwt(claims: dict[str, Any]) -> str:
    """An (unsigned) JWT of `claims`, as the ID token of openid.connect.token."""

    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}.sig"
