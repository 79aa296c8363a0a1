"""What a Chinese (or mixed) question and a passage mean alike, across scripts and wordings.

MiniLM, the knowledge base's dense encoder, reads English only, and character bigrams see no
paraphrase: "how big an attachment can an email carry?" asked in Chinese shares two bigrams
with the Chinese "attachments over 25 MB are blocked", and "who do I call for a P1 at night?"
none with "outside working hours only P1 incidents are handled ... call the 7x24 on-call
line". The multilingual sentence encoder (`core.text.multilingual`) was trained so that
paraphrases and translations land close: its cosine of a question and a passage is the meaning
channel for questions MiniLM cannot read. Passage vectors are kept once a process (`_PASSAGES`), by
a digest of what the encoder reads of a chunk: a knowledge base answers the same few hundred chunks
again and again, and every brain a process opens on the same documents (the command line called
in-process, the console's replay, the tests: 250 of the engine tests each encoded the sample's 786
readings, about 2 s) reads the vectors the first one encoded. Each chunk's readings are encoded in a
batch of their own and the question alone, so a cosine does not depend on which question came first
or which other chunks were encoded with it (the encoder's vectors move in the last float32 digits
with their batch).

The encoder is also a retrieval channel of its own for questions (`fused_order`): the words
and MiniLM find a passage that shares the question's words, the multilingual cosine one that
says the same thing in other words or the other script ("everything went down at eleven at
night, which number do I call?" in Chinese shares no bigram with the support-hours section's
"call the 7x24 on-call line"). The two ranked lists
are fused by reciprocal rank, as the store fuses its own channels.

A long passage is also read in parts (`parts`: its list items, paragraphs, groups of
sentences, each with the passage's title and heading): a short question's cosine to a whole
section that lists five email problems is diluted by the other four ("the attachment is too
big to send, what do I do?" and the email runbook's Chinese section), while its cosine to the part
that answers it is not. How close a passage is (`Closeness.near`, what ranks it) is the mean of its
whole cosine and its closest part's; what verification weighs stays the whole passage's cosine
(`Closeness.whole`): weighing the parts' let near misses through ("which printer prints A3?"
passed the printer section's list).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from core.cues import cues
from core.text.embedding_caches import recall, remember
from core.text.multilingual import multilingual_query_vector, multilingual_vectors
from knowledge.types import Hit
from knowledge.vectors.fusion import TIE_DIGITS, rrf

#: A payload filter (field -> allowed values) and the chunks (id, payload) it selects.
Where = Mapping[str, Sequence[str]]
Chunks = list[tuple[str, dict[str, Any]]]

#: Chunk vectors remembered (a sample knowledge base has about two hundred chunks).
CACHE = 4096
#: A knowledge base of at most this many answer chunks is searched on meaning whole (its
#: vectors stay in `CACHE`; the sample's 216 are encoded in about a second, once); a larger
#: one has its lexically found chunks reordered on meaning only.
MEANING_CHUNKS = CACHE // 2
#: The cosine mapped linearly onto a 0..1 relevance: at the floor unrelated text, at the
#: ceiling a paraphrase (questions and their own passages in the sample KB: 0.34-0.49;
#: other passages of the same language: mostly under 0.30).
MEANING_FLOOR = 0.20
MEANING_CEIL = 0.60
#: Hits each ranked list (words and MiniLM; meaning) brings to the fusion.
FUSION_DEPTH = 40
#: Chunks the fused ranking adds after the words' own first k (a question's search gives k +
#: this many). They keep their word score: given their meaning's as well, a same-subject page
#: found on meaning alone outranked the section the words found, and an answer the
#: conversation benchmark's stranger3 split had was lost (69% -> 77% back with this).
MEANING_EXTRA = 2
#: The meaning list's weight in the fusion beside the words-and-MiniLM one (weight 1):
#: chosen on brain/data/answer_pairs.jsonl's train split (a right section among the first
#: five, `benchmarks/answer_recall.py`, Chinese questions: 83.5% without the channel, 92.7%
#: at weight 0.5, 93.6% at 1, 2 and 3), the lowest of the best: at 2 the tune split of
#: benchmarks/data/answerability.jsonl lost an answer ("can my own laptop use the company
#: VPN?" in Chinese: three VPN-error sections outranked the BYOD policy), at 1 it lost none.
MEANING_WEIGHT = 1.0
#: A chunk text longer than this is read in parts of at most this many characters as well
#: (a longer list item or paragraph is cut at sentence ends). Chosen on
#: brain/data/answer_pairs.jsonl's train split through the answering path
#: (`benchmarks/answer_reading.py` without glossary definitions; Chinese questions: a right
#: section among the three read / answered): whole passages only 84.3 / 66.9%; parts of
#: 60 characters 86.1 / 68.1%, of 80 85.5 / 67.5%, of 120, 160 or 240 86.1 / 67.5%;
#: unanswerable ones refused 95.1% throughout (`benchmarks/HISTORY.md`).
PART_CHARS = 60

#: The marks a passage is cut into parts by (`meaning.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
_ITEM = re.compile(_CUES.regex("item"))
_SENTENCE_END = re.compile(_CUES.regex("sentence_end"))
_FULL_WIDTH_ENDS = _CUES.text("full_width_ends")


@dataclass(frozen=True, slots=True)
class Closeness:
    """How close a query and a chunk are in meaning: `whole`, the multilingual cosine of the
    query and the whole passage; `near`, the mean of that and the best of its parts' (the
    whole again for a short passage), which ranks passages."""

    whole: float
    near: float


class MeaningIndex:
    """Multilingual cosines of a query and chunks; the chunk lists read once per filter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._chunks: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    def clear(self) -> None:
        """Forget the chunk lists (the store changed). The vectors stay: they are kept by
        what a chunk says, so a changed chunk is encoded again and an unchanged one is not."""
        with self._lock:
            self._chunks.clear()

    def chunks(self, where: Where, read: Callable[[Where], Chunks]) -> Chunks:
        """Every chunk (id, payload) matching `where`, read by `read` once per filter until
        `clear`: the meaning channel compares a question with all of them."""
        key = repr(sorted((name, tuple(values)) for name, values in where.items()))
        with self._lock:
            cached = self._chunks.get(key)
        if cached is None:
            cached = read(where)
            with self._lock:
                self._chunks[key] = cached
        return cached

    def cosines(
        self, query: str, chunks: Sequence[tuple[str, Mapping[str, Any]]]
    ) -> list[Closeness] | None:
        """How close `query` is to each (chunk id, payload): the whole passage and its parts
        (`readings`); None when the encoder cannot run."""
        asked = multilingual_query_vector(query)
        if asked is None:
            return None
        closeness = []
        for _, payload in chunks:
            sims = passage_vectors(payload) @ asked
            whole = float(sims[0])
            closeness.append(Closeness(whole, (whole + float(sims.max())) / 2))
        return closeness


