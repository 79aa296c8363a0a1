"""Slack installations and OAuth states on every backend (`bot.oauth` over `Stores`)."""

from __future__ import annotations

import asyncio

from cryptography.fernet import Fernet
from slack_sdk.oauth.installation_store import Installation

from bot.oauth import RecordInstallationStore, RecordStateStore, TokenCipher
from core.stores import Stores


def test_installations_keep_tokens_encrypted_and_are_deleted(stores: Stores) -> None:
    store = RecordInstallationStore(
        stores.installations, TokenCipher(Fernet.generate_key().decode())
    )

    async def run() -> None:
        for team, token in (("T1", "xoxb-1"), ("T2", "xoxb-2")):
            await store.async_save(Installation(team_id=team, bot_token=token, user_id="U1",
                                                bot_id="B1", bot_user_id="UB"))  # fmt: skip
        assert all("xoxb" not in str(row) for row in stores.installations.all())
        found = await store.async_find_bot(enterprise_id=None, team_id="T2")
        assert found is not None and found.bot_token == "xoxb-2"
        await store.async_delete_all(enterprise_id=None, team_id="T2")
        assert await store.async_find_bot(enterprise_id=None, team_id="T2") is None
        assert store.teams() == ["T1"]
        other = RecordInstallationStore(
            stores.installations, TokenCipher(Fernet.generate_key().decode())
        )
        assert await other.async_find_bot(enterprise_id=None, team_id="T1") is None  # wrong key

    asyncio.run(run())


def test_an_oauth_state_is_accepted_once(stores: Stores) -> None:
    states = RecordStateStore(stores.oauth_states)

    async def run() -> None:
        state = await states.async_issue()
        assert await states.async_consume(state) is True
        assert await states.async_consume(state) is False
        assert await states.async_consume("never-issued") is False
        expired = RecordStateStore(stores.oauth_states, ttl_s=-1)
        assert await expired.async_consume(await expired.async_issue()) is False

    asyncio.run(run())
