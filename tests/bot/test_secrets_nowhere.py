"""A secret typed into Slack is found nowhere afterwards. Every secret of the corpus
(tests/fixtures/secret_corpus.jsonl) is posted to the running app inside messages that end in
each outcome (routed, clarify or boundary, composed, escalated, and routed to an on-call pager
webhook controller); then every file under BRAIN_HOME, every row of every PostgreSQL table
(with the postgres backend), every log line, every webhook body and every call the bot made to
the (fake) Slack Web API, the on-call alert included, is searched for each secret: 0 hits."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ROUTED_TEXT, Harness, StartBot
from tests.fakes.capability_hook import FakeHook

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "secret_corpus.jsonl"
ROWS = [
    row
    for row in map(json.loads, CORPUS.read_text(encoding="utf-8").splitlines())
    if "secret" in row
]
SECRETS = [row["secret"] for row in ROWS]
#: The on-call pager: a webhook controller that the messages about paging the DBA route to.
PAGER_TEXT = "page the database on-call DBA pager now, replication is broken"
PAGER_YAML = """name: pager
description: Pages the database on-call DBA through the pager webhook.
keywords: [pager, page the dba, database on-call, dba on-call]
examples:
  - page the database on-call DBA, replication is broken
  - page the DBA on-call pager, the primary database is down
  - pager the database on-call now
handler: webhook
options: {{url: '{url}', timeout_s: 10}}
"""
#: Messages that end in each outcome; the secrets ride along in a second sentence.
SHAPES = (
    ROUTED_TEXT,
    "book a table for four tonight",
    "CPU alarm on db-01 and also I need Grafana access",
    ESCALATE_TEXT,
    PAGER_TEXT,
)
PER_MESSAGE = 24
NUL_RUN = re.compile(rb"\x00+")


@pytest.fixture
def hook() -> Iterator[FakeHook]:
    """The pager webhook and the capability hook of the fallback ladder: records every body."""
    with FakeHook() as fake:
        yield fake


def _home_files(home: Path) -> list[bytes]:
    """Every file's bytes, each run of NUL bytes cut to one: Qdrant preallocates its WAL and
    pages (32 MB each, mostly zeros), and no secret holds a NUL, so every place a secret could
    be is kept whole while the search reads a few MB instead of 400."""
    files = []
    for path in sorted(home.rglob("*")):
        if path.is_file():
            try:
                data = path.read_bytes()
            except FileNotFoundError:  # a journal's temporary renamed away meanwhile
                continue
            files.append(NUL_RUN.sub(b"\0", data))
    return files


def _postgres_rows(url: str, schema: str) -> list[str]:
    """Every row of every table of the schema, as JSON text (bytea as its bytes)."""
    import psycopg
    from psycopg import sql

    rows: list[str] = []
    with psycopg.connect(url) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (schema,),
        ).fetchall()
        assert tables, f"no tables in schema {schema}"
        for (table,) in tables:
            query = sql.SQL("SELECT * FROM {}.{}").format(
                sql.Identifier(schema), sql.Identifier(table)
            )
            for row in connection.execute(query):
                rows.append(
                    " ".join(
                        bytes(v).decode("utf-8", "replace")
                        if isinstance(v, bytes | memoryview)
                        else json.dumps(v, ensure_ascii=False, default=str)
                        for v in row
                    )
                )
    return rows


async def _post_every_shape(harness: Harness, caplog: pytest.LogCaptureFixture) -> set[str]:
    """Post the corpus in messages of every shape; the outcomes their decisions had."""
    chunks = [ROWS[n : n + PER_MESSAGE] for n in range(0, len(ROWS), PER_MESSAGE)]
    # Most secrets ride in routed messages; the first rows also in one message per other shape.
    texts = [f"{ROUTED_TEXT}. Also: " + " ".join(row["text"] for row in chunk) for chunk in chunks]
    texts += [f"{shape} {ROWS[n]['text']}" for n, shape in enumerate(SHAPES[1:])]
    with caplog.at_level(logging.INFO):
        for n, text in enumerate(texts):
            status, _ = await harness.event(p.message(text, user=f"USECRET{n:02d}"))
            assert status == 200, (status, len(text))
        await harness.idle()
    decisions = [
        harness.brain.log.last_for(f"USECRET{n:02d}", "DCHAT001") for n in range(len(texts))
    ]
    assert any(d is not None and d.escalate for d in decisions)
    assert any(d is not None and d.controller == "pager" for d in decisions)
    assert harness.fake.of("chat.postMessage")  # replies (and the on-call alert) were sent
    return {d.outcome for d in decisions if d is not None}


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["tinydb", "postgres"])
async def test_no_secret_of_the_corpus_is_stored_logged_or_sent(
    start_bot: StartBot,
    hook: FakeHook,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    brain_factory: Any,
    backend: str,
) -> None:
    database: tuple[str, str] | None = None
    if backend == "postgres":
        from tests.pg_server import fresh_schema

        database = (request.getfixturevalue("postgres_server"), fresh_schema())
        monkeypatch.setenv("BRAIN_STORE_BACKEND", "postgres")
        monkeypatch.setenv("BRAIN_DATABASE_URL", database[0])
        monkeypatch.setenv("BRAIN_DATABASE_SCHEMA", database[1])
    monkeypatch.setenv("BRAIN_CAPABILITY_HOOK", hook.url)
    monkeypatch.setenv("BRAIN_WEBHOOK_HOSTS", "127.0.0.1")
    home = load_settings().home
    brain_factory.prepare(home)
    (home / "controllers").mkdir(parents=True, exist_ok=True)
    (home / "controllers" / "pager.yaml").write_text(
        PAGER_YAML.format(url=hook.url), encoding="utf-8"
    )
    harness = await start_bot()
    outcomes = await _post_every_shape(harness, caplog)
    assert "routed" in outcomes and outcomes - {"routed"}, outcomes
    assert any(body.get("controller") == "pager" for body in hook.requests), hook.requests
    await harness.close()  # every store flushed
    rows = _postgres_rows(*database) if database else []
    # The dump holds what was recorded (the searched text is really there), without secrets.
    assert not database or any("VPN keeps dropping" in row for row in rows)
    texts = [
        *rows,
        *(record.getMessage() for record in caplog.records),
        *(json.dumps(body, ensure_ascii=False) for body in hook.requests),
        *(json.dumps(call.params, ensure_ascii=False) for call in harness.fake.calls),
    ]
    # Searched as UTF-8 bytes: a secret in a decoded text is its encoding in the bytes.
    everything = b"\n".join([*_home_files(home), *(text.encode("utf-8") for text in texts)])
    if database:
        from core.stores.postgres.database import close_pool, drop_schema

        close_pool(*database)
        drop_schema(*database)
    leaks = [secret for secret in SECRETS if secret.encode("utf-8") in everything]
    assert leaks == []
