"""The redactor over the generated secret corpus (tests/fixtures/secret_corpus.jsonl, written
by scripts/make_secret_corpus.py): every secret of every format disappears, every look-alike
(ticket ids, commit and stack-trace hashes, digests, versions, hosts, error codes) survives,
and a secret's placeholder says its kind."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from core.redact import redact

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "secret_corpus.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()
]
SECRETS = [row for row in ROWS if "secret" in row]
KEEPS = [row for row in ROWS if "keep" in row]


def test_the_corpus_holds_200_secrets_and_200_look_alikes_in_both_languages() -> None:
    assert len(SECRETS) >= 200 and len(KEEPS) >= 200
    assert {row["lang"] for row in SECRETS} == {row["lang"] for row in KEEPS} == {"en", "zh"}
    assert all((row.get("secret") or row["keep"]) in row["text"] for row in ROWS)


@pytest.mark.parametrize("row", SECRETS, ids=[f"{r['kind']}-{n}" for n, r in enumerate(SECRETS)])
def test_every_secret_disappears(row: dict[str, Any]) -> None:
    redacted = redact(row["text"])
    assert row["secret"] not in redacted
    # No long piece of it survives either (a key body cut in half is still a leak, and so is a
    # JWT's signature or a URL's password without the rest).
    pieces = re.split(r"[\s.:/@]+", row["secret"])
    assert not any(piece in redacted for piece in pieces if len(piece) >= 12)
    if row["kind"] == "passphrase":
        assert not any(word in redacted for word in row["secret"].split())


@pytest.mark.parametrize("row", KEEPS, ids=[f"{r['kind']}-{n}" for n, r in enumerate(KEEPS)])
def test_every_look_alike_survives(row: dict[str, Any]) -> None:
    assert row["keep"] in redact(row["text"])


@pytest.mark.parametrize(
    ("text", "placeholder"),
    [
        ("AKIAIOSFODNN7EXAMPLE", "[AWS_KEY]"),
        ("ghp_" + "a1" * 18, "[GITHUB_TOKEN]"),
        ("4111 1111 1111 1111", "[CARD]"),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----",
            "[PRIVATE_KEY]",
        ),
        (
            "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx",
            "[SLACK_TOKEN]",
        ),
        ("GB82WEST12345698765432", "[IBAN]"),
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
            "[JWT]",
        ),
        ("AB 12 34 56 C", "[NI_NUMBER]"),
        ("npm_" + "a1B2" * 9, "[NPM_TOKEN]"),
        ("redis://:Sw0rdf1sh@cache-01:6379", "redis://:[PASSWORD]@cache-01:6379"),
    ],
)
def test_the_placeholder_keeps_the_kind(text: str, placeholder: str) -> None:
    assert redact(f"look: {text} ok") == f"look: {placeholder} ok"
