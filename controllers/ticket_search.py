"""Ticket search: "find my tickets about the keyboard", "搜一下关于打印机的工单".

A search asks for tickets by topic, not by id, so it is answered by ranking the tickets the
asker may see against the topic's words, never by listing every open ticket (which is what a
status question with no id gets). The ranking is BM25+ (the `rank-bm25` package; plain BM25's
idf turns negative for a word in more than half of a small collection, and one requester's
tickets are a small collection) over the tickets' own text: title, field values and comments.
Tokens are lower-cased words for Latin text and Chinese characters with their bigrams, so
"VPN", "vpn 连不上" and "连接 VPN" meet. A ticket whose text shares none of the topic's tokens
is not shown: a search with no match says so rather than offering unrelated tickets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rank_bm25 import BM25Plus

from core.stores.records import Ticket
from core.text.sparse import normalize

#: At most this many tickets are shown for one search.
SHOWN = 5
#: A hit scoring under this share of the best hit's score is left out (a long tail of tickets
#: that share one common word with the topic is noise, not an answer).
RELATIVE_FLOOR = 0.35

#: "search / find / look for / show (me) (my|all|our) tickets (about|on|for|mentioning) X";
#: "tickets about X"; "搜索/查找/找一下/搜一下 (我的)(关于) X (的)工单".
_SEARCH_EN = re.compile(
    r"\b(?:search|find|look(?:ing)? for|look up|show(?: me)?|any)\s+(?:for\s+)?"
    r"(?:(?:my|all|our|the|any|open|closed|old)\s+)*"
    r"(?:tickets?|requests?|incidents?|cases?|changes?)\s+"
    r"(?:about|on|for|regarding|re|mentioning|with|related to|that mention)\s+(?P<topic>.+)"
    r"|\b(?:tickets?|requests?|incidents?)\s+(?:about|regarding|mentioning|related to)\s+"
    r"(?P<topic2>.+)",
    re.IGNORECASE,
)
_SEARCH_ZH = re.compile(
    r"(?:搜索|搜一下|搜搜|查找|找一下|找找)\s*(?:我的|我们的|所有)?\s*(?:关于|有关|跟|和)?\s*"
    r"(?P<topic>.+?)\s*(?:相关|有关)?的?(?:工单|单子|请求|事件)"
    r"|(?:查一下|查查|看看|有没有)?\s*(?:我的|我们的|所有)?\s*(?:关于|有关)\s*(?P<topic2>.+?)"
    r"\s*(?:相关|有关)?的?(?:工单|单子|请求|事件)"
)
_LEADING = re.compile(r"^(?:(?:the|a|an|my|our|that|this)\s+)+", re.IGNORECASE)
_TRAILING = re.compile(r"[\s?？!！。.,，]+$")
_LATIN_WORD = re.compile(r"[a-z0-9][a-z0-9_.+#-]*")
_CJK = re.compile(r"[\u3400-\u9fff]+")
#: Words that carry no topic in a search ("find my tickets about *the* printer *please*").
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "your",
        "me",
        "i",
        "we",
        "is",
        "are",
        "was",
        "be",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "about",
        "please",
        "pls",
        "any",
        "some",
        "that",
        "this",
        "it",
        "its",
        "from",
        "by",
    ]
)


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


def ticket_text(ticket: Ticket) -> str:
    """What a search reads of a ticket: its title, field values and comments."""
    fields = " ".join(str(v) for v in ticket.fields.values() if isinstance(v, str | int | float))
    comments = " ".join(str(c.get("text", "")) for c in ticket.comments)
    return f"{ticket.title} {fields} {comments}"


def search(tickets: Sequence[Ticket], topic: str, *, limit: int = SHOWN) -> list[TicketHit]:
    """The tickets that match the topic, best first (open before closed on a tie)."""
    query = tokens(topic)
    if not tickets or not query:
        return []
    documents = [tokens(ticket_text(t)) for t in tickets]
    ranking = BM25Plus([d or ["\0"] for d in documents])
    # BM25+ gives every document delta x idf of each query word, present or not: take it off,
    # so a score is what the ticket's own matches earned.
    base = sum(ranking.idf.get(word, 0.0) * ranking.delta for word in query)
    scores = ranking.get_scores(query) - base
    wanted = set(query)
    hits = [
        TicketHit(ticket, float(score))
        for ticket, document, score in zip(tickets, documents, scores, strict=True)
        if wanted.intersection(document) and score > 0
    ]
    if not hits:
        return []
    best = max(hit.score for hit in hits)
    hits = [hit for hit in hits if hit.score >= RELATIVE_FLOOR * best]
    hits.sort(key=lambda h: (-h.score, not h.ticket.is_open, h.ticket.id))
    return hits[:limit]
