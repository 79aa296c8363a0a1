"""The knowledge-base routing skill: the one entry point through which the project uses the KB.

`search` answers questions, `define` disambiguates terms (the desk's slang), `classify_id` and
`find_ids` map identifier formats to business domains, and `confirm` / `confirm_many` say how
strongly the KB supports routing a text to a controller (KB domains are controller names).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import regex

from core.cues import cues
from core.limits import MAX_FILE_CHUNKS
from core.safe_regex import RegexTimeout, UnsafePattern, compile_bounded, matches_whole, search_all
from core.text.embedding_caches import recall, remember
from core.text.kept import KeptDict
from core.text.language import detect_language
from core.text.sparse import normalize
from knowledge.ingest import Ingestor, IngestReport
from knowledge.manifest import DocManifest, StagedManifest
from knowledge.meaning import (
    FUSION_DEPTH,
    MEANING_CHUNKS,
    MEANING_EXTRA,
    MeaningIndex,
    fused_order,
    read_on_meaning,
)
from knowledge.relevance import relevance, terms
from knowledge.store import KnowledgeStore, StoredHit
from knowledge.types import Confirmation, Definition, Hit, IdMatch
from knowledge.vectors.base import Rebuildable

log = logging.getLogger(__name__)

#: Payload kinds that answer questions (ID patterns do not).
ANSWER_KINDS = ("doc", "glossary")
#: Hits retrieved once per text for `confirm_many`.
CONFIRM_K = 10
#: Each further rank of a domain's hit counts a little less.
RANK_DECAY = 0.04
#: Support given to a domain by an identifier of its format in the text.
ID_SUPPORT = 0.8
#: Support given to a domain by one of its glossary terms named in the text.
TERM_SUPPORT = 0.6
#: A fuzzy glossary match must be at least this relevant.
FUZZY_DEFINE_MIN = 0.45
#: Words a "what is X" phrase may hold beside a glossary term it names and still ask what the
#: term is ("a P1 incident", "the word X" in Chinese: a Chinese word counted as two characters).
EXTRA_WORDS = 1.5
#: Texts whose retrieval is remembered (per store generation).
RETRIEVAL_CACHE = 256

_LATIN_TERM = re.compile(r"^[\w .\-/]+$", re.ASCII)
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
#: The other language's name in a definition, the marks trimmed from a term (`skill.cues.yaml`).
_CUES = cues(__name__)
_OTHER_LANGUAGE = re.compile(_CUES.regex("other_language"))
_TERM_TRIM = _CUES.text("term_trim")


@dataclass(frozen=True, slots=True)
class _Term:
    """A glossary entry with its names normalised and their matchers built once per KB
    generation (rebuilding them for every entry at every look-up, two or three a message,
    was the most repeated work of a fast-path decision)."""

    entry: dict[str, Any]
    names: frozenset[str]
    #: (length, name, whole-word pattern for a Latin name or None: a substring) per name
    #: of at least two characters.
    matchers: tuple[tuple[int, str, re.Pattern[str] | None], ...]

    @classmethod
    def of(cls, entry: dict[str, Any]) -> _Term:
        names = _names(entry)
        matchers = tuple(
            (
                len(name),
                name,
                re.compile(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])")
                if _LATIN_TERM.match(name)
                else None,
            )
            for name in names
            if len(name) >= 2
        )
        return cls(entry, frozenset(names), matchers)

    def longest_in(self, norm: str) -> int:
        """The length of the longest of the entry's names in the normalised text (0: none)."""
        best = 0
        for length, name, pattern in self.matchers:
            if length > best and (pattern.search(norm) if pattern is not None else name in norm):
                best = length
        return best


@dataclass(frozen=True, slots=True)
class _Pattern:
    name: str
    regex: regex.Pattern[str]
    search: regex.Pattern[str]
    domain: str
    description: str
    source: str


