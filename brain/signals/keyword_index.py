"""The keyword index of a controller set (`brain.signals.keyword`): every controller's keywords,
compiled once per registry version, matched in one pass over the message."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from controllers.base import Controller
from core.text.sparse import normalize

SATURATION = 0.4
ENTITY_HITS = 1.5
#: Intents that say nothing about the controller.
NO_INTENT = ("other", "escalation", "human_handoff")
#: Intent groups of messages that are not requests of ours (small talk, out of scope).
NO_CONTEXT_GROUPS = ("other", "conversation")

_TOKEN = re.compile(r"[a-z0-9]+(?:[._+#'-][a-z0-9]+)*")


def _is_ascii(text: str) -> bool:
    return all(ord(ch) < 128 for ch in text)


@dataclass(slots=True)
class KeywordHits:
    """Per-controller hit counts and scores, plus the words behind them (for the rationale)."""

    hits: np.ndarray
    scores: np.ndarray
    #: Controller index -> keywords (as written by the controller) that matched.
    words: dict[int, list[str]] = field(default_factory=dict)
    #: Controller index -> identifiers that counted as entity evidence.
    ids: dict[int, list[str]] = field(default_factory=dict)
    #: Controller index -> the ongoing conversation context that counted for it.
    context: dict[int, list[str]] = field(default_factory=dict)
    #: Controller index -> the recognised intent that pointed to it (step 1 -> step 2).
    intents: dict[int, str] = field(default_factory=dict)

    def any_keyword(self) -> bool:
        """Did any controller's own keyword match (entity evidence aside)?"""
        return bool(self.words)


class KeywordIndex:
    """All controllers' keywords compiled for fast matching."""

    def __init__(self, controllers: Sequence[Controller]) -> None:
        self.names = [c.name for c in controllers]
        self._position = {name: i for i, name in enumerate(self.names)}
        phrases: dict[str, dict[int, str]] = {}
        substrings: dict[str, dict[int, str]] = {}
        for index, controller in enumerate(controllers):
            for keyword in controller.keywords:
                norm = normalize(str(keyword))
                if not norm:
                    continue
                if _is_ascii(norm):
                    key = " ".join(_TOKEN.findall(norm))
                    if key:
                        phrases.setdefault(key, {})[index] = str(keyword)
                else:
                    substrings.setdefault(norm, {})[index] = str(keyword)
        self._phrases = phrases
        self._substrings = substrings
        self._max_words = max((k.count(" ") + 1 for k in phrases), default=0)
        self._first_chars: dict[str, list[int]] = {}
        for key in substrings:
            self._first_chars.setdefault(key[0], [])
            if len(key) not in self._first_chars[key[0]]:
                self._first_chars[key[0]].append(len(key))

    def __len__(self) -> int:
        return len(self.names)

    def _matched_keys(self, norm: str) -> list[dict[int, str]]:
        found: list[dict[int, str]] = []
        seen: set[str] = set()
        tokens = _TOKEN.findall(norm)
        for width in range(1, self._max_words + 1):
            for start in range(len(tokens) - width + 1):
                key = " ".join(tokens[start : start + width]) if width > 1 else tokens[start]
                if key in self._phrases and key not in seen:
                    seen.add(key)
                    found.append(self._phrases[key])
        if self._substrings:
            first = self._first_chars
            for start, char in enumerate(norm):
                lengths = first.get(char)
                if not lengths:
                    continue
                for length in lengths:
                    key = norm[start : start + length]
                    if key in self._substrings and key not in seen:
                        seen.add(key)
                        found.append(self._substrings[key])
        return found

    def match(
        self,
        text: str,
        id_domains: Mapping[str, str] | None = None,
        context: Mapping[str, str] | None = None,
        intent: tuple[str, str, float] | None = None,
    ) -> KeywordHits:
        """Score every controller.

        `id_domains` maps identifiers to the domain the KB gave them; `context` maps a
        description of the conversation's ongoing work to its controller (a vague message read
        in that light); each counts as a strong hit. `intent` = (intent name, controller it
        usually goes to, confidence) adds `confidence` hits to that controller (the design's base
        score of the intent's domain).
        """
        hits = np.zeros(len(self.names), dtype=np.float32)
        words: dict[int, list[str]] = {}
        for owners in self._matched_keys(normalize(text)):
            for index, keyword in owners.items():
                hits[index] += 1.0
                words.setdefault(index, []).append(keyword)
        ids: dict[int, list[str]] = {}
        for token, domain in (id_domains or {}).items():
            position = self._position.get(domain)
            if position is not None:
                hits[position] += ENTITY_HITS
                ids.setdefault(position, []).append(token)
        ongoing: dict[int, list[str]] = {}
        for description, name in (context or {}).items():
            position = self._position.get(name)
            if position is not None:
                hits[position] += ENTITY_HITS
                ongoing.setdefault(position, []).append(description)
        intents: dict[int, str] = {}
        if intent is not None:
            name, target, confidence = intent
            position = self._position.get(target)
            if position is not None and confidence > 0:
                hits[position] += confidence
                intents[position] = f"{name} ({confidence:.2f})"
        scores = 1.0 - np.power(SATURATION, hits, dtype=np.float32)
        return KeywordHits(
            hits=hits, scores=scores, words=words, ids=ids, context=ongoing, intents=intents
        )
