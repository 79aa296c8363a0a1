"""The bilingual security taxonomy (data: ``security.yaml``) and what it says about a message.

Seed 002: a security incident is always critical, however it is worded. A missed report (a key
committed to a public repository, a password typed into a fake login page) is the costliest
mistake, so reports are found from explicit cues apart from the intent vote; a question *about*
security ("what is our policy on phishing emails?") is a consultation and must never page.
The classes and cues are data, validated when they load, so a bad edit fails at start-up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from core.cues import cues
from core.errors import BrainError
from core.safe_yaml import load_shipped_yaml

__all__ = [
    "QUESTION_ENDS",
    "SECURITY_FILE",
    "SecurityClass",
    "SecurityFinding",
    "SecurityTaxonomy",
    "find_security",
    "load_security_taxonomy",
    "phrase_pattern",
]

SECURITY_FILE = "security.yaml"
#: How close (characters) a report word must be to the topic it reports.
NEAR = 80
#: A one-sentence question: opens with a question word, ends with "?", no sentence end inside.
_CUES = cues(__name__)
_ASKED = re.compile(
    rf"^\s*(?:{_CUES.regex('asked_opening')})[^{_CUES.regex('sentence_end_marks')}]*"
    rf"[{_CUES.regex('question_end_marks')}]\s*$"
)
#: What a question ends with.
QUESTION_ENDS = _CUES.words("question_ends")
Kind = Literal["event", "question"]
#: How an event was found: an event pattern describing it, a topic beside a report word
#: ("clicked", "stolen"), or a bare topic mention ("virus", "phishing email in my inbox").
How = Literal["pattern", "report", "mention", "question"]


def phrase_pattern(phrases: list[str]) -> re.Pattern[str] | None:
    """ASCII phrases as whole words (spaces match any whitespace), others as substrings."""
    parts = []
    for phrase in phrases:
        cue = phrase.strip().lower()
        if not cue:
            continue
        escaped = re.escape(cue).replace(r"\ ", r"\s+")
        parts.append(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])" if cue.isascii() else escaped)
    return re.compile("|".join(parts)) if parts else None


@dataclass(frozen=True, slots=True)
class SecurityClass:
    """One kind of security event: the words that name it and the patterns that report it."""

    name: str
    description: str
    phrases: re.Pattern[str] | None
    #: Phrases that name the topic only beside a report word.
    weak: re.Pattern[str] | None
    events: tuple[re.Pattern[str], ...]
    #: When set, an event of this class is critical only beside one of these (a lost laptop
    #: pages when it holds client data or credentials; a replaced one does not).
    impact: re.Pattern[str] | None = None


@dataclass(frozen=True, slots=True)
class SecurityFinding:
    """What the taxonomy says about a message: a reported event or a question about security,
    the classes it touches and the cue that decided (for the rationale)."""

    kind: Kind
    classes: tuple[str, ...]
    cue: str
    #: What the finding rests on: escalation forces a page on a described event only.
    how: How = "pattern"
    #: A cue that the event is over or dealt with ("quarantined", "a replacement laptop").
    over: str = ""
    #: A cue that it is happening now ("now", "popped up", "现在"), for a bare mention.
    live: str = ""
    #: Some named class needs no impact cue, or has one ("client data on it").
    critical: bool = True

    def describe(self) -> str:
        what = ", ".join(c.replace("_", " ") for c in self.classes)
        if self.kind == "event":
            return f"a reported security event ({what}: {self.cue!r})"
        return f"a question about security ({what}: {self.cue!r}), a consultation"


@dataclass(frozen=True, slots=True)
class SecurityTaxonomy:
    """The classes plus the shared framing lists (report, benign, question, hypothetical) and
    the now-ness lists escalation reads (handled, live)."""

    classes: tuple[SecurityClass, ...]
    report: re.Pattern[str] | None
    benign: re.Pattern[str] | None
    question: re.Pattern[str] | None
    hypothetical: re.Pattern[str] | None
    handled: re.Pattern[str] | None = None
    live: re.Pattern[str] | None = None

    def _event(self, classes: tuple[str, ...], cue: str, how: How, text: str) -> SecurityFinding:
        """An event finding with its now-ness and impact read (`text` lower-cased)."""
        over = _search(self.handled, text) or _search(self.benign, text)
        by_name = {c.name: c for c in self.classes}
        critical = any(
            by_name[name].impact is None or _search(by_name[name].impact, text) for name in classes
        )
        return SecurityFinding("event", classes, cue, how, over, _search(self.live, text), critical)

    def _near(self, topic: str, text: str) -> bool:
        """Is a report word within `NEAR` characters of the topic phrase?"""
        at = text.find(topic)
        if at < 0 or self.report is None:
            return True
        return any(
            m.start() - NEAR <= at + len(topic) and at - NEAR <= m.end()
            for m in self.report.finditer(text)
        )

    def find(self, text: str) -> SecurityFinding | None:
        """None when the message is not about security at all."""
        lowered = text.lower()
        event_hits: list[tuple[str, str]] = []
        topic_hits: list[tuple[str, str]] = []
        weak_hits: list[tuple[str, str]] = []
        for entry in self.classes:
            for pattern in entry.events:
                match = pattern.search(lowered)
                if match:
                    event_hits.append((entry.name, match.group(0)))
                    break
            else:
                found = _search(entry.phrases, lowered)
                if found:
                    topic_hits.append((entry.name, found))
                elif weak := _search(entry.weak, lowered):
                    weak_hits.append((entry.name, weak))
        reported = _search(self.report, lowered)
        if not event_hits and not topic_hits and not (weak_hits and reported):
            return None
        named = event_hits + topic_hits + (weak_hits if reported else [])
        classes = tuple(dict.fromkeys(name for name, _ in named))
        if _search(self.hypothetical, lowered):
            hypothetical = _search(self.hypothetical, lowered)
            return SecurityFinding("question", classes, hypothetical, "question")
        framing = _search(self.question, lowered) or _search(self.benign, lowered)
        if not framing and lowered.rstrip().endswith(QUESTION_ENDS):
            framing = "?"
        if _ASKED.match(lowered):
            # One sentence that opens with a question word and ends with "?" asks about an
            # event ("how do we rotate a secret that was committed to git?"), whatever verbs
            # it holds; "I clicked a phishing link, what now?" opens with the report.
            return SecurityFinding("question", classes, "a question", "question")
        if event_hits and (reported or not framing):
            return self._event(classes, event_hits[0][1], "pattern", lowered)
        topic = (event_hits or topic_hits or weak_hits)[0][1]
        if reported:
            # A report word far from the topic (a long e-mail with "virus" at the top and
            # "committed" at the bottom) reports nothing about it: a mention, not a report.
            how: How = "report" if self._near(topic, lowered) else "mention"
            return self._event(classes, f"{topic} ... {reported}", how, lowered)
        if framing:
            # Asked about, with no report word: "where do I report a lost laptop?"
            return SecurityFinding("question", classes, framing, "question")
        if not topic_hits:
            return None
        # A bare mention ("phishing email in my inbox") is treated as a report.
        return self._event(classes, topic_hits[0][1], "mention", lowered)


def _search(pattern: re.Pattern[str] | None, text: str) -> str:
    if pattern is None:
        return ""
    match = pattern.search(text)
    return match.group(0) if match else ""


class SecurityTaxonomyError(BrainError, ValueError):
    """The taxonomy file is unusable; the message names the entry."""


def _strings(value: object, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise SecurityTaxonomyError(f"{SECURITY_FILE}: {where} must be a list of strings")
    return [str(v) for v in value]


def parse_security_taxonomy(data: object) -> SecurityTaxonomy:
    """Validate the loaded YAML and compile it."""
    if not isinstance(data, dict) or not isinstance(data.get("classes"), list):
        raise SecurityTaxonomyError(f"{SECURITY_FILE}: expected a mapping with 'classes'")
    classes = []
    seen: set[str] = set()
    for number, raw in enumerate(data["classes"], start=1):
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise SecurityTaxonomyError(f"{SECURITY_FILE}: class {number} has no name")
        name = raw["name"]
        if name in seen:
            raise SecurityTaxonomyError(f"{SECURITY_FILE}: class {name!r} appears twice")
        seen.add(name)
        phrases = _strings(raw.get("phrases"), f"class {name!r} phrases")
        weak = _strings(raw.get("weak"), f"class {name!r} weak")
        impact = _strings(raw.get("impact"), f"class {name!r} impact")
        events = []
        for source in _strings(raw.get("events"), f"class {name!r} events"):
            try:
                events.append(re.compile(source, re.IGNORECASE))
            except re.error as exc:
                raise SecurityTaxonomyError(
                    f"{SECURITY_FILE}: class {name!r} event {source!r}: {exc}"
                ) from exc
        if not phrases and not events:
            raise SecurityTaxonomyError(f"{SECURITY_FILE}: class {name!r} has no cues")
        classes.append(
            SecurityClass(
                name,
                str(raw.get("description", "")),
                phrase_pattern(phrases),
                phrase_pattern(weak),
                tuple(events),
                phrase_pattern(impact),
            )
        )
    return SecurityTaxonomy(
        classes=tuple(classes),
        **{
            key: phrase_pattern(_strings(data.get(key), key))
            for key in ("report", "benign", "question", "hypothetical", "handled", "live")
        },
    )


@lru_cache(maxsize=1)
def load_security_taxonomy() -> SecurityTaxonomy:
    """The shipped taxonomy (read and compiled once)."""
    text = resources.files("brain.intent").joinpath(SECURITY_FILE).read_text(encoding="utf-8")
    return parse_security_taxonomy(load_shipped_yaml(text))


@lru_cache(maxsize=256)
def find_security(text: str) -> SecurityFinding | None:
    """What the shipped taxonomy says about `text` (remembered: the recognizer's urgency and
    the escalation decision read the same message, about sixty patterns each time)."""
    return load_security_taxonomy().find(text)
