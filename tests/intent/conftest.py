"""Fixtures of the intent tests: a fake Anthropic server and LLM clients pointed at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from core.config import load_settings
from core.llm import LLMClient
from tests.fakes.anthropic_server import FakeAnthropic

#: A recognisable fake key: tests assert it never appears in logs.
FAKE_KEY = "sk-ant-test-0123456789abcdef"


@pytest.fixture
def fake_anthropic() -> Iterator[FakeAnthropic]:
    """A started fake Messages API on an ephemeral port, closed after the test."""
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def make_llm(
    fake_anthropic: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., LLMClient]:
    """Build an `LLMClient` the way the brain does: settings from the environment."""

    def build(timeout_s: float = 5.0) -> LLMClient:
        monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
        monkeypatch.setenv("BRAIN_LLM_TIMEOUT", str(timeout_s))
        # The config default (claude-sonnet-4-5) is deprecated in the installed SDK.
        monkeypatch.setenv("BRAIN_LLM_MODEL", "claude-haiku-4-5")
        client = LLMClient.from_settings(load_settings().llm)
        assert client is not None
        return client

    return build
