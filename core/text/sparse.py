"""Language-agnostic sparse channel: character n-grams hashed into a Qdrant sparse vector.

Character n-grams need no word segmenter, so Chinese, English and mixed messages ("VPN" and
"691" in a Chinese sentence) share one representation. Term frequencies are weighted here (sublinear
tf); the inverse document frequency is applied by Qdrant itself (`Modifier.IDF` on the sparse
vector).
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib
from collections import Counter

#: Size of the hashed index space; large enough that collisions are rare for a KB.
INDEX_SPACE = 2**20

_WHITESPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    """NFKC, lower case, whitespace collapsed to single spaces, stripped."""
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()


def char_ngrams(text: str, n_min: int = 2, n_max: int = 4) -> list[str]:
    """All character n-grams (n_min..n_max) of the normalised text, in order, with repeats."""
    if n_min < 1 or n_max < n_min:
        raise ValueError(f"invalid n-gram range {n_min}..{n_max}")
    norm = normalize(text)
    grams: list[str] = []
    for n in range(n_min, n_max + 1):
        grams.extend(norm[i : i + n] for i in range(len(norm) - n + 1))
    return grams


def stable_hash(gram: str) -> int:
    """A hash that is the same in every process and Python version (unlike `hash`)."""
    return zlib.crc32(gram.encode("utf-8")) % INDEX_SPACE


class SparseEncoder:
    """Encodes text as (indices, values) for a Qdrant sparse vector with the IDF modifier."""

    def __init__(self, n_min: int = 2, n_max: int = 4) -> None:
        self.n_min = n_min
        self.n_max = n_max

    def encode(self, text: str) -> tuple[list[int], list[float]]:
        """Sorted hashed n-gram indices with sublinear tf weights (1 + ln tf)."""
        counts: Counter[int] = Counter(
            stable_hash(gram) for gram in char_ngrams(text, self.n_min, self.n_max)
        )
        indices = sorted(counts)
        return indices, [1.0 + math.log(counts[index]) for index in indices]
