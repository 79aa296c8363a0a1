"""The message catalogs: every language says every message, with the same values, and a missing
message or value is an error that names it.

A language's catalog that lacks a key would make a reply fail for its askers only; one whose
template names another value than English's would fail or drop the value. Both are caught here
for every catalog shipped, so adding a language is adding a file that passes this test.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import pytest

from core.safe_yaml import load_shipped_yaml
from core.wording import (
    SOURCE_LANGUAGE,
    WordingError,
    languages,
    placeholders,
    wording,
    wording_for,
)

#: Messages whose languages show different values, each on purpose.
_SHOWN_DIFFERENTLY = {
    # English repeats the ticket store's own sentence; other languages word it from the id.
    "tickets.state_problem.close",
    "tickets.state_problem.reopen",
    "tickets.state_problem.closed",
    # English shows the stored status code after "status"; Chinese its label.
    "tickets.done.urge",
    # English speaks the field's name ("the deliver to"); Chinese shows its label.
    "tickets.one_of",
    "tickets.added_value",
    # Chinese puts a space between a Latin name and the next character; English needs none.
    "alarms.located",
    # English explains an exit code ("killed: out of memory"); Chinese gives the code alone.
    "alarms.exited",
}

OTHERS = [code for code in languages() if code != SOURCE_LANGUAGE]


def test_english_and_chinese_are_shipped() -> None:
    assert languages()[:1] == (SOURCE_LANGUAGE,)
    assert "zh" in OTHERS


def test_the_catalogs_are_package_data() -> None:
    """An installed brain reads its catalogs from the package: `core.wording` is a package the
    build finds, and its YAML files are package data."""
    root = Path(__file__).resolve().parents[2]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert "core*" in setuptools["packages"]["find"]["include"]
    assert "*.yaml" in setuptools["package-data"]["*"]
    assert (root / "core" / "wording" / "__init__.py").is_file()


@pytest.mark.parametrize("language", OTHERS)
def test_every_language_has_every_message_and_no_other(language: str) -> None:
    source, other = wording(SOURCE_LANGUAGE).messages, wording(language).messages
    assert sorted(set(source) - set(other)) == [], f"missing from {language}.yaml"
    assert sorted(set(other) - set(source)) == [], f"in {language}.yaml only"


@pytest.mark.parametrize("language", OTHERS)
def test_every_term_english_names_is_named_in_every_language(language: str) -> None:
    """English lists a term only where it does not show the code as written ("in progress"
    for `in_progress`); a language that lacked it would show the code itself to its askers.
    A language may list more (English shows most field names as written)."""
    source, other = wording(SOURCE_LANGUAGE).terms, wording(language).terms
    missing = {
        f"{table}.{name}"
        for table, names in source.items()
        for name in names
        if name not in other.get(table, {})
    }
    assert missing == set()


@pytest.mark.parametrize("language", OTHERS)
def test_placeholders_agree(language: str) -> None:
    source, other = wording(SOURCE_LANGUAGE).messages, wording(language).messages
    differ = {
        key
        for key in source
        if key not in _SHOWN_DIFFERENTLY and placeholders(source[key]) != placeholders(other[key])
    }
    assert differ == set()
    # The allowed differences are still real keys, so the list cannot outlive them.
    assert set(source) >= _SHOWN_DIFFERENTLY


@pytest.mark.parametrize("language", languages())
def test_placeholders_are_plain_names(language: str) -> None:
    """`{ticket.id}` or `{0}` would reach into a value or depend on argument order."""
    for key, message in wording(language).messages.items():
        for name in placeholders(message):
            assert name.isidentifier(), (language, key, name)


def _keys(tree: object) -> list[object]:
    if not isinstance(tree, Mapping):
        return []
    return [key for key, sub in tree.items() for key in (key, *_keys(sub))]


@pytest.mark.parametrize("language", languages())
def test_every_key_is_text(language: str) -> None:
    """YAML reads a bare `no`, `on` or `1` as a boolean or a number; a key must stay a name."""
    text = resources.files("core.wording").joinpath(f"{language}.yaml").read_text("utf-8")
    assert all(isinstance(key, str) for key in _keys(load_shipped_yaml(text)))


def test_a_message_is_filled_in_and_counted() -> None:
    english, chinese = wording("en"), wording_for(True)
    assert english.say("tickets.not_found", ticket_id="INC-1", advice="Check it.") == (
        "Ticket INC-1 was not found. Check it."
    )
    assert english.say("tickets.times", count=1) == "once"
    assert english.say("tickets.times", count=3) == "3 times"
    assert chinese.say("tickets.times", count=1) == "1 次"


def test_a_term_a_language_does_not_list_is_shown_as_written() -> None:
    assert wording_for(True).term("ticket_status", "in_progress") == "处理中"
    assert wording_for(False).term("ticket_kinds", "incident") == "incident"
    assert wording_for(True).term("fields", "cost_centre") == "cost_centre"
    assert wording_for(True).term("fields", "cost_centre", default="cost centre") == "cost centre"


def test_a_missing_message_or_value_names_it() -> None:
    with pytest.raises(WordingError, match=r"'tickets\.nothing'.*'zh'.*core/wording/zh\.yaml"):
        wording("zh").say("tickets.nothing")
    with pytest.raises(WordingError, match="needs the value 'ticket_id'"):
        wording("en").say("tickets.asks_comment")
    with pytest.raises(WordingError, match="no catalog for the language 'xx'"):
        wording("xx")
