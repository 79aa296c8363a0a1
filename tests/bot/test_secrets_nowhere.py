"""Issue 31: a secret typed into Slack is found nowhere afterwards. Every secret of the corpus
(tests/fixtures/secret_corpus.jsonl) is posted to the running app inside messages that end in
each outcome (routed, clarify or boundary, composed, escalated); then every file under
BRAIN_HOME, every log line and every call the bot made to the (fake) Slack Web API, the on-call
alert included, is searched for each secret: 0 hits."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ROUTED_TEXT, Harness

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "secret_corpus.jsonl"
ROWS = [
    row
    for row in map(json.loads, CORPUS.read_text(encoding="utf-8").splitlines())
    if "secret" in row
]
SECRETS = [row["secret"] for row in ROWS]
#: Messages that end in each outcome; the secrets ride along in a second sentence.
SHAPES = (
    ROUTED_TEXT,
    "book a table for four tonight",
    "CPU alarm on db-01 and also I need Grafana access",
    ESCALATE_TEXT,
)
PER_MESSAGE = 24


def _everything_written(home: Path, harness: Harness, caplog: pytest.LogCaptureFixture) -> str:
    files = []
    for path in sorted(home.rglob("*")):
        if path.is_file():
            try:
                files.append(path.read_bytes().decode("utf-8", "replace"))
            except FileNotFoundError:  # a journal's temporary renamed away meanwhile
                continue
    logs = [record.getMessage() for record in caplog.records]
    calls = [json.dumps(call.params, ensure_ascii=False) for call in harness.fake.calls]
    return "\n".join([*files, *logs, *calls])


async def test_no_secret_of_the_corpus_is_stored_logged_or_sent(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
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
    outcomes = {d.outcome for d in decisions if d is not None}
    assert "routed" in outcomes and outcomes - {"routed"}, outcomes
    assert any(d is not None and d.escalate for d in decisions)
    assert harness.fake.of("chat.postMessage")  # replies (and the on-call alert) were sent
    written = _everything_written(load_settings().home, harness, caplog)
    leaks = [secret for secret in SECRETS if secret in written]
    assert leaks == []
