"""Records returned by the knowledge-base routing skill."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

#: How many trailing parts of a source's path a reader is shown (its folder and file name).
SHOWN_PATH_PARTS = 2


def shown_source(source: str) -> str:
    """The name a reader is shown for a document: its folder and file name
    ("runbooks/failed-batch-job.md"), not the path where this installation keeps the knowledge
    base (an absolute server path says nothing to a person in Slack and tells a stranger how the
    server is laid out). A source that is not a file path (a URL) is shown as it is."""
    if "://" in source:
        return source
    return "/".join(PurePath(source).parts[-SHOWN_PATH_PARTS:])


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieved chunk."""

    source: str
    title: str
    text: str
    score: float
    section: str = ""
    language: str = ""
    domain: str = ""
    chunk_id: str = ""
    #: The dense (MiniLM) cosine of the query and the chunk; None when not searched densely.
    dense: float | None = None
    #: The multilingual cosine of a Chinese or mixed query and the chunk (`knowledge.meaning`);
    #: None for an English query or when not asked for.
    meaning: float | None = None
    #: How close in meaning the chunk, read whole and in parts, is to the query
    #: (`knowledge.meaning.Closeness.near`): what orders hits read on meaning; None with
    #: `meaning`.
    near: float | None = None


@dataclass(frozen=True, slots=True)
class Definition:
    """A glossary entry."""

    term: str
    definition: str
    domain: str = ""
    aliases: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True, slots=True)
class IdMatch:
    """An identifier recognised by an ID pattern of the knowledge base."""

    token: str
    kind: str
    domain: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Confirmation:
    """How strongly the knowledge base supports routing a text to a controller (0..1)."""

    controller: str
    score: float
    evidence: tuple[Hit, ...] = field(default_factory=tuple)
