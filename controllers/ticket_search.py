"""Ticket search: "find my tickets about the keyboard", in English or Chinese.

A search asks for tickets by topic, not by id, so it is answered by ranking the tickets the
asker may see against the topic's words, never by listing every open ticket (which is what a
status question with no id gets). The ranking is BM25+ (the `rank-bm25` package; plain BM25's
idf turns negative for a word in more than half of a small collection, and one requester's
tickets are a small collection) over the tickets' own text: title, field values and comments.
Tokens are lower-cased words for Latin text and Chinese characters with their bigrams, so
"VPN" in English and in Chinese sentences meets. A ticket whose text shares none of the topic's
tokens is not shown by the words: a search with no match says so rather than offering unrelated
tickets.

Words miss what people call by other names ("my keys are sticky" for a keyboard ticket) and
everything in the other language (the Chinese for "keyboard" for "Keyboard keys stick").
The search by meaning reads the topic and the tickets with the multilingual encoder
(`core.text.multilingual`: English and Chinese in one space). Whether a ticket is about the topic at
all is decided by a bar learned from labelled pairs (`controllers.ticket_relevance`: the cosine and
the share of the topic's words the ticket holds), so neither one shared word nor a middling cosine
alone shows an unrelated ticket; the tickets past it are ranked by fusing the two rankings by their
ranks (reciprocal rank fusion), so neither one's scale decides. Where the encoder cannot run,
the words alone answer, past the words' own learned bar.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rank_bm25 import BM25Plus

from controllers.ticket_relevance import cover, relevance
from core.cues import cues
from core.stores.records import Ticket
from core.text.kept import KeptDict
from core.text.multilingual import multilingual_vectors
from core.text.sparse import normalize

#: At most this many tickets are shown for one search.
SHOWN = 5
#: A hit scoring under this share of the best hit's score is left out (a long tail of tickets
#: that share one common word with the topic is noise, not an answer).
RELATIVE_FLOOR = 0.35
#: Reciprocal rank fusion's constant (the usual 60: a rank's weight falls slowly).
FUSION_K = 60
#: Tickets read by meaning at most, the newest (each text is encoded once per process, about
#: 2 ms): a search over a whole desk of 100k tickets would encode for minutes. Older tickets
#: are found by their words.
MEANING_MAX_TICKETS = 4096
#: Ticket texts whose vectors are kept per process.
_VECTORS_KEPT = 2 * MEANING_MAX_TICKETS
_vectors: dict[str, np.ndarray] = {}
#: Ticket texts and topics asked about: a forget empties it (`core.text.kept`).
_KEPT = KeptDict(_vectors, whole=True)

#: "search / find / look for / show (me) (my|all|our) tickets (about|on|for|mentioning) X";
#: "tickets about X"; the same in Chinese (`ticket_search.cues.yaml`; `core.cues`).
_CUES = cues(__name__)
_SEARCH_EN = re.compile(
    r"\b(?:search|find|look(?:ing)? for|look up|show(?: me)?|any)\s+(?:for\s+)?"
    r"(?:(?:my|all|our|the|any|open|closed|old)\s+)*"
    r"(?:tickets?|requests?|incidents?|cases?|changes?)\s+"
    r"(?:about|on|for|regarding|re|mentioning|with|related to|that mention)\s+(?P<topic>.+)"
    r"|\b(?:tickets?|requests?|incidents?)\s+(?:about|regarding|mentioning|related to)\s+"
    r"(?P<topic2>.+)",
    re.IGNORECASE,
)
_SEARCH_ZH = re.compile(_CUES.regex("search_zh"))
_LEADING = re.compile(r"^(?:(?:the|a|an|my|our|that|this)\s+)+", re.IGNORECASE)
_TRAILING = re.compile(_CUES.regex("trailing"))
_LATIN_WORD = re.compile(r"[a-z0-9][a-z0-9_.+#-]*")
_CJK = re.compile(r"[\u3400-\u9fff]+")
#: Words that carry no topic in a search ("find my tickets about *the* printer *please*").
_STOP = frozenset(_CUES.words("stop_en"))


@dataclass(frozen=True, slots=True)
class TicketHit:
    """A ticket a search found and its BM25 score (higher is closer)."""

    ticket: Ticket
    score: float


def search_topic(text: str) -> str | None:
    """The topic a message searches tickets for, or None when it is no ticket search."""
    match = _SEARCH_EN.search(text) or _SEARCH_ZH.search(text)
    if match is None:
        return None
    topic = next((value for value in match.groupdict().values() if value), "")
    topic = _LEADING.sub("", _TRAILING.sub("", topic)).strip()
    return topic if tokens(topic) else None


def tokens(text: str) -> list[str]:
    """Search tokens: Latin words (no stop words) and Chinese characters and their bigrams."""
    norm = normalize(text)
    found = [w.strip(".-") for w in _LATIN_WORD.findall(norm)]
    out = [w for w in found if w and w not in _STOP]
    for run in _CJK.findall(norm):
        out.extend(run)
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def units(text: str) -> set[str]:
    """What a topic says, to count how much of it a ticket's words hold: its words and its
    Chinese character pairs (a lone character when a run has one)."""
    norm = normalize(text)
    found = {w.strip(".-") for w in _LATIN_WORD.findall(norm)}
    out = {w for w in found if w and w not in _STOP}
    for run in _CJK.findall(norm):
        out.update([run] if len(run) == 1 else (run[i : i + 2] for i in range(len(run) - 1)))
    return out


def ticket_text(ticket: Ticket) -> str:
    """What a search reads of a ticket: its title, field values and comments."""
    fields = " ".join(str(v) for v in ticket.fields.values() if isinstance(v, str | int | float))
    comments = " ".join(str(c.get("text", "")) for c in ticket.comments)
    return f"{ticket.title} {fields} {comments}"


def search(
    tickets: Sequence[Ticket], topic: str, *, limit: int = SHOWN, by_meaning: bool = True
) -> list[TicketHit]:
    """The tickets about the topic, best first (open before closed on a tie); with
    `by_meaning` (the default) also those about it in other words or the other language."""
    query = tokens(topic)
    if not tickets or not (query or topic.strip()):
        return []
    texts = [ticket_text(t) for t in tickets]
    cosines: dict[int, float] = {}
    if by_meaning:
        newest = sorted(range(len(tickets)), key=lambda i: (tickets[i].created_at, tickets[i].id))
        read = newest[-MEANING_MAX_TICKETS:]
        found = _cosines(topic, [texts[i] for i in read])
        if found is not None:
            cosines = {i: float(c) for i, c in zip(read, found, strict=True)}
    shown = _about(topic, texts, cosines)
    meaning = sorted((i for i in cosines if i in shown), key=lambda i: -cosines[i])
    ranked = [[i for i in _by_words(query, texts) if i in shown], meaning]
    fused: dict[int, float] = {}
    for ranking in ranked:
        for rank, index in enumerate(ranking):
            fused[index] = fused.get(index, 0.0) + 1.0 / (FUSION_K + rank + 1)
    hits = [TicketHit(tickets[i], score) for i, score in fused.items()]
    hits.sort(key=lambda h: (-h.score, not h.ticket.is_open, h.ticket.id))
    return hits[:limit]


def _about(topic: str, texts: Sequence[str], cosines: dict[int, float]) -> set[int]:
    """The tickets past the learned bar (`controllers.ticket_relevance`): by cosine and cover
    those read by meaning, by cover alone the others."""
    wanted = units(topic)
    covers = np.array([cover(wanted, set(tokens(text))) for text in texts])
    shown: set[int] = set()
    if cosines:
        model, with_meaning = relevance(units, tokens, multilingual_vectors)
        if with_meaning:
            read = sorted(cosines)
            rows = np.column_stack([[cosines[i] for i in read], covers[read]])
            shown = {i for i, ok in zip(read, model.about(rows), strict=True) if ok}
    rest = [i for i in range(len(texts)) if i not in shown and i not in cosines]
    if rest:
        words, _ = relevance(units, tokens, None)
        shown.update(
            i for i, ok in zip(rest, words.about(covers[rest][:, None]), strict=True) if ok
        )
    return shown


def _by_words(query: list[str], texts: Sequence[str]) -> list[int]:
    """Tickets sharing the topic's words, best first by BM25+ (within RELATIVE_FLOOR of the
    best)."""
    if not query:
        return []
    documents = [tokens(text) for text in texts]
    ranking = BM25Plus([d or ["\0"] for d in documents])
    # BM25+ gives every document delta x idf of each query word, present or not: take it off,
    # so a score is what the ticket's own matches earned.
    base = sum(ranking.idf.get(word, 0.0) * ranking.delta for word in query)
    scores = ranking.get_scores(query) - base
    wanted = set(query)
    found = [
        (float(score), i)
        for i, (document, score) in enumerate(zip(documents, scores, strict=True))
        if wanted.intersection(document) and score > 0
    ]
    if not found:
        return []
    best = max(score for score, _ in found)
    return [i for score, i in sorted(found, key=lambda f: -f[0]) if score >= RELATIVE_FLOOR * best]


def _cosines(topic: str, texts: Sequence[str]) -> np.ndarray | None:
    """Each text's multilingual cosine to the topic (None when the encoder cannot run)."""
    wanted = _vectors_of([topic, *texts])
    if wanted is None:
        return None
    return np.asarray(wanted[1:] @ wanted[0])


def _vectors_of(texts: Sequence[str]) -> np.ndarray | None:
    """The texts' multilingual vectors, each text encoded once per process."""
    missing = list(dict.fromkeys(t for t in texts if t not in _vectors))
    if missing:
        found = multilingual_vectors(missing)
        if found is None:
            return None
        if len(_vectors) + len(missing) > _VECTORS_KEPT:
            _vectors.clear()  # a new desk's worth: start again rather than track ages
        _vectors.update(zip(missing, found, strict=True))
    return np.stack([_vectors[t] for t in texts])
