"""The words people read, as data: one message catalog per language, `<code>.yaml` beside this
module (`en.yaml`, `zh.yaml`).

Replies in two languages used to be pairs of functions, an English one and a Chinese one, side
by side in every module that speaks to people; a third language meant editing all of them. Here
a reply's wording is a message in each language's catalog, found by a key namespaced by its area
("tickets.not_found"), and the code only chooses the key and the values. Adding a language is
adding its file: `languages()` lists the files shipped, and `tests/core/test_wording.py` fails
until the new file has every key of the English one with the same placeholders.

A catalog file has two parts:

- `messages`: nested mappings whose leaves are `str.format` templates with `{name}`
  placeholders ("Ticket {ticket_id} was not found."). A leaf may instead be a plural mapping,
  `{one: ..., other: ...}`, chosen by the `count` value (`one` when it reads "1"; a language
  without singular forms gives `other` only).
- `terms`: tables of names the code holds as data (ticket statuses, kinds, field names) and how
  this language shows them. A table may be partial, and a language need not have it: a term a
  language does not list is shown as written.

A missing key or a missing value is a `WordingError` that names the key, the language and the
file, never a silently English or empty reply.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from core.errors import BrainError
from core.safe_yaml import load_shipped_yaml

__all__ = [
    "SOURCE_LANGUAGE",
    "Wording",
    "WordingError",
    "languages",
    "placeholders",
    "templates",
    "wording",
    "wording_for",
]

#: The language every other catalog is checked against: it holds every key.
SOURCE_LANGUAGE = "en"
_PLURAL_FORMS = frozenset({"one", "other"})

#: A message: a template, or its plural forms ("one", "other").
Message = str | Mapping[str, str]


class WordingError(BrainError, KeyError):
    """A message or a value it needs is missing; the text names which, in which catalog."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True, slots=True)
class Wording:
    """One language's catalog: its messages by dotted key and its term tables."""

    language: str
    messages: Mapping[str, Message]
    terms: Mapping[str, Mapping[str, str]]

    def say(self, key: str, /, **values: object) -> str:
        """The message `key` in this language with `values` filled in."""
        message = self.messages.get(key)
        if message is None:
            raise WordingError(
                f"no message {key!r} in the {self.language!r} catalog ({_file(self.language)})"
            )
        if not isinstance(message, str):
            form = "one" if str(values.get("count")) == "1" and "one" in message else "other"
            message = message[form]
        try:
            return message.format_map(values)
        except KeyError as missing:
            raise WordingError(
                f"message {key!r} ({self.language}) needs the value {missing.args[0]!r}"
            ) from None

    def term(self, table: str, name: str, default: str | None = None) -> str:
        """How this language shows `name` of `table` (a status, a kind, a field): its entry, or
        `default` (`name` itself when none is given) when the language does not list it."""
        shown = self.terms.get(table, {}).get(name)
        if shown is not None:
            return shown
        return name if default is None else default


def _file(language: str) -> str:
    return f"core/wording/{language}.yaml"


@cache
def languages() -> tuple[str, ...]:
    """The languages with a catalog shipped, the source language first."""
    found = sorted(
        entry.name.removesuffix(".yaml")
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".yaml")
    )
    return (SOURCE_LANGUAGE, *(code for code in found if code != SOURCE_LANGUAGE))


def _flatten(tree: object, prefix: str, out: dict[str, Message], language: str) -> None:
    if isinstance(tree, str):
        out[prefix] = tree
        return
    if not isinstance(tree, Mapping) or not tree:
        raise WordingError(f"{_file(language)}: {prefix or 'messages'} is not a message or a table")
    keys = {str(key) for key in tree}
    if keys <= _PLURAL_FORMS and "other" in keys:
        if not all(isinstance(form, str) for form in tree.values()):
            raise WordingError(f"{_file(language)}: the plural forms of {prefix} are not text")
        out[prefix] = {str(form): str(text) for form, text in tree.items()}
        return
    for key, sub in tree.items():
        _flatten(sub, f"{prefix}.{key}" if prefix else str(key), out, language)


@cache
def wording(language: str) -> Wording:
    """The catalog of `language` ("en", "zh"), read once a process."""
    source = resources.files(__name__).joinpath(f"{language}.yaml")
    if not source.is_file():
        raise WordingError(f"no catalog for the language {language!r} ({_file(language)})")
    data = load_shipped_yaml(source.read_text(encoding="utf-8")) or {}
    messages: dict[str, Message] = {}
    _flatten(data.get("messages") or {}, "", messages, language)
    tables = data.get("terms") or {}
    terms = {
        str(table): {str(name): str(shown) for name, shown in (rows or {}).items()}
        for table, rows in tables.items()
    }
    return Wording(language=language, messages=messages, terms=terms)


def wording_for(zh: bool) -> Wording:
    """The catalog for code that still carries the asker's language as `zh` (Chinese or not)."""
    return wording("zh" if zh else SOURCE_LANGUAGE)


def templates(area: str) -> dict[str, tuple[str, ...]]:
    """An area's messages as templates, one a language in the order of `languages()`, by
    their key within the area (`templates("slack")["urgent"]`): for code and checks that read
    a phrase in every language at once. A plural message gives its `other` form."""
    prefix = f"{area}."
    catalogs = [wording(language).messages for language in languages()]
    return {
        key.removeprefix(prefix): tuple(_template(catalog[key]) for catalog in catalogs)
        for key in catalogs[0]
        if key.startswith(prefix)
    }


def _template(message: Message) -> str:
    return message if isinstance(message, str) else message["other"]


def placeholders(message: Message) -> frozenset[str]:
    """The `{name}` placeholders of a message (of all its plural forms)."""
    texts = [message] if isinstance(message, str) else list(message.values())
    return frozenset(
        name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name
    )
