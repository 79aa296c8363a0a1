"""Turning one file into chunks: Markdown by headings, text by paragraphs, YAML entries.

Every chunk's payload holds: kind (doc | glossary | id_pattern), source, title, section,
language (zh | en | mixed, by CJK ratio), domain (front matter `domain:`, the YAML field, or
the folder name) and text. A file that cannot be used raises `SkipFile` with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from core.errors import BrainError
from core.limits import MAX_KB_FILE_BYTES
from core.safe_regex import UnsafePattern, compile_bounded
from core.safe_yaml import YamlLimitError, load_yaml
from core.text.language import detect_language
from core.wording import wording
from knowledge.chunk import Chunk, point_id

#: File types and how to read them.
SUPPORTED: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".yaml": "yaml",
    ".yml": "yaml",
}
MAX_FILE_BYTES = MAX_KB_FILE_BYTES
#: Longest chunk text; longer sections are split at paragraph boundaries.
MAX_CHUNK_CHARS = 1200
#: Part of every content digest: bump it when chunking changes so re-ingest redoes all files.
CHUNKER_VERSION = "1"

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


class SkipFile(BrainError):
    """This file is not ingested; the message is the reason shown to the user."""


class Document:
    """One file's chunks, counted before any is built: the file is read and checked whole
    (a bad entry refuses it before anything is written), its chunks are then made one at a
    time as they are iterated, so an ingest holds a batch of them, never the file's all."""

    def __init__(self, count: int, build: Callable[[], Iterator[Chunk]]) -> None:
        self._count = count
        self._build = build

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Chunk]:
        return self._build()


@dataclass(frozen=True, slots=True)
class _Section:
    heading: str
    body: str


