"""Key terms a passage holds in the other script: the Chinese for "intranet" in "internal
sites", for "contact" in "contacts", "attachments" in the Chinese word for them.

Verification asks whether a passage holds the question's key terms. Compared as written, a
Chinese question covers nothing of an English passage that answers it (the Chinese for "the
VPN connects but internal sites do not open" and "VPN connected but internal sites do not
open"), however well retrieval found the
passage by meaning. Here a key term the passage does not hold as written still counts when one
of the passage's words in the other script is its near neighbour in the multilingual encoder's
space (`core.text.multilingual`, trained so that translations land close): a cosine of at
least the bar chosen on labelled question-passage pairs (`NEAR_BAR`). No word list: what is
near is what the encoder learned. Within one script words that share a character or a root
are near whatever they mean (two Chinese bigrams that share the character for "print",
"each" and "every"): on the labelled pairs any
bar that covered such words answered fewer unanswerable questions "no answer", so only the
other script is compared (the exact comparison covers the question's own).

Words are encoded one at a time and remembered (a knowledge base's vocabulary is a few thousand
words; each is encoded once per process).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping

import numpy as np

from core.text.kept import KeptDict
from core.text.language import has_cjk
from core.text.multilingual import multilingual_vectors

#: The cosine at which a passage word covers a question's key term. Chosen on
#: brain/data/answer_pairs.jsonl's train split (`benchmarks/term_bar.py`, with
#: `controllers.verification.NEAR_WORDS` at 2): the most questions answered while refusing as
#: many unanswerable ones as exact terms alone, the higher bar on a tie (answered 63.9% ->
#: 64.7% at 0.73-0.75, refused 94.7% throughout; at 0.70 refused 94.1%).
NEAR_BAR = 0.75
#: Word vectors remembered.
WORDS_CACHE = 50_000

_LOCK = threading.Lock()
_VECTORS: OrderedDict[str, np.ndarray] = OrderedDict()
#: Words of questions and passages: a forget empties it (`core.text.kept`).
_KEPT = KeptDict(_VECTORS, whole=True, lock=_LOCK)


def near_terms(
    wanted: Mapping[str, str], passage: Iterable[str], bar: float | None = None
) -> dict[str, str]:
    """The terms of `wanted` (term -> its word as written) that a `passage` word in the other
    script is near (cosine >= `bar`, by default `NEAR_BAR`), each with that word; a single
    Chinese character names no term. Empty when the encoder cannot run here."""
    bar = NEAR_BAR if bar is None else bar
    words = sorted(set(passage))
    asked = sorted({word for word in wanted.values() if len(word) > 1})
    if not asked or not words:
        return {}
    vectors = _vectors([*asked, *words])
    if vectors is None:
        return {}
    question = np.stack([vectors[word] for word in asked])
    text = np.stack([vectors[word] for word in words])
    # Across scripts only (see the module docstring).
    other = np.array([[has_cjk(a) != has_cjk(w) for w in words] for a in asked], dtype=bool)
    cosines = np.where(other, question @ text.T, -1.0)
    nearest = {
        word: words[int(row.argmax())]
        for word, row in zip(asked, cosines, strict=True)
        if row.max() >= bar
    }
    return {term: nearest[word] for term, word in wanted.items() if word in nearest}


def _vectors(words: list[str]) -> dict[str, np.ndarray] | None:
    with _LOCK:
        found = {word: _VECTORS[word] for word in words if word in _VECTORS}
    missing = [word for word in dict.fromkeys(words) if word not in found]
    if missing:
        encoded = multilingual_vectors(missing)
        if encoded is None:
            return None
        fresh = dict(zip(missing, encoded, strict=True))
        found.update(fresh)
        with _LOCK:
            _VECTORS.update(fresh)
            while len(_VECTORS) > WORDS_CACHE:
                _VECTORS.popitem(last=False)
    return found
