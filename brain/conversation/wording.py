"""What the conversation itself says around a decision (the headline of a reroute, the
rationale line, feedback acknowledgements, the terminal's hints), in the asker's language: the
`conversation.*` messages of the language catalogs (`core.wording`), so that a Chinese asker
gets no English sentence and a new phrase is added to every language at once. The rationale's
words for codes (signals, tiers, the dynamic plan's parts, the continuation model's classes,
urgency) are the catalog's terms. The controllers word their own results
(`controllers.ticket_replies`); the Slack adapter's chrome is `bot.wording`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from core.plans import ROLE_WORDS_ZH
from core.wording import templates, wording, wording_for

__all__ = [
    "PHRASES",
    "PLAN_WORDS_ZH",
    "READING_WORDS_ZH",
    "SIGNAL_WORDS_ZH",
    "TIERS_ZH",
    "URGENCY_ZH",
    "Why",
    "because",
    "say",
]

_AREA = "conversation"

#: key -> (English, Chinese) templates, as the catalogs hold them; `{name}` fields are filled
#: by `say`.
PHRASES: Mapping[str, tuple[str, ...]] = templates(_AREA)

_CHINESE_TERMS = wording("zh").terms
#: Signal name -> its Chinese word (a signal not listed keeps its own word).
SIGNAL_WORDS_ZH = dict(_CHINESE_TERMS["signal_words"])
TIERS_ZH = dict(_CHINESE_TERMS["tiers"])
#: A plan's topology, source and roles in Chinese (the dynamic path's plan line).
PLAN_WORDS_ZH = {**_CHINESE_TERMS["plan_words"], **ROLE_WORDS_ZH}
#: The continuation model's classes (`brain.continuation.model.CLASSES`) in Chinese.
READING_WORDS_ZH = dict(_CHINESE_TERMS["readings"])
URGENCY_ZH = dict(_CHINESE_TERMS["urgency"])


def say(key: str, chinese: bool, **fields: object) -> str:
    """The phrase `key` in the asker's language, its fields filled."""
    return wording_for(chinese).say(f"{_AREA}.{key}", **fields)


@dataclass(frozen=True, slots=True)
class Why:
    """A reason worded in both languages at once: where it is made the asker's language is
    not known, and the rationale line that shows it must be in that language (a Chinese
    follow-up's rationale once ended in an English reason). The English wording is the
    decision path's (`str`)."""

    english: str
    chinese: str

    def text(self, chinese: bool) -> str:
        """The reason in the asker's language."""
        return self.chinese if chinese else self.english

    def then(self, other: Why) -> Why:
        """This reason followed by `other`."""
        english, chinese = (wording_for(zh).say("common.clause_separator") for zh in (False, True))
        return Why(
            f"{self.english}{english}{other.english}", f"{self.chinese}{chinese}{other.chinese}"
        )

    def __str__(self) -> str:
        return self.english


def because(key: str, **fields: object) -> Why:
    """The phrase `key` as a reason in both languages; a field that is itself a `Why` is put
    in each language's own words."""
    english = {k: v.english if isinstance(v, Why) else v for k, v in fields.items()}
    chinese = {k: v.chinese if isinstance(v, Why) else v for k, v in fields.items()}
    return Why(say(key, False, **english), say(key, True, **chinese))
