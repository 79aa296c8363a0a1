"""Multi-intent splitting: one message, several independent requests.

"CPU alarm on db-01 and also I need Grafana access" carries two requests; each is decided on its
own. This module only proposes the pieces: at an explicit joiner ("and also", "besides", and
their Chinese words: `split.cues.yaml`) or between sentences. Whether they really are independent
requests is decided by the brain (`brain.chain.multi_intent`): every piece must route on its own,
each to a different controller; otherwise the message is decided whole. A plain "and" is no split by
itself ("error 500 and timeout on the payment API" stays one alarm): `at_plain_and` only
offers its two clauses to a caller with evidence that each asks for something, and
`with_shared_head` the two requests of one verb with two objects ("needs a laptop and accounts",
in either language), the head repeated in each.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from importlib import resources

from core.cues import cues

#: The module's cue words and marks (`split.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: Joiners that introduce a further, separate request.
_JOINERS = re.compile(_CUES.regex("joiners"), re.IGNORECASE)
#: A plain "and" between clauses ("... is down and I need ...").
_PLAIN_AND = re.compile(r"\s*,?\s+and\s+", re.IGNORECASE)
#: Sentence ends (a new sentence may be a new request).
_SENTENCES = re.compile(_CUES.regex("sentences"))
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9]+")
#: Pieces at most; a longer list is a paste, not a set of requests.
MAX_PARTS = 4
#: A piece needs this many words (or CJK characters) to be a request of its own.
MIN_WORDS = 3
MIN_CJK = 4
#: Messages longer than this (pastes, logs, stack traces) are never split.
MAX_CHARS = 600


#: "Two things:", "a couple of questions:": what follows is a list of requests, so a ", and"
#: or a semicolon between them separates them too.
_ANNOUNCED = re.compile(_CUES.regex("announced"), re.IGNORECASE)
_LIST_JOINERS = re.compile(_CUES.regex("list_joiners"))
#: Numbered or bulleted items: "1) ...", "2. ...", "- ...", and the full-width forms Chinese
#: writes with no space after them or before them.
_ITEMS = re.compile(_CUES.regex("items"))
#: Marks trimmed from a piece's ends: a request, the last object of a list, an earlier
#: object, a list's opening line (full-width forms too).
_TRIM = _CUES.text("trim")
_TRIM_OBJECT = _CUES.text("trim_object")
_TRIM_COMMA = _CUES.text("trim_comma")
_TRIM_COLON = _CUES.text("trim_colon")


def split_requests(text: str) -> list[str]:
    """The request-sized pieces of `text`, in order; `[]` when there is only one."""
    text = text.strip()
    if not _splittable(text):
        return []
    items = [p for p in _ITEMS.split(text) if p.strip()]
    announced = _ANNOUNCED.match(text)
    if len(items) >= 2 and _ITEMS.search(text) and len(_ITEMS.findall(text)) >= 2:
        chunks = items[1:] if not big_enough(items[0].strip(_TRIM_COLON)) else items
    elif "\n\n" in text:
        return []
    elif announced:
        chunks = _LIST_JOINERS.split(text[announced.end() :])
    else:
        chunks = [text]
    pieces: list[str] = []
    for whole in chunks:
        for chunk in _JOINERS.split(whole):
            pieces.extend(s for s in _SENTENCES.split(chunk) if s)
    parts = [p.strip(_TRIM) for p in pieces]
    parts = [p for p in parts if big_enough(p)]
    if len(parts) < 2 or len(parts) > MAX_PARTS:
        return []
    return parts


def at_plain_and(text: str) -> list[str]:
    """The two clauses around the one plain "and" of a short message, each big enough to be a
    request of its own; `[]` otherwise. Not a split by itself: "my laptop is slow and it keeps
    freezing" is one problem, so a caller splits here only on evidence that each clause asks
    for something (`brain.chain.multi_intent.pieces_of`)."""
    text = text.strip()
    if not _splittable(text) or "\n" in text:
        return []
    halves = [h.strip(_TRIM) for h in _PLAIN_AND.split(text)]
    return halves if len(halves) == 2 and all(map(big_enough, halves)) else []


#: "and" between two objects of one verb ("a laptop and accounts"), in either language.
_OBJECT_AND = re.compile(_CUES.regex("object_and"), re.IGNORECASE)
#: A clause boundary: the object of the last clause never reaches past one.
_CLAUSE_END = re.compile(_CUES.regex("clause_end"))
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'+.-]*|[\u3400-\u9fff]")
#: Where an English noun phrase starts: its object is cut there, not one word later.
_DETERMINERS = frozenset(_CUES.words("determiners_en"))
#: The second object's size at most (an English word counts 1, a Chinese character 1/2): a
#: longer tail is a clause of its own ("... and my manager already approved it").
MAX_OBJECT = 4
#: A list's middle Chinese object is at most this size (an English word counts 1, a Chinese
#: character 1/2), and with no segmenter a first object's length is guessed at the object
#: after it, this at most (most nouns are two characters): `_cjk_object_length` cuts it.
MAX_CJK_OBJECT = 2


def with_shared_head(text: str) -> list[str]:
    """The requests of one verb with two or more objects, the head (subject and verb) repeated
    in each: "new joiner needs a laptop and accounts" gives "new joiner needs a laptop" and
    "new joiner needs accounts"; `[]` when the message has no such ending (`shared_head`).
    Not a split by itself: "access to Jira and Confluence" is one request, so a caller splits
    here only on evidence (`brain.chain.multi_intent.pieces_of`)."""
    head, objects = shared_head(text)
    pieces = [head + thing for thing in objects]
    return pieces if pieces and all(map(big_enough, pieces)) else []


def shared_head(text: str) -> tuple[str, list[str]]:
    """The head and the objects of a message that ends in objects joined by "and" (or its
    Chinese words), a list's earlier ones by commas ("needs a laptop, a monitor and a Tableau
    licence"); `("", [])` when it has no such ending. The first object is cut from the words'
    structure, never a list of verbs: it is the last clause's tail in the script it ends in, as long
    as the object after it is in that script (a Chinese one two characters at most), and an
    English one starts at its determiner ("a laptop"). A list's middle object is short: two
    Chinese characters' size, or an English noun phrase (two words, or one that opens with a
    determiner)."""
    text = text.strip()
    joins = list(_OBJECT_AND.finditer(text))
    if not _splittable(text) or "\n" in text or not joins:
        return "", []
    left, second = text[: joins[-1].start()], text[joins[-1].end() :].strip(_TRIM_OBJECT)
    if _CLAUSE_END.search(second) or not 0 < _size(second) <= MAX_OBJECT:
        return "", []
    middle: list[str] = []
    while (comma := _last(_LIST_COMMA, left)) is not None and _listed(left[comma.end() :]):
        middle.insert(0, left[comma.end() :].strip())
        left = left[: comma.start()]
    if len(joins) != 1 and not middle:
        return "", []
    after = middle[0] if middle else second
    clause = max((m.end() for m in _CLAUSE_END.finditer(left)), default=0)
    tokens = list(_TOKEN.finditer(left, clause))
    if not tokens:
        return "", []
    cjk = bool(_CJK.match(tokens[-1].group()))
    wanted = max(1, sum(bool(_CJK.match(t)) == cjk for t in _TOKEN.findall(after)))
    start = len(tokens)
    if cjk:
        run = len(tokens) - next(
            (i + 1 for i in range(len(tokens) - 1, -1, -1) if not _CJK.match(tokens[i].group())),
            0,
        )
        chars = "".join(t.group() for t in tokens[len(tokens) - run :])
        start -= _cjk_object_length(chars, min(wanted, MAX_CJK_OBJECT))
    while not cjk and start > 0 and len(tokens) - start < wanted:
        word = tokens[start - 1].group()
        if _CJK.match(word):
            break
        start -= 1
        if word.lower() in _DETERMINERS:
            break
    if not cjk and start > 0 and tokens[start - 1].group().lower() in _DETERMINERS:
        start -= 1
    if start == 0:
        return "", []
    head = left[: tokens[start].start()]
    return head, [left[tokens[start].start() :].strip(_TRIM_COMMA), *middle, second]


def _cjk_object_length(chars: str, guess: int) -> int:
    """How many of the Chinese characters that end a clause are its object: the `guess` (the
    length of the object after it, two at most: most nouns are two) or one more (the three
    characters of "monitor" after "prepare", not its last two), whichever cut leaves the two
    characters across it holding together less in the shipped Chinese messages: a pair's count
    over that of its rarer character (the two of "need" are nearly always together, a pair
    across a verb and its object seldom)."""
    counts, chars_seen = _pairs()

    def together(length: int) -> float:
        cut = len(chars) - length
        if cut <= 0:
            return 0.0
        pair = chars[cut - 1 : cut + 1]
        return counts.get(pair, 0) / max(1, min(chars_seen.get(c, 0) for c in pair))

    lengths = [n for n in (guess, guess + 1) if n <= len(chars)] or [len(chars)]
    return min(lengths, key=lambda n: (together(n), n != guess))


#: The shipped messages whose Chinese characters tell where a word ends.
_CORPORA = ("training.jsonl", "speech_acts.jsonl")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")


@cache
def _pairs() -> tuple[dict[str, int], dict[str, int]]:
    """How often each pair of adjacent Chinese characters, and each character, occurs in the
    shipped messages (the routing set and the speech-act set): a pair inside a word is
    common beside its characters, one across two words rare, which is all a list's first
    object needs with no segmenter."""
    pairs: Counter[str] = Counter()
    chars: Counter[str] = Counter()
    folder = resources.files("brain.data")
    for name in _CORPORA:
        for line in folder.joinpath(name).read_text(encoding="utf-8").splitlines():
            for run in _CJK_RUN.findall(str(json.loads(line).get("text", ""))):
                chars.update(run)
                pairs.update(run[i : i + 2] for i in range(len(run) - 1))
    return dict(pairs), dict(chars)


#: Between a list's objects before its last "and": a comma ("a laptop, a monitor and ..."),
#: full-width or the Chinese enumeration comma.
_LIST_COMMA = re.compile(_CUES.regex("list_comma"))


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return next(reversed(list(pattern.finditer(text))), None)


def _listed(segment: str) -> bool:
    """Is this short enough to be a middle object of a list ("a monitor")? Not a clause
    ("needs a laptop", "starting monday"), in either language."""
    words = _TOKEN.findall(segment)
    if not words or _CLAUSE_END.search(segment) or _OBJECT_AND.search(segment):
        return False
    if all(_CJK.match(w) for w in words):
        return _size(segment) <= MAX_CJK_OBJECT
    return (len(words) <= 2 and not _CJK.search(segment)) or (
        words[0].lower() in _DETERMINERS and _size(segment) <= MAX_OBJECT
    )


def _size(piece: str) -> float:
    return len(_WORD.findall(piece)) + len(_CJK.findall(piece)) / 2


def _splittable(text: str) -> bool:
    """Pastes, logs and stack traces (long texts, code blocks) are never split."""
    return len(text) <= MAX_CHARS and "```" not in text


def big_enough(piece: str) -> bool:
    """Long enough to hold a request of its own (not "thanks" or a stray clause)."""
    cjk = len(_CJK.findall(piece))
    if cjk:
        return cjk + len(_WORD.findall(piece)) >= MIN_CJK
    return len(_WORD.findall(piece)) >= MIN_WORDS
