"""Knowledge passages as an asker is shown them: in their language, cut to length, and
labelled when only the other language holds them (no LLM translates here)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.cues import cues
from core.text.language import is_chinese
from core.wording import wording_for

if TYPE_CHECKING:
    from knowledge.types import Hit

PASSAGE_CHARS = 360
#: The marks a passage is cut and glossed by (`passage_language.cues.yaml`; `core.cues`).
_CUES = cues(__name__)
#: Where a cut passage may end (a sentence's end, full-width too), and what it ends with.
_SENTENCE_ENDS = _CUES.words("sentence_ends")
_CUT_MARK = _CUES.text("cut_mark")


def trim(text: str, limit: int = PASSAGE_CHARS) -> str:
    """Whitespace-collapsed text cut at a sentence end near `limit` characters."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    end = max(cut.rfind(mark) for mark in _SENTENCE_ENDS)
    return (cut[: end + 1] if end > limit // 3 else cut.rstrip()) + _CUT_MARK


def asker_language_first(hits: Sequence[Hit], question: str) -> list[Hit]:
    """The hits with those in the asker's language first (otherwise in their order)."""
    zh = is_chinese(question)
    return sorted(hits, key=lambda hit: is_chinese(hit.text) != zh)


def in_asker_language(hits: Sequence[Hit], question: str) -> list[Hit]:
    """The hits the asker can read in their own language (`own_language` keeps a bilingual
    passage's lines in it), or, when none is, all of them (`excerpt` labels each). A page's
    section translated for the other language's readers says again what its own-language
    section says: "what are your support hours?" was answered with the English hours and then
    the Chinese section of the IT service hours, unlabelled, in an English reply."""
    zh = is_chinese(question)
    own = [hit for hit in hits if is_chinese(own_language(hit.text, question)) == zh]
    return own or list(hits)


def own_language(text: str, question: str) -> str:
    """A passage for the asker: a bilingual passage (a Chinese runbook section that also gives
    each line in English) keeps the lines in the asker's language; a passage wholly in the
    other language is kept whole (`quoted` labels it). An English asker's English lines lose
    their Chinese glosses (`without_glosses`)."""
    zh = is_chinese(question)
    lines = text.splitlines()
    own = [line for line in lines if line.strip() and is_chinese(line) == zh]
    if not own or len(own) == len([line for line in lines if line.strip()]):
        return text if zh or is_chinese(text) else without_glosses(text, question)
    return "\n".join(own) if zh else without_glosses("\n".join(own), question)


#: A Chinese term in brackets inside an English sentence, alone or after English words and a
#: comma ("reconciliation (recon, <the Chinese term>): ..."), in ASCII or full-width brackets.
_GLOSS = re.compile(_CUES.regex("gloss"))


def without_glosses(text: str, question: str) -> str:
    """An English passage for an English asker, without the Chinese terms the knowledge base
    adds in brackets for Chinese readers ("A break (<the Chinese term>) is ...": English answers
    carried Chinese words the asker did not write). A gloss the question names stays: "what
    does <the Chinese for rollover> mean?" is answered by "Rollover (<that term>)"."""

    def drop(match: re.Match[str]) -> str:
        opening, english, chinese, closing = match.groups()
        if chinese.strip() in question:
            return match.group(0)
        return f"{opening}{english.strip()}{closing}" if english.strip() else ""

    return _GLOSS.sub(drop, text)


def excerpt(text: str, question: str) -> str:
    """A passage shown to the asker: its lines in their language (`own_language`), cut to
    length (`trim`) and labelled when in the other language (`quoted`)."""
    return quoted(trim(own_language(text, question)), question)


def quoted(text: str, question: str) -> str:
    """Knowledge-base text for the reply: as written when it is in the asker's language,
    else quoted and labelled in the asker's language (no LLM translates it here)."""
    if is_chinese(text) == is_chinese(question):
        return text
    words = wording_for(is_chinese(question))
    language = words.term("language_names", "zh" if is_chinese(text) else "en")
    return words.say("passages.quoted", language=language, text=text)


def titled_for(title: str, question: str) -> str:
    """A page's title for the asker: a title given in both languages ("Printer problems /
    <the same in Chinese>") keeps its parts in the asker's language. "What is the dress code
    on Fridays?" was told "Nearest articles: ...; Printer problems / <the Chinese title>; ...",
    Chinese in an English reply."""
    parts = [part.strip() for part in title.split(" / ")]
    zh = is_chinese(question)
    own = [part for part in parts if part and is_chinese(part) == zh]
    return " / ".join(own) if own and len(parts) > 1 else title
