"""The right to be forgotten, the same for every backend: what of a stored decision goes.

A decision the user asked keeps its id, controller, tier, outcome, confidence and signals (the
log stays whole for audits and figures) but loses every word of theirs: text, entities,
rationale, tier path, memory notes, preference, clarification, the controller's answer, the
texts of a multi-intent message's parts, what each dry-run read in the message ("permission on
walrusboard dashboard") and the values a plan took from it.
Any other decision loses the user's feedback and any quote of the user's texts (the messages
their lessons hold and the titles and descriptions of their tickets) wherever it keeps words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: What a forgotten text reads as.
REDACTED = "[forgotten]"
#: Prefix lengths of a text as rationales quote it (`text[:57] + "..."`, `text[:60]`).
QUOTED_PREFIXES = (57, 60)
#: Fields of a decision that hold words (strings, or lists and mappings of them): the
#: controller's result quotes tickets (a status answer in another user's thread names the
#: thread's ticket by its title, the words of the user who opened it).
_WORDY = ("rationale", "preference", "clarification", "tier_path", "memory_influences", "result")


def scrub(value: Any, texts: Sequence[str]) -> Any:
    """`value` (a string, or lists and mappings of them, however nested) with every occurrence
    of each of `texts` redacted (longest first, as `quoted_forms` orders them)."""
    if isinstance(value, str):
        for text in texts:
            if text and text in value:
                value = value.replace(text, REDACTED)
        return value
    if isinstance(value, list):
        return [scrub(item, texts) for item in value]
    if isinstance(value, dict):
        return {key: scrub(item, texts) for key, item in value.items()}
    return value


def _without_values(value: Any) -> Any:
    """A plan (or a dynamic decision's trace, whose rounds hold plans) without the values it
    took from the message (`parameters`) or words written about it (`note`)."""
    if isinstance(value, list):
        return [_without_values(item) for item in value]
    if not isinstance(value, dict):
        return value
    cleared: dict[str, Any] = {}
    for key, item in value.items():
        if key == "parameters" and isinstance(item, dict):
            cleared[key] = {}
        elif key == "note" and isinstance(item, str) and item:
            cleared[key] = REDACTED
        else:
            cleared[key] = _without_values(item)
    return cleared


def quoted_forms(texts: Sequence[str]) -> list[str]:
    """The texts and the prefixes rationales quote them by, longest first."""
    forms = {t for t in texts if t.strip()}
    forms |= {t[:n] for t in texts for n in QUOTED_PREFIXES if len(t) > n}
    return sorted(forms, key=len, reverse=True)


def forget_in(document: dict[str, Any], user: str, texts: Sequence[str]) -> bool:
    """Redact one stored decision document in place; True when anything changed."""
    before = repr(document)
    feedback = document.get("feedback") or []
    document["feedback"] = [item for item in feedback if item.get("user") != user]
    if document.get("user") == user:
        document["text"] = REDACTED
        document["entities"] = {}
        document["rationale"] = REDACTED
        document["tier_path"] = []
        document["memory_influences"] = []
        document["preference"] = ""
        document["clarification"] = None if document.get("clarification") is None else REDACTED
        document["result"] = None
        intent = document.get("intent")
        if isinstance(intent, dict):
            intent["entities"] = {}
        for part in document.get("parts") or []:
            if isinstance(part, dict):
                part["text"] = REDACTED
        for dry_run in document.get("dry_runs") or []:
            if isinstance(dry_run, dict) and dry_run.get("reason"):
                dry_run["reason"] = REDACTED
        for name in ("plan", "dcr"):
            if name in document:
                document[name] = _without_values(document[name])
    else:
        forms = quoted_forms(texts)
        for name in _WORDY:
            if name in document:
                document[name] = scrub(document[name], forms)
    return repr(document) != before