#: The process's passage vectors, by `_digest` of a chunk (`passage_vectors`).
_PASSAGES: OrderedDict[bytes, np.ndarray] = OrderedDict()
_PASSAGES_LOCK = threading.Lock()


def passage_vectors(payload: Mapping[str, Any]) -> np.ndarray:
    """The vectors of a chunk's `readings` (the whole passage first), encoded in a batch of
    their own the first time the process meets this title, heading and text, then kept
    (the newest `CACHE` chunks). Only called once the encoder has run (`cosines`)."""
    key = _digest(payload)
    with _PASSAGES_LOCK:
        found = recall(_PASSAGES, key)
    if found is not None:
        return found
    encoded = multilingual_vectors(readings(payload))
    assert encoded is not None  # the encoder ran for the query
    with _PASSAGES_LOCK:
        remember(_PASSAGES, key, encoded, CACHE)
    return encoded


def _digest(payload: Mapping[str, Any]) -> bytes:
    """What `readings` is made of (title, heading, text), as a digest: the documents' words
    are not kept as keys."""
    fields = (str(payload.get(name, "")) for name in ("title", "section", "text"))
    return hashlib.blake2b("\x1f".join(fields).encode("utf-8"), digest_size=16).digest()


def passage(payload: Mapping[str, Any]) -> str:
    """What the encoder reads of a chunk: its title, section heading and text."""
    return f"{payload.get('title', '')} {payload.get('section', '')} {payload.get('text', '')}"