def decode(path: Path, data: bytes) -> str:
    """The text of a file, or SkipFile for binary, non-UTF-8 or empty content."""
    if b"\x00" in data[:8192]:
        raise SkipFile("binary file (NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SkipFile(f"not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise SkipFile("empty file")
    return text


def parse(path: Path, text: str, source: str) -> Document:
    """Chunks of one decoded file (`source` is the id-stable name stored in the payload)."""
    kind = SUPPORTED.get(path.suffix.lower())
    if kind == "markdown":
        chunks = _markdown(path, text, source)
    elif kind == "text":
        chunks = _plain(path, text, source)
    elif kind == "yaml":
        chunks = _yaml(path, text, source)
    else:
        raise SkipFile(f"unsupported file type {path.suffix or '(none)'}")
    if not len(chunks):
        raise SkipFile("no content to index")
    return chunks


def _front_matter(text: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---"):
        return {}, text
    lines = text.splitlines()
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            try:
                meta = load_yaml("\n".join(lines[1:end])) or {}
            except YamlLimitError as exc:
                raise SkipFile(f"refused front matter: {exc}") from None
            except yaml.YAMLError as exc:
                raise SkipFile(f"invalid front matter: {_yaml_problem(exc)}") from None
            if not isinstance(meta, dict):
                raise SkipFile("invalid front matter: not a mapping")
            return meta, "\n".join(lines[end + 1 :])
    return {}, text


def _sections(body: str) -> tuple[str, list[_Section]]:
    title = ""
    sections: list[_Section] = []
    heading = ""
    lines: list[str] = []
    in_fence = False
    for line in body.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING.match(line)
        if match is None:
            lines.append(line)
            continue
        sections.append(_Section(heading, "\n".join(lines).strip()))
        heading, lines = match.group(2).strip(), []
        if len(match.group(1)) == 1 and not title:
            title = heading
    sections.append(_Section(heading, "\n".join(lines).strip()))
    return title, [section for section in sections if section.body]


def _split(body: str) -> list[str]:
    """Paragraph-bounded pieces of at most MAX_CHUNK_CHARS (a longer paragraph stays whole)."""
    pieces: list[str] = []
    current = ""
    for paragraph in re.split(r"\n\s*\n", body):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        if current and len(current) + len(paragraph) + 2 > MAX_CHUNK_CHARS:
            pieces.append(current)
            current = paragraph
        else:
            current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        pieces.append(current)
    return pieces


def _title_section(title: str, section: str) -> str:
    """A chunk's header: its document's title and its section, as `brain kb search` shows a
    hit (the catalog's English, whatever the document's language: the index does not depend
    on who asks)."""
    return wording("en").say("common.title_section", title=title, section=section)


def _doc_chunks(
    source: str, title: str, sections: list[_Section], domain: str, language: str | None
) -> Document:
    pieces = [(section.heading, piece) for section in sections for piece in _split(section.body)]

    def build() -> Iterator[Chunk]:
        for index, (section_heading, piece) in enumerate(pieces):
            heading = section_heading if section_heading != title else ""
            header = _title_section(title, heading) if heading else title
            text = f"{header}\n{piece}"
            payload: dict[str, Any] = {
                "kind": "doc",
                "source": source,
                "title": title,
                "section": heading,
                "language": language or detect_language(text),
                "domain": domain,
                "text": piece,
            }
            yield Chunk(point_id(source, index, heading), text, payload)

    return Document(len(pieces), build)


def _markdown(path: Path, text: str, source: str) -> Document:
    meta, body = _front_matter(text)
    first_heading, sections = _sections(body)
    title = str(meta.get("title") or first_heading or path.stem)
    domain = str(meta.get("domain") or path.parent.name)
    language = str(meta["language"]) if meta.get("language") else None
    return _doc_chunks(source, title, sections, domain, language)


def _plain(path: Path, text: str, source: str) -> Document:
    title = path.stem.replace("_", " ").replace("-", " ")
    return _doc_chunks(source, title, [_Section("", text.strip())], path.parent.name, None)


def _yaml_problem(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"{problem} at line {mark.line + 1}" if mark is not None else str(problem)


def _as_list(value: Any, what: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise SkipFile(f"invalid YAML: '{what}' must be a list of mappings")
    return value


def _yaml(path: Path, text: str, source: str) -> Document:
    try:
        data = load_yaml(text)
    except YamlLimitError as exc:
        raise SkipFile(f"refused YAML: {exc}") from None
    except yaml.YAMLError as exc:
        raise SkipFile(f"invalid YAML: {_yaml_problem(exc)}") from None
    if not isinstance(data, dict) or not ("glossary" in data or "id_patterns" in data):
        raise SkipFile("YAML has neither 'glossary' nor 'id_patterns' entries")
    default_domain = str(data.get("domain") or path.parent.name)
    glossary = _as_list(data.get("glossary"), "glossary")
    patterns = _as_list(data.get("id_patterns"), "id_patterns")
    for number, entry in enumerate(glossary, 1):
        if (
            not str(entry.get("term") or "").strip()
            or not str(entry.get("definition") or "").strip()
        ):
            raise SkipFile(f"glossary entry {number} needs 'term' and 'definition'")
    for entry in patterns:
        name = str(entry.get("name") or "").strip()
        regex = str(entry.get("regex") or "")
        if not name or not regex:
            raise SkipFile(f"id pattern {name or '?'} needs 'name' and 'regex'")
        try:
            compile_bounded(regex)
        except UnsafePattern as exc:
            raise SkipFile(f"id pattern {name}: {exc}") from None

    def build() -> Iterator[Chunk]:
        for index, entry in enumerate(glossary):
            yield _glossary_chunk(entry, source, index, default_domain)
        for index, entry in enumerate(patterns, len(glossary)):
            yield _pattern_chunk(entry, source, index, default_domain)

    return Document(len(glossary) + len(patterns), build)


def _glossary_chunk(entry: dict[str, Any], source: str, index: int, default_domain: str) -> Chunk:
    term = str(entry.get("term") or "").strip()
    definition = str(entry.get("definition") or "").strip()
    aliases = [str(alias) for alias in entry.get("aliases") or []]
    line = f"{term} ({', '.join(aliases)}): {definition}" if aliases else f"{term}: {definition}"
    payload: dict[str, Any] = {
        "kind": "glossary",
        "source": source,
        "title": term,
        "section": "glossary",
        "language": str(entry.get("language") or detect_language(line)),
        "domain": str(entry.get("domain") or default_domain),
        "text": line,
        "term": term,
        "aliases": aliases,
        "definition": definition,
        # Words that select this sense of a polysemous term (the desk's slang for "the money
        # has not arrived" near "disbursement").
        "contexts": [str(c) for c in entry.get("contexts") or [] if str(c).strip()],
    }
    return Chunk(point_id(source, index, term), line, payload)


def _pattern_chunk(entry: dict[str, Any], source: str, index: int, default_domain: str) -> Chunk:
    name = str(entry.get("name") or "").strip()
    regex = str(entry.get("regex") or "")
    description = str(entry.get("description") or "").strip()
    line = f"{name}: {description}" if description else name
    # `domain: none` (or null): the identifier names a thing (a device, a host), not the
    # kind of work, so it is an entity but no evidence for any controller.
    domain = entry.get("domain", default_domain)
    domain = "" if domain is None or str(domain).strip().lower() == "none" else str(domain)
    payload: dict[str, Any] = {
        "kind": "id_pattern",
        "source": source,
        "title": name,
        "section": "id_patterns",
        "language": detect_language(line),
        "domain": domain,
        "text": line,
        "name": name,
        "regex": regex,
        "description": description,
        "order": index,
    }
    return Chunk(point_id(source, index, name), line, payload)