class KnowledgeSkill:
    """Search, definitions, ID formats and routing support over one `KnowledgeStore`."""

    def __init__(
        self,
        store: KnowledgeStore,
        manifest: DocManifest | None = None,
        *,
        max_file_chunks: int = MAX_FILE_CHUNKS,
    ) -> None:
        self.store = store
        self.manifest = manifest
        self.max_file_chunks = max_file_chunks
        self._lock = threading.RLock()
        self._generation = -1
        self._glossary: list[_Term] = []
        self._patterns: list[_Pattern] = []
        self._retrievals: OrderedDict[str, list[Hit]] = OrderedDict()
        self._meaning = MeaningIndex()
        #: The last text's identifiers, with the KB generation they were found in (the entity
        #: extractor, the identifier domains and the KB confirmation read one message in a row).
        self._last_ids: OrderedDict[str, tuple[int, list[IdMatch]]] = OrderedDict()
        asked = (self._retrievals, self._last_ids)  # a forget empties them (`core.text.kept`)
        self._kept = [KeptDict(cache, whole=True, lock=self._lock) for cache in asked]

    # -- ingestion ------------------------------------------------------------------------

    def ingest(self, paths: Sequence[Path], *, progress: bool | None = None) -> IngestReport:
        """Ingest files and folders (see `knowledge.ingest`)."""
        if self.manifest is None:
            raise RuntimeError("this knowledge skill was opened without a manifest")
        with self._lock:
            if isinstance(self.store.vectors, Rebuildable):
                return self._ingest_swapped(self.store.vectors, self.manifest, paths, progress)
            return self._ingestor(self.store, self.manifest).ingest(paths, progress=progress)

    def _ingest_swapped(
        self,
        live: Rebuildable,
        manifest: DocManifest,
        paths: Sequence[Path],
        progress: bool | None,
    ) -> IngestReport:
        """On a Qdrant server, an ingest is built in a new collection (a copy of the live one,
        then the changes) and swapped in for every replica with one alias operation; the
        manifest is written only after the swap, so a failed ingest changes nothing."""
        staged_manifest = StagedManifest(manifest)
        with live.rebuilding() as staged:
            live.copy_into(staged)
            report = self._ingestor(self.store.over(staged), staged_manifest).ingest(
                paths, progress=progress
            )
        staged_manifest.commit()
        self.store.generation += 1  # the live name now stands for the new collection
        return report

    def _ingestor(self, store: KnowledgeStore, manifest: DocManifest) -> Ingestor:
        return Ingestor(store, manifest, max_file_chunks=self.max_file_chunks)

    # -- search ---------------------------------------------------------------------------

    def search(
        self, query: str, domain: str | None = None, k: int = 5, *, meaning: bool = False
    ) -> list[Hit]:
        """The `k` best chunks for `query` (optionally of one domain), each scored 0..1.
        `meaning` (questions), for a Chinese or mixed query: hits carry the multilingual
        cosine (`Hit.meaning`) and how close they are read whole and in parts (`Hit.near`),
        scoring at least what that says; the encoder is a channel too: up to `MEANING_EXTRA`
        more chunks, the best of the fused ranking (`knowledge.meaning.fused_order`) not
        among the words' first k, so a passage saying the same in other words or script is
        read. English queries: as before (MiniLM reads them; the encoder added nothing)."""
        where: dict[str, Sequence[str]] = {"kind": ANSWER_KINDS}
        if domain:
            where["domain"] = [domain]
        if not meaning or detect_language(query) == "en":
            return [self._hit(query, hit) for hit in self.store.search(query, limit=k, where=where)]
        stored = self.store.search(query, limit=max(k, FUSION_DEPTH), where=where)
        self._refresh()
        chunks = self._meaning.chunks(where, self.store.records)
        if len(chunks) > MEANING_CHUNKS:  # too many to keep: the meaning reorders found ones
            chunks = [(hit.chunk_id, hit.payload) for hit in stored]
        cosines = self._meaning.cosines(query, chunks)
        if cosines is None:
            return [self._hit(query, hit) for hit in stored[:k]]
        by_id = dict(zip((cid for cid, _ in chunks), cosines, strict=True))
        first = {hit.chunk_id: hit for hit in stored[:k]}
        found, payloads = {hit.chunk_id: hit for hit in stored}, dict(chunks)
        ranked = fused_order(
            [hit.chunk_id for hit in stored], [(cid, c.near) for cid, c in by_id.items()]
        )
        extra = [cid for cid in ranked if cid not in first][:MEANING_EXTRA]
        return [
            read_on_meaning(self._hit(query, found[cid]), by_id[cid], scored=True) for cid in first
        ] + [
            read_on_meaning(
                self._hit(query, found.get(c) or StoredHit(c, payloads[c], 0.0)), by_id[c]
            )
            for c in extra
        ]

    def _hit(self, query: str, stored: StoredHit) -> Hit:
        payload = stored.payload
        text = str(payload.get("text", ""))
        title = str(payload.get("title", ""))
        section = str(payload.get("section", ""))
        return Hit(
            source=str(payload.get("source", "")),
            title=title,
            text=text,
            score=relevance(query, f"{title} {section} {text}", stored.dense),
            section=section,
            language=str(payload.get("language", "")),
            domain=str(payload.get("domain", "")),
            chunk_id=stored.chunk_id,
            dense=stored.dense,
        )

    # -- glossary and ID patterns ---------------------------------------------------------

    def _refresh(self) -> None:
        with self._lock:
            if self._generation == self.store.generation:
                return
            self._glossary = [_Term.of(entry) for entry in self.store.payloads("glossary")]
            patterns = sorted(
                self.store.payloads("id_pattern"),
                key=lambda p: (str(p.get("source", "")), int(p.get("order", 0))),
            )
            self._patterns = [
                compiled for payload in patterns if (compiled := _compile(payload)) is not None
            ]
            self._retrievals.clear()
            self._meaning.clear()
            self._last_ids.clear()
            self._generation = self.store.generation

    def define(self, term: str) -> Definition | None:
        """The glossary entry for `term`: exact term or alias, then one named in it, then fuzzy."""
        self._refresh()
        wanted = normalize(term).strip(_TERM_TRIM)
        if not wanted:
            return None
        for known in self._glossary:
            if wanted in known.names:
                return _definition(known.entry)
        named = self._mentioned(wanted)
        if named and _asks_about(wanted, _names(named[0])):
            return _definition(named[0])
        if not self._glossary:
            return None
        # Sparse only (typos and partial terms), judged on the entry's names, not its text:
        # "service desk hours" is in no name, though the emergency change's text has two.
        hits = self.store.search(wanted, limit=1, where={"kind": ["glossary"]}, mode="sparse")
        if hits and relevance(wanted, " ".join(_names(hits[0].payload)), None) >= FUZZY_DEFINE_MIN:
            return _definition(hits[0].payload)
        return None

    def expand(self, text: str) -> list[str]:
        """Synonyms of the glossary terms `text` names: each term, its aliases and the other
        language's name from its definition (rollover's Chinese name, and back), for
        the deep retrieval of the fallback ladder."""
        self._refresh()
        related: dict[str, None] = {}
        for entry in self._mentioned(text):
            for name in [str(entry.get("term", "")), *(entry.get("aliases") or [])]:
                related[str(name)] = None
            definition = str(entry.get("definition", ""))
            for other in _OTHER_LANGUAGE.findall(definition)[:2]:
                related[other.strip()] = None
        wanted = normalize(text)
        return [name for name in related if name and normalize(name) not in wanted]

    def senses(self, text: str) -> list[Definition]:
        """Polysemous glossary terms the text uses in their listed context ("the money has not
        arrived" beside "disbursement"): each names the domain of its sense. Entries without
        `contexts` are not polysemy entries and are not returned."""
        self._refresh()
        norm = normalize(text)
        found = []
        for entry in self._mentioned(text):
            contexts = [normalize(str(c)) for c in entry.get("contexts") or []]
            if any(c and c in norm for c in contexts):
                found.append(_definition(entry))
        return found

    def _mentioned(self, text: str) -> list[dict[str, Any]]:
        """Glossary entries whose term or an alias occurs in `text`, longest name first."""
        norm = normalize(text)
        found: list[tuple[int, dict[str, Any]]] = []
        for term in self._glossary:
            best = term.longest_in(norm)
            if best:
                found.append((best, term.entry))
        found.sort(key=lambda item: -item[0])
        return [entry for _, entry in found]

    def classify_id(self, token: str) -> IdMatch | None:
        """The ID pattern that `token` matches as a whole, if any."""
        self._refresh()
        token = token.strip()
        for pattern in list(self._patterns):
            try:
                if matches_whole(pattern.regex, token):
                    return IdMatch(token, pattern.name, pattern.domain, pattern.description)
            except RegexTimeout:
                self._retire(pattern)
        return None

    def find_ids(self, text: str) -> list[IdMatch]:
        """Every identifier in `text` that an ID pattern recognises, in text order."""
        self._refresh()
        with self._lock:
            generation, last = self._generation, self._last_ids.get(text)
        if last is not None and last[0] == generation:
            return list(last[1])
        result = self._find_ids(text)
        with self._lock:
            if self._generation == generation:  # not an ingest's new patterns meanwhile
                remember(self._last_ids, text, (generation, list(result)), 1)
        return result

    def _find_ids(self, text: str) -> list[IdMatch]:
        spans: list[tuple[int, int, int, _Pattern]] = []
        for order, pattern in enumerate(list(self._patterns)):
            try:
                found = search_all(pattern.search, text)
            except RegexTimeout:
                self._retire(pattern)
                continue
            for start, end in found:
                if end > start:
                    spans.append((start, -(end - start), order, pattern))
        spans.sort(key=lambda item: (item[0], item[1], item[2]))
        result: list[IdMatch] = []
        taken_until = -1
        for start, negative_length, _, pattern in spans:
            if start < taken_until:
                continue
            end = start - negative_length
            result.append(
                IdMatch(text[start:end], pattern.name, pattern.domain, pattern.description)
            )
            taken_until = end
        return result

    def _retire(self, pattern: _Pattern) -> None:
        """A pattern that ran out of time once is not run again until the KB changes, so it
        cannot cost its time budget on every message."""
        with self._lock:
            if pattern in self._patterns:
                self._patterns.remove(pattern)
                log.warning(
                    "ID pattern %r (%s) exceeded its time budget and is disabled; rewrite it",
                    pattern.name,
                    pattern.source,
                )

    # -- routing support ------------------------------------------------------------------

    def _retrieve(self, text: str) -> list[Hit]:
        self._refresh()
        with self._lock:
            cached = recall(self._retrievals, text)
        if cached is not None:
            return cached
        hits = self.search(text, k=CONFIRM_K)
        with self._lock:
            remember(self._retrievals, text, hits, RETRIEVAL_CACHE)
        return hits

    def confirm(self, text: str, controller: str) -> Confirmation:
        """How strongly the KB supports routing `text` to `controller` (0..1, with evidence)."""
        return self.confirm_many(text, [controller])[controller]

    def confirm_many(self, text: str, controllers: Sequence[str]) -> dict[str, Confirmation]:
        """`confirm` for several controllers from ONE retrieval.

        Support of a controller = the best relevance among the retrieved hits of its domain
        (each rank down costs RANK_DECAY), raised to ID_SUPPORT when the text holds an
        identifier of its format and to TERM_SUPPORT when it names one of its glossary terms.
        """
        if not text.strip():
            return {name: Confirmation(name, 0.0) for name in controllers}
        hits = self._retrieve(text)
        ids = self.find_ids(text)
        terms = self._mentioned(text)
        result: dict[str, Confirmation] = {}
        for name in controllers:
            evidence: list[Hit] = []
            score = 0.0
            for rank, hit in enumerate(hits):
                if hit.domain == name:
                    score = max(score, hit.score * (1 - RANK_DECAY * rank))
                    if len(evidence) < 3:
                        evidence.append(hit)
            for match in ids:
                if match.domain == name:
                    score = max(score, ID_SUPPORT)
                    evidence.append(self._id_evidence(match))
            for entry in terms:
                if str(entry.get("domain")) == name:
                    score = max(score, TERM_SUPPORT)
                    evidence.append(_term_evidence(entry))
            result[name] = Confirmation(name, round(min(1.0, score), 4), tuple(evidence))
        return result

    def _id_evidence(self, match: IdMatch) -> Hit:
        source = next((p.source for p in self._patterns if p.name == match.kind), "")
        return Hit(
            source=source,
            title=f"ID pattern {match.kind}",
            text=f"{match.token}: {match.description}",
            score=ID_SUPPORT,
            section="id_patterns",
            domain=match.domain,
        )

    def close(self) -> None:
        """Close the store and the manifest."""
        self.store.close()
        if self.manifest is not None:
            self.manifest.close()


