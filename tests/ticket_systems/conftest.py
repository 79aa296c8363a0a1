"""Fixtures: the fake Jira Service Management site, a client signed in to it, and a brain home
configured to keep its tickets in step with it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controllers.ticket_systems.jira_client import JiraClient
from controllers.tickets import TicketStore
from core.config import load_settings
from tests.fakes.jira_api import API_TOKEN, EMAIL, FakeJira
from tests.ticket_systems.config import jira_config


@pytest.fixture
def fake_jira() -> Iterator[FakeJira]:
    with FakeJira(timeout_delay_s=0.6) as fake:
        yield fake


@pytest.fixture
def jira_client(fake_jira: FakeJira) -> Iterator[JiraClient]:
    client = JiraClient(fake_jira.url, email=EMAIL, token=API_TOKEN, timeout_s=0.3)
    yield client
    client.close()


@pytest.fixture
def jira_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The account's e-mail and API token where `[tickets.jira]` looks by default."""
    monkeypatch.setenv("JIRA_EMAIL", EMAIL)
    monkeypatch.setenv("JIRA_API_TOKEN", API_TOKEN)


@pytest.fixture
def synced_home(
    isolated_env: Path, fake_jira: FakeJira, jira_env: None
) -> Callable[..., TicketStore]:
    """Write brain.toml for the fake; returns a function opening the home's ticket store
    (as the command line does), optionally with more configuration."""

    def configure(extra: str = "") -> TicketStore:
        isolated_env.mkdir(parents=True, exist_ok=True)
        (isolated_env / "brain.toml").write_text(
            jira_config(fake_jira.url, extra=extra), encoding="utf-8"
        )
        return TicketStore.open(load_settings())

    return configure
