"""`brain memory forget --user U1`: no text of U1's is left in any file under BRAIN_HOME (nor in
any PostgreSQL table when the records are there), their decisions stay (redacted), and their
messages route as before the lesson."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from psycopg import sql

from brain.conversation.turns import Conversation
from brain.engine import Brain
from core.config import Settings
from core.files import copy_tree
from core.records import Message
from tests.cli_calls import brain_call

ORIGINAL = "the money for order 88231 has still not arrived"
PARAPHRASES = [
    "order 99127: funds still not received",
    "钱没到，订单 77102",
    "payment for order 40211 not arrived yet",
]


def _files_holding(home: Path, texts: list[str]) -> list[str]:
    forms = [t.encode() for t in texts] + [json.dumps(t).strip('"').encode() for t in texts]
    return [
        str(path.relative_to(home))
        for path in home.rglob("*")
        if path.is_file() and any(form in path.read_bytes() for form in forms)
    ]


@pytest.mark.slow
def test_forget_leaves_no_text_of_the_user_and_undoes_the_lesson(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Brain.open() as brain:
        first = brain.ask(Message(ORIGINAL, user="U1", channel="C1"))
        assert first.controller == "ticket"
        brain.feedback(first.decision_id, "correct", controller="consultation", user="U1")
        learned = [brain.ask(Message(t, user="U1", channel="C2")) for t in PARAPHRASES]
        # all three, the Chinese one too (English and Chinese meet by the multilingual measure)
        assert [d.controller for d in learned] == ["consultation"] * len(PARAPHRASES)
        kept = brain.ask(Message("my VPN keeps dropping, error 691", user="U9", channel="C9"))
    assert _files_holding(home, [ORIGINAL, *PARAPHRASES])  # precondition: the texts are kept
    shown = json.loads(brain_call(capsys, "memory", "show", "--user", "U1", "--json"))
    # the correction, and the route that then held for the asker's next messages
    assert {lesson["kind"] for lesson in shown} == {
        "correction-wrong",
        "correction-right",
        "consecutive",
    }

    report = json.loads(brain_call(capsys, "memory", "forget", "--user", "U1", "--json"))

    assert report["lessons"] == 3 and report["decisions"] >= 4
    assert _files_holding(home, [ORIGINAL, *PARAPHRASES]) == []
    assert json.loads(brain_call(capsys, "memory", "show", "--user", "U1", "--json")) == []
    with Brain.open() as brain:
        forgotten = brain.get_decision(first.decision_id)
        assert forgotten.text == "[forgotten]" and forgotten.controller == "ticket"
        assert forgotten.feedback == []
        assert brain.get_decision(kept.decision_id).text == kept.text  # others' stay
        again = [brain.decide(Message(t, user="U1", channel="C3")) for t in PARAPHRASES]
    assert all(d.controller != "consultation" for d in again), [d.tier_path for d in again]
    assert not any(d.preference for d in again)


#: Two turns of one thread of U7's, kept in the thread's conversation state as in Slack.
THREAD_TEXTS = [
    "the finance share on fs-02 will not mount since this morning",
    "it still fails after a reboot of the laptop",
]


def test_forget_from_the_command_line_removes_the_users_threads(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The threads file (the Slack app's conversation state) holds the thread's recent texts:
    `brain memory forget` clears it as /brain-forget does, one forget for every entry point."""
    with Brain.open() as brain:
        conversation = Conversation(brain, brain.conversations)  # as the Slack app keeps them
        for text in THREAD_TEXTS:
            conversation.handle(Message(text, user="U7", channel="C7", thread="T7"))
        conversation.handle(Message("my VPN keeps dropping", user="U9", channel="C9", thread="T9"))
    held = _files_holding(home, THREAD_TEXTS)
    assert any("conversations" in path for path in held), held  # precondition

    report = json.loads(brain_call(capsys, "memory", "forget", "--user", "U7", "--json"))

    assert report["threads"] == 1
    assert _files_holding(home, THREAD_TEXTS) == []
    with Brain.open() as brain:
        assert brain.conversations.keys_of("U7") == []
        assert brain.conversations.keys_of("U9")  # others' threads stay


#: An unknown request of U1's that a person resolves (kept in the case book).
UNKNOWN = "book the large meeting room on floor 5 for Friday 3pm"


def _rows_holding(settings: Settings, texts: list[str]) -> list[str]:
    """The tables of the home's PostgreSQL schema with a row whose text holds one of `texts`
    (as written or JSON-escaped)."""
    import psycopg  # the test reads the tables themselves, not through the stores

    assert settings.storage.database_url is not None
    schema = settings.storage.database_schema
    forms = texts + [json.dumps(t).strip('"') for t in texts]
    found = []
    with psycopg.connect(settings.storage.database_url.get_secret_value()) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (schema,),
        ).fetchall()
        for (table,) in tables:
            query = sql.SQL("SELECT t::text FROM {}.{} t").format(
                sql.Identifier(schema), sql.Identifier(table)
            )
            rows = [str(row[0]) for row in conn.execute(query).fetchall()]
            if any(form in row for row in rows for form in forms):
                found.append(table)
    return sorted(found)


def test_forget_leaves_no_text_of_the_user_in_the_postgres_tables(
    postgres_settings: Settings,
    fitted_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    copy_tree(fitted_home, postgres_settings.home)
    texts = [ORIGINAL, PARAPHRASES[0], UNKNOWN]
    with Brain.open(postgres_settings) as brain:
        first = brain.ask(Message(ORIGINAL, user="U1", channel="C1"))
        brain.feedback(first.decision_id, "correct", controller="consultation", user="U1")
        brain.ask(Message(PARAPHRASES[0], user="U1", channel="C2"))
        unknown = brain.ask(Message(UNKNOWN, user="U1", channel="C3"))
        brain.resolve(unknown.decision_id, route="ticket", user="agent")
        kept = brain.ask(Message("my VPN keeps dropping, error 691", user="U9", channel="C9"))
    held = _rows_holding(postgres_settings, texts)
    assert "decisions" in held and "records" in held, held  # precondition: the texts are kept

    storage = postgres_settings.storage
    assert storage.database_url is not None
    monkeypatch.setenv("BRAIN_HOME", str(postgres_settings.home))
    monkeypatch.setenv("BRAIN_STORE_BACKEND", "postgres")
    monkeypatch.setenv("BRAIN_DATABASE_URL", storage.database_url.get_secret_value())
    monkeypatch.setenv("BRAIN_DATABASE_SCHEMA", storage.database_schema)
    report = json.loads(brain_call(capsys, "memory", "forget", "--user", "U1", "--json"))

    # the correction's two lessons and the resolution's (a lesson about U1's message)
    assert report["lessons"] == 3 and report["cases"] == 1
    assert _rows_holding(postgres_settings, texts) == []
    assert _files_holding(postgres_settings.home, texts) == []
    assert "decisions" in _rows_holding(postgres_settings, [kept.text])  # others' stay
