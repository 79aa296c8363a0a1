"""What a phrase caught for a required field names, once its filler is set aside.

A request controller's patterns catch the words around a cue ("access to ...", "deploy the
... service", and the same in Chinese); those words name a system or a service only when
something is left after the quantifiers, determiners and pronouns that fill out a sentence
("one of the", "the new") and the bare kind of thing ("dashboards", "service"), in either
language (the Chinese ones in `slots.cues.yaml`). A
field is taken from that evidence or from the user's answer, never from the leftovers, so a
request that names nothing is asked which one.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from core.cues import cues
from core.lazy import LazyPattern

__all__ = ["named"]

#: The words that fill out a phrase, in each language (`slots.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: English words that fill out a request without naming anything ("access to one more tool").
FILLER = frozenset(_CUES.words("filler_en"))
#: The kinds of thing a phrase ends with ("portal", "dashboards", "service"): alone they
#: name nothing.
KINDS = frozenset(_CUES.words("kinds_en"))
#: Chinese filler before a name (a quantity, a demonstrative, "related"); a phrase caught
#: without word boundaries may hold the verb before it too, or whom the work is for.
_ZH_FILLER = LazyPattern(f"(?:{_CUES.regex('zh_filler')})+")
#: Chinese kinds after a name ("system", "service", "cluster"), and the possessive particle.
_ZH_KINDS = LazyPattern(f"(?:{_CUES.regex('zh_kinds')})+$")
_POSSESSIVE = _CUES.text("possessive")
#: What may be left of a Chinese phrase and still name nothing ("new" of "new system").
_ZH_LEFTOVERS = frozenset(_CUES.words("zh_leftovers"))
_CJK = re.compile(r"[\u4e00-\u9fff]")


def named(phrase: str, generic: Collection[str] = ()) -> str | None:
    """The phrase without its leading filler when something in it names a thing, else None
    ("one of the dashboards", "the new service", "this cluster"). `generic`: whole phrases the
    caller's patterns catch that name nothing (its cue verbs)."""
    phrase = phrase.strip()
    if not phrase or phrase.lower() in generic:
        return None
    if _CJK.search(phrase):
        kept = _ZH_FILLER.compiled.split(phrase)[-1]  # what follows the last filler
        left = _ZH_KINDS.sub("", kept)
        if not left or left in _ZH_LEFTOVERS or left in generic:
            return None
        return kept.removesuffix(_POSSESSIVE).strip()  # "GitLab's (access)" names GitLab
    words = phrase.split()
    while words and words[0].lower() in FILLER:
        words.pop(0)
    if all(word.lower() in FILLER or word.lower() in KINDS for word in words):
        return None
    return " ".join(words)
