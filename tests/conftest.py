"""Suite-wide isolation: every test gets its own BRAIN_HOME and no ambient credentials."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

_AMBIENT = (
    "BRAIN_CONFIG",
    "BRAIN_QDRANT_URL",
    "BRAIN_QDRANT_API_KEY",
    "BRAIN_EMBEDDER",
    "BRAIN_CHANNELS",
    "BRAIN_ONCALL_CHANNEL",
    "BRAIN_ONCALL_MENTION",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh BRAIN_HOME per test; nothing from the developer's shell leaks in."""
    for name in _AMBIENT:
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "brain-home"
    monkeypatch.setenv("BRAIN_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    yield home
