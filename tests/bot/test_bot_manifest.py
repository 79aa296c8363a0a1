"""manifest.yml declares exactly what the code uses."""

from __future__ import annotations

from pathlib import Path

import yaml

from bot.listeners import BOT_EVENTS, BOT_SCOPES, SHORTCUTS, SLASH_COMMANDS
from bot.server import EVENTS_PATH

MANIFEST = Path(__file__).resolve().parents[2] / "manifest.yml"


def test_manifest_matches_the_listeners() -> None:
    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    settings = manifest["settings"]
    assert sorted(settings["event_subscriptions"]["bot_events"]) == sorted(BOT_EVENTS)
    assert sorted(manifest["oauth_config"]["scopes"]["bot"]) == sorted(BOT_SCOPES)
    commands = manifest["features"]["slash_commands"]
    assert [c["command"] for c in commands] == list(SLASH_COMMANDS)
    shortcuts = manifest["features"].get("shortcuts") or []
    assert [s["callback_id"] for s in shortcuts] == list(SHORTCUTS)
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is True
    urls = [
        settings["event_subscriptions"]["request_url"],
        settings["interactivity"]["request_url"],
        *(c["url"] for c in commands),
    ]
    assert all(url.endswith(EVENTS_PATH) for url in urls)
    assert manifest["features"]["app_home"]["messages_tab_enabled"] is True
