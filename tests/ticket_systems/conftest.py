"""Fixtures: the fake Jira Service Management site and a client signed in to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controllers.ticket_systems.jira_client import JiraClient
from tests.fakes.jira_api import API_TOKEN, EMAIL, FakeJira


@pytest.fixture
def fake_jira() -> Iterator[FakeJira]:
    with FakeJira(timeout_delay_s=0.6) as fake:
        yield fake


@pytest.fixture
def jira_client(fake_jira: FakeJira) -> Iterator[JiraClient]:
    client = JiraClient(fake_jira.url, email=EMAIL, token=API_TOKEN, timeout_s=0.3)
    yield client
    client.close()
