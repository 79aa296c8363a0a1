"""A 0..1 relevance for a retrieved chunk, independent of its rank among the others.

Fused RRF scores only order hits. Callers (the `score` of a hit, `confirm`) need a number that
means the same for every query, so it is computed from two absolute signals:

- lexical: the share of the query's content terms found in the chunk. Terms are English words
  (stop words dropped, a hyphen between letters dropped so "Wi-Fi" meets "wifi", cut to a
  5-letter stem so "changed" meets "change") and, for Chinese,
  character bigrams (most Chinese words are two characters; no segmenter needed). Character
  2-4-grams are right for ranking but not for this share: common letter pairs make any English
  text overlap any other;
- semantic: the dense cosine, mapped linearly from `COSINE_FLOOR` (unrelated text) to
  `COSINE_CEIL` (a paraphrase) onto 0..1, times the trust in MiniLM for the query's language
  (`DENSE_WEIGHT`: two unrelated Chinese texts can have a cosine of 0.7 under this English-only
  model).

The relevance is the larger of the two, softened by the smaller one, so either channel alone
can vouch for a hit (MiniLM misses Chinese; terms miss paraphrases).
"""

from __future__ import annotations

import re

from core.cues import cues
from core.text.kept import text_memo
from core.text.language import DENSE_WEIGHT, detect_language
from core.text.sparse import normalize

COSINE_FLOOR = 0.20
COSINE_CEIL = 0.70
#: Weight of the weaker signal in the blend.
SECOND_WEIGHT = 0.25
STEM = 5
#: Texts whose terms are remembered: a query is compared with ten to fifteen chunks, and the
#: same chunks come back for message after message.
TERMS_CACHE = 2048

_WORD = re.compile(r"[a-z0-9][a-z0-9_\-./]*")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
#: A word of a normalised text as `terms` reads it: an English word, or a run of Chinese
#: characters (whose bigrams are its terms).
TOKEN = re.compile(f"{_WORD.pattern}|{_CJK_RUN.pattern}")
#: Words that carry no subject, in each language (`relevance.cues.yaml` beside it).
_STOP = frozenset(cues(__name__).words("stop"))


def terms(text: str) -> set[str]:
    """Content terms: stemmed English words and Chinese character bigrams."""
    return set(_terms(text))


@text_memo(TERMS_CACHE)
def _terms(text: str) -> frozenset[str]:
    return frozenset(term for term, _ in _forms(text))


def term_forms(text: str) -> dict[str, str]:
    """Each content term of `text` (`terms`) with a word it stands for as written (the first:
    "hotli" -> "hotline"), for comparing terms by meaning (`knowledge.term_meaning`)."""
    return dict(_forms(text))


@text_memo(TERMS_CACHE)
def _forms(text: str) -> tuple[tuple[str, str], ...]:
    norm = normalize(text)
    found: dict[str, str] = {}
    for word in map(_one_word, _WORD.findall(norm)):
        if word not in _STOP and len(word) > 1:
            found.setdefault(word[:STEM], word)
    for run in _CJK_RUN.findall(norm):
        if len(run) == 1:
            if run not in _STOP:
                found.setdefault(run, run)
            continue
        for i in range(len(run) - 1):
            found.setdefault(run[i : i + 2], run[i : i + 2])
    return tuple(found.items())


def _one_word(token: str) -> str:
    """A token as one word: its edges' punctuation stripped and a hyphen that only joins
    letters dropped, so "Wi-Fi", "e-mail" and "log-in" meet "wifi", "email" and "login" (a
    question's spelling is not the article's). Identifiers keep theirs ("db-prod-02")."""
    token = token.strip("-./")
    return token if any(c.isdigit() for c in token) else token.replace("-", "")


def lexical_overlap(query: str, text: str) -> float:
    """Share (0..1) of the query's content terms found in `text`."""
    wanted = _terms(query)
    if not wanted:
        return 0.0
    return len(wanted & _terms(text)) / len(wanted)


def dense_relevance(cosine: float | None) -> float:
    """The dense cosine mapped onto 0..1 (0 when there is none)."""
    if cosine is None:
        return 0.0
    return min(1.0, max(0.0, (cosine - COSINE_FLOOR) / (COSINE_CEIL - COSINE_FLOOR)))


def relevance(query: str, text: str, cosine: float | None) -> float:
    """How relevant `text` is to `query`, 0..1 (see the module docstring)."""
    lexical = lexical_overlap(query, text)
    if cosine is None:
        return round(lexical, 4)
    semantic = dense_relevance(cosine) * _dense_trust(query)
    high, low = max(lexical, semantic), min(lexical, semantic)
    return round(high * (1 - SECOND_WEIGHT) + low * SECOND_WEIGHT, 4)


@text_memo(TERMS_CACHE)
def _dense_trust(query: str) -> float:
    """How far MiniLM is trusted on the query's language (asked once per hit)."""
    return DENSE_WEIGHT.get(detect_language(query), 1.0)