def readings(payload: Mapping[str, Any]) -> list[str]:
    """What the encoder reads of a chunk: the whole `passage`, then each of its `parts` with
    the chunk's title and heading (a part is read as what the section says about it)."""
    head = f"{payload.get('title', '')} {payload.get('section', '')}"
    return [passage(payload), *(f"{head} {part}" for part in parts(str(payload.get("text", ""))))]


def parts(text: str, bound: int = PART_CHARS) -> list[str]:
    """A text longer than `bound` cut into parts: list items (with their wrapped lines) and
    paragraphs, and one longer than `bound` into groups of whole sentences of at most
    `bound` characters (a longer sentence stays whole). A text that is one part has none."""
    if len(text) <= bound:
        return []
    blocks: list[str] = []
    lines: list[str] = []
    for line in text.splitlines():
        if not line.strip() or (_ITEM.match(line) and lines):
            if lines:
                blocks.append(" ".join(lines))
            lines = []
        if line.strip():
            lines.append(line.strip())
    if lines:
        blocks.append(" ".join(lines))
    found: list[str] = []
    for block in blocks:
        if len(block) <= bound:
            found.append(block)
            continue
        group = ""
        for sentence in filter(None, _SENTENCE_END.split(block)):
            joined = _join(group, sentence)
            if group and len(joined) > bound:
                found.append(group)
                group = sentence
            else:
                group = joined
        if group:
            found.append(group)
    return found if len(found) > 1 else []


def _join(group: str, sentence: str) -> str:
    """Two runs of sentences as one: a space after an English sentence, none after Chinese."""
    if not group:
        return sentence
    return f"{group}{sentence}" if group[-1] in _FULL_WIDTH_ENDS else f"{group} {sentence}"


def read_on_meaning(hit: Hit, closeness: Closeness, *, scored: bool = False) -> Hit:
    """`hit` with how close in meaning it is to the query; `scored`: its score raised to
    what its closeness says (the words' own first hits; one found on meaning alone keeps its
    word score, see `MEANING_EXTRA`)."""
    score = max(hit.score, round(meaning_relevance(closeness.near), 4)) if scored else hit.score
    return replace(hit, score=score, meaning=closeness.whole, near=closeness.near)


def meaning_relevance(cosine: float) -> float:
    """The multilingual cosine mapped onto 0..1 (see `MEANING_FLOOR`, `MEANING_CEIL`)."""
    return min(1.0, max(0.0, (cosine - MEANING_FLOOR) / (MEANING_CEIL - MEANING_FLOOR)))


def fused_order(
    lexical: Sequence[str], meaning: Sequence[tuple[str, float]], weight: float = MEANING_WEIGHT
) -> list[str]:
    """Chunk ids by weighted reciprocal rank over two lists: `lexical` (ids, best first: the
    store's own fused words-and-MiniLM ranking) at weight 1 and `meaning` ((id, multilingual
    cosine) in any order, ranked here closest first, equal cosines by id) at `weight`. Each
    list counts its first `FUSION_DEPTH`; equal fused scores keep the lexical order, then id."""
    ranked = sorted(meaning, key=lambda item: (-round(item[1], TIE_DIGITS), item[0]))
    scores: dict[str, float] = {}
    for rank, cid in enumerate(lexical[:FUSION_DEPTH]):
        scores[cid] = scores.get(cid, 0.0) + rrf(rank, 1.0)
    if weight > 0:
        for rank, (cid, _) in enumerate(ranked[:FUSION_DEPTH]):
            scores[cid] = scores.get(cid, 0.0) + rrf(rank, weight)
    first = {cid: rank for rank, cid in enumerate(lexical)}
    return sorted(
        scores,
        key=lambda cid: (-round(scores[cid], TIE_DIGITS), first.get(cid, len(first)), cid),
    )
