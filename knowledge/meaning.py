"""What a Chinese (or mixed) question and a passage mean alike, across scripts and wordings.

MiniLM, the knowledge base's dense encoder, reads English only, and character bigrams see no
paraphrase: "邮件附件最大能发多大？" shares two bigrams with "附件超过 25 MB 会被拦截", "半夜出了P1
故障找谁？" none with "非工作时间只处理 P1 故障……请拨打 7x24 值班热线". The multilingual sentence
encoder (`core.text.multilingual`) was trained so that paraphrases and translations land close:
its cosine of a question and a passage is the meaning channel for questions MiniLM cannot read.
Passage vectors are kept per chunk (a knowledge base answers the same few hundred chunks
again and again) until the store changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from core.text.multilingual import multilingual_vectors

#: Chunk vectors remembered (a sample knowledge base has about two hundred chunks).
CACHE = 4096
#: The cosine mapped linearly onto a 0..1 relevance: at the floor unrelated text, at the
#: ceiling a paraphrase (questions and their own passages in the sample KB: 0.34-0.49;
#: other passages of the same language: mostly under 0.30).
MEANING_FLOOR = 0.20
MEANING_CEIL = 0.60


class MeaningIndex:
    """Multilingual cosines of a query and chunks, the chunks' vectors cached by chunk id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    def clear(self) -> None:
        """Forget the chunks' vectors (the store changed)."""
        with self._lock:
            self._vectors.clear()

    def cosines(self, query: str, chunks: Sequence[tuple[str, str]]) -> list[float] | None:
        """The cosine of `query` and each (chunk id, text); None when the encoder cannot run."""
        with self._lock:
            found = {cid: self._vectors[cid] for cid, _ in chunks if cid in self._vectors}
        missing = [(cid, text) for cid, text in chunks if cid not in found]
        vectors = multilingual_vectors([query, *(text for _, text in missing)])
        if vectors is None:
            return None
        encoded = dict(zip((cid for cid, _ in missing), vectors[1:], strict=True))
        found.update(encoded)
        with self._lock:
            self._vectors.update(encoded)
            while len(self._vectors) > CACHE:
                self._vectors.popitem(last=False)
        return [float(np.dot(vectors[0], found[cid])) for cid, _ in chunks]


def meaning_relevance(cosine: float) -> float:
    """The multilingual cosine mapped onto 0..1 (see `MEANING_FLOOR`, `MEANING_CEIL`)."""
    return min(1.0, max(0.0, (cosine - MEANING_FLOOR) / (MEANING_CEIL - MEANING_FLOOR)))
