"""A question's words typed with one slip, read as the knowledge base's words before it is
searched: "What are the maintenacne windows?" is searched as "maintenance windows".

A typo costs a question its answer twice: the search's words miss the passage, and MiniLM's
cosine of the question and the passage falls under the verifier's floor (0.09 for that question
and its section "Maintenance windows", 0.33 with the word spelt). A word is read as another
only when all of these hold:

- the knowledge base does not write it, and it is not a word MiniLM's tokenizer knows whole
  (its WordPiece vocabulary, learned from a large English corpus: "leave", "chase", "sprint"
  and "reach" are words, not slips of "leaver", "case", "print" and "each"; "maintenacne" is
  none);
- exactly one word the knowledge base writes is one slip of the fingers away (`one_slip`), and
  it begins with the same letter ("gmail" is not a slip of "mail").

English only (Chinese is not typed letter by letter), words of at least `SLIP_MIN` letters.
Without MiniLM's vocabulary nothing is changed: any unknown word could then be a real one.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.text.embedder import install_cache_dir
from core.text.language import detect_language
from core.text.onnx_files import packaged_model_dir
from core.text.sparse import normalize
from knowledge.meaning import passage
from knowledge.skill import ANSWER_KINDS

if TYPE_CHECKING:
    from knowledge.store import KnowledgeStore

#: Letters a word needs before a one-keystroke slip is read as another word (shorter words
#: are one slip from too many others: "meet" and "meets", "from" and "form").
SLIP_MIN = 5
_LETTERS = re.compile(r"[a-z]+")
#: A word as a question writes it: letters only, not part of an identifier ("SETTLE_EOD").
_WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?![\w-])")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The words a knowledge base writes, by their first letter."""

    words: frozenset[str]
    by_initial: dict[str, frozenset[str]]


def spelt(store: KnowledgeStore | None, text: str) -> str:
    """`text` with each English word typed with one slip written as the knowledge base's word
    (see the module docstring); unchanged when there is nothing to read it with."""
    if store is None or detect_language(text) != "en":
        return text
    known = known_words()
    if not known:
        return text
    vocabulary = store.derived("spelling.vocabulary", _vocabulary)

    def read(match: re.Match[str]) -> str:
        word = match.group(0)
        lower = word.lower()
        if len(lower) < SLIP_MIN or lower in vocabulary.words or lower in known:
            return word
        near = [w for w in vocabulary.by_initial.get(lower[0], ()) if one_slip(lower, w)]
        return near[0] if len(near) == 1 else word

    return _WORD.sub(read, text)


def one_slip(a: str, b: str) -> bool:
    """Are two different words one slip of the fingers apart: two neighbouring letters
    swapped, or one letter dropped or doubled? (A changed letter is not read as a slip: "spare"
    and "share", "mouse" and "house" are other words.)"""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


@functools.cache
def known_words() -> frozenset[str]:
    """The whole words of MiniLM's WordPiece vocabulary (its tokenizer.json, beside the
    model's weights); empty when the model's files are not installed."""
    folder = packaged_model_dir(install_cache_dir())
    if folder is None:
        return frozenset()
    try:
        vocab = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))["model"]
    except (OSError, ValueError, KeyError):
        return frozenset()
    return frozenset(word for word in vocab.get("vocab", {}) if word.isalpha())


def _vocabulary(store: KnowledgeStore) -> Vocabulary:
    """Every word the store's answer passages write (`KnowledgeStore.derived` keeps it until
    the next write)."""
    words = {
        word
        for _, payload in store.records({"kind": ANSWER_KINDS})
        for word in _LETTERS.findall(normalize(passage(payload)))
    }
    initial: defaultdict[str, set[str]] = defaultdict(set)
    for word in words:
        if len(word) >= SLIP_MIN - 1:
            initial[word[0]].add(word)
    return Vocabulary(
        frozenset(words), {letter: frozenset(found) for letter, found in initial.items()}
    )