def _asks_about(phrase: str, names: set[str]) -> bool:
    """Is the phrase asked about the term itself, give or take one word ("a P1 incident",
    "the word X")? "the phone number for P1 at night" names P1 but asks for a number: the
    glossary's definition of P1 is no answer to it. What is left once the names are taken out
    counts its English key terms, and its Chinese characters two to a word."""
    rest = normalize(phrase)
    for name in sorted(names, key=len, reverse=True):  # `_names` gives them normalised
        rest = rest.replace(name, " ")
    words = len({t for t in terms(rest) if not _CJK_CHAR.match(t)})
    return words + len(_CJK_CHAR.findall(rest)) / 2 <= EXTRA_WORDS


def _names(entry: dict[str, Any]) -> set[str]:
    names = [str(entry.get("term", ""))] + [str(alias) for alias in entry.get("aliases") or []]
    return {normalize(name) for name in names if name.strip()}


def _definition(payload: dict[str, Any]) -> Definition:
    return Definition(
        term=str(payload.get("term", "")),
        definition=str(payload.get("definition", "")),
        domain=str(payload.get("domain", "")),
        aliases=tuple(str(alias) for alias in payload.get("aliases") or []),
        source=str(payload.get("source", "")),
    )


def _term_evidence(entry: dict[str, Any]) -> Hit:
    return Hit(
        source=str(entry.get("source", "")),
        title=str(entry.get("term", "")),
        text=str(entry.get("text", "")),
        score=TERM_SUPPORT,
        section="glossary",
        language=str(entry.get("language", "")),
        domain=str(entry.get("domain", "")),
    )


def _compile(payload: dict[str, Any]) -> _Pattern | None:
    """The stored pattern compiled within bounds, or None (logged) when it is unsafe: a store
    ingested before the bounds existed may hold one."""
    source = str(payload.get("regex", ""))
    name = str(payload.get("name", ""))
    try:
        whole = compile_bounded(source)
        # Standalone tokens only: no ASCII letter, digit or underscore right before or after.
        search = compile_bounded(source, template="(?<![0-9A-Za-z_])(?:{})(?![0-9A-Za-z_])")
    except UnsafePattern as exc:
        log.warning("ID pattern %r is not used: %s", name, exc)
        return None
    return _Pattern(
        name=name,
        regex=whole,
        search=search,
        domain=str(payload.get("domain", "")),
        description=str(payload.get("description", "")),
        source=str(payload.get("source", "")),
    )
