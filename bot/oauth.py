"""Many workspaces: Slack's OAuth install flow through Bolt, on the product's record stores.

With `SLACK_CLIENT_ID` / `SLACK_CLIENT_SECRET` and no bot token, Bolt serves `/slack/install`
and `/slack/oauth_redirect`; each workspace's bot token is kept in the `slack/installations`
collection (TinyDB or PostgreSQL, whichever backend the home uses), encrypted with Fernet under
`BRAIN_TOKEN_KEY`, so a copy of the store alone gives no token. OAuth `state` values live in
`slack/oauth_states` and are consumed once (a replayed redirect is refused). `tokens_revoked` and
`app_uninstalled` delete the workspace's record, so its token is never used again.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from aiohttp import web
from cryptography.fernet import Fernet, InvalidToken
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore

from core.access import many_workspaces
from core.config import ConfigError, Settings
from core.stores import Stores
from core.stores.protocols import Collection

INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
#: Seconds an issued OAuth state stays valid (Slack's consent screen is quick).
STATE_TTL_S = 600


def multi_workspace(settings: Settings) -> bool:
    """OAuth mode: app credentials and no single bot token (`core.access.many_workspaces`)."""
    return many_workspaces(settings)


class TokenCipher:
    """Fernet encryption of tokens at rest (the key never leaves this object; not logged)."""

    def __init__(self, key: str) -> None:
        try:
            self._fernet = Fernet(key.encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            raise ConfigError(
                "BRAIN_TOKEN_KEY is not a Fernet key (32 url-safe base64-encoded bytes; "
                "make one with `python -c 'from cryptography.fernet import Fernet; "
                "print(Fernet.generate_key().decode())'`)"
            ) from None

    def seal(self, token: str | None) -> str | None:
        """The encrypted token (None stays None)."""
        return None if token is None else self._fernet.encrypt(token.encode()).decode("ascii")

    def open(self, sealed: str | None) -> str | None:
        """The token, or None when absent or not sealed with this key."""
        if sealed is None:
            return None
        try:
            return self._fernet.decrypt(sealed.encode("ascii")).decode()
        except InvalidToken:
            return None

    def __repr__(self) -> str:
        return "TokenCipher(<key hidden>)"


def _key(enterprise_id: str | None, team_id: str | None) -> str:
    return f"{enterprise_id or '-'}:{team_id or '-'}"


class RecordInstallationStore(AsyncInstallationStore):
    """Bolt's installation store over one record-store collection (one bot per workspace)."""

    def __init__(self, records: Collection, cipher: TokenCipher) -> None:
        self.records = records
        self.cipher = cipher

    async def async_save(self, installation: Installation) -> None:
        await self.async_save_bot(installation.to_bot())

    async def async_save_bot(self, bot: Bot) -> None:
        document = {
            "key": _key(bot.enterprise_id, bot.team_id),
            "app_id": bot.app_id,
            "enterprise_id": bot.enterprise_id,
            "enterprise_name": bot.enterprise_name,
            "team_id": bot.team_id,
            "team_name": bot.team_name,
            "bot_token": self.cipher.seal(bot.bot_token),
            "bot_refresh_token": self.cipher.seal(bot.bot_refresh_token),
            "bot_token_expires_at": bot.bot_token_expires_at,
            "bot_id": bot.bot_id,
            "bot_user_id": bot.bot_user_id,
            "bot_scopes": list(bot.bot_scopes or []),
            "is_enterprise_install": bool(bot.is_enterprise_install),
            "installed_at": bot.installed_at,
        }
        await asyncio.to_thread(self.records.put_many, [document])

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        if is_enterprise_install:
            team_id = None
        row = await asyncio.to_thread(self.records.get, _key(enterprise_id, team_id))
        if row is None:
            return None
        token = self.cipher.open(row.get("bot_token"))
        if token is None:  # sealed with another key: as good as not installed
            return None
        return Bot(
            app_id=row.get("app_id"),
            enterprise_id=row.get("enterprise_id"),
            enterprise_name=row.get("enterprise_name"),
            team_id=row.get("team_id"),
            team_name=row.get("team_name"),
            bot_token=token,
            bot_refresh_token=self.cipher.open(row.get("bot_refresh_token")),
            bot_token_expires_at=row.get("bot_token_expires_at"),
            bot_id=str(row.get("bot_id") or ""),
            bot_user_id=str(row.get("bot_user_id") or ""),
            bot_scopes=list(row.get("bot_scopes") or []),
            is_enterprise_install=bool(row.get("is_enterprise_install")),
            installed_at=float(row.get("installed_at") or time.time()),
        )

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        bot = await self.async_find_bot(
            enterprise_id=enterprise_id,
            team_id=team_id,
            is_enterprise_install=is_enterprise_install,
        )
        if bot is None:
            return None
        return Installation(
            app_id=bot.app_id,
            enterprise_id=bot.enterprise_id,
            team_id=bot.team_id,
            team_name=bot.team_name,
            bot_token=bot.bot_token,
            bot_id=bot.bot_id,
            bot_user_id=bot.bot_user_id,
            bot_scopes=bot.bot_scopes,
            user_id=user_id or "",
            is_enterprise_install=bot.is_enterprise_install,
            installed_at=bot.installed_at,
        )

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await asyncio.to_thread(self.records.remove, [_key(enterprise_id, team_id)])

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        if user_id is None:  # the bot's installation (no user tokens are kept)
            await self.async_delete_bot(enterprise_id=enterprise_id, team_id=team_id)

    async def async_delete_all(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await self.async_delete_bot(enterprise_id=enterprise_id, team_id=team_id)

    def teams(self) -> list[str]:
        """Installed workspaces' team ids (blocking)."""
        return sorted(str(row.get("team_id")) for row in self.records.all() if row.get("team_id"))


class RecordStateStore(AsyncOAuthStateStore):
    """OAuth states in a record-store collection: each is accepted once, within its TTL."""

    def __init__(self, records: Collection, ttl_s: float = STATE_TTL_S) -> None:
        self.records = records
        self.ttl_s = ttl_s

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        state = secrets.token_urlsafe(32)
        row = {"state": state, "expires_at": time.time() + self.ttl_s}
        await asyncio.to_thread(self.records.insert, row)
        return state

    async def async_consume(self, state: str) -> bool:
        def take() -> bool:
            taken: list[float] = []

            def use(row: dict[str, Any]) -> None:  # atomic: one of two racing redirects wins
                if not row.get("used"):
                    row["used"] = True
                    taken.append(float(row.get("expires_at") or 0))

            self.records.modify(state, use)
            self.records.remove([state])
            return bool(taken) and taken[0] > time.time()

        return await asyncio.to_thread(take)


def mount(application: web.Application, app: AsyncApp) -> None:
    """Serve Bolt's install page and OAuth redirect (GET) when the app runs the OAuth flow."""
    flow = app.oauth_flow
    if flow is None:
        return

    async def install(request: web.Request) -> web.Response:
        return await to_aiohttp_response(
            await flow.handle_installation(await to_bolt_request(request))
        )

    async def redirect(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await flow.handle_callback(await to_bolt_request(request)))

    application.router.add_get(INSTALL_PATH, install)
    application.router.add_get(REDIRECT_PATH, redirect)


def settings_for(
    settings: Settings, scopes: tuple[str, ...], stores: Stores | None
) -> AsyncOAuthSettings | None:
    """Bolt's OAuth settings on the home's record stores (the adapter's, `stores`; bot
    tokens only), or None in single-token mode."""
    if not multi_workspace(settings):
        return None
    if stores is None:
        raise ConfigError("the OAuth install flow needs the home's record stores")
    slack = settings.slack
    if slack.token_key is None:
        raise ConfigError(
            "SLACK_CLIENT_ID/SLACK_CLIENT_SECRET need BRAIN_TOKEN_KEY: installed bot tokens "
            "are stored encrypted with it"
        )
    assert slack.client_secret is not None  # multi_workspace() checked it
    return AsyncOAuthSettings(
        client_id=slack.client_id,
        client_secret=slack.client_secret.get_secret_value(),
        scopes=list(scopes),
        install_path=INSTALL_PATH,
        redirect_uri_path=REDIRECT_PATH,
        installation_store=RecordInstallationStore(
            stores.installations, TokenCipher(slack.token_key.get_secret_value())
        ),
        installation_store_bot_only=True,
        state_store=RecordStateStore(stores.oauth_states),
    )
