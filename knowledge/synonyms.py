"""The knowledge base's own synonyms: the names its glossary gives one thing ("disbursement",
"loan disbursement", "payout" and the Chinese word; "reconciliation", "recon" and its).

A question that names a thing by one of them is answered by a passage that names it by
another: "customer didn't get the payout, should I just pay it again?" by the disbursement
runbook's "Never pay a disbursement twice". Answer verification reads a key term of the
question as held when it is in a glossary name the question uses and the passage holds
another name of the same entry (`controllers.verification`). A knowledge base's owners add
an alias to say two wordings mean one thing; no word list in the code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knowledge.relevance import terms

if TYPE_CHECKING:
    from knowledge.store import KnowledgeStore

#: One glossary entry's names (its term and aliases), as written.
Names = tuple[str, ...]


def names_in(store: KnowledgeStore | None, text: str) -> tuple[Names, ...]:
    """The names of each glossary entry that `text` names by one of them (all of that name's
    terms are the text's)."""
    if store is None:
        return ()
    said = terms(text)
    return tuple(
        names for names in glossary_names(store) if any(_named(name, said) for name in names)
    )


def glossary_names(store: KnowledgeStore) -> tuple[Names, ...]:
    """Every glossary entry's names, read once per store generation
    (`KnowledgeStore.derived`)."""
    return store.derived("synonyms.glossary", _read_names)


def _read_names(store: KnowledgeStore) -> tuple[Names, ...]:
    return tuple(names for entry in store.payloads("glossary") if len(names := _names(entry)) > 1)


def held_by_another_name(
    missing: set[str], question: str, passage_terms: set[str], named: tuple[Names, ...]
) -> set[str]:
    """The `missing` key terms of `question` that are terms of a glossary name it uses, when
    the passage holds another name of that entry (all of that name's terms)."""
    said = terms(question)
    found: set[str] = set()
    for names in named:
        used = [terms(name) for name in names if _named(name, said)]
        other = [terms(name) for name in names if not _named(name, said)]
        if any(held and held <= passage_terms for held in other):
            found |= missing & set().union(*used)
    return found


def _named(name: str, said: set[str]) -> bool:
    wanted = terms(name)
    return bool(wanted) and wanted <= said


def _names(entry: dict[str, object]) -> Names:
    aliases = entry.get("aliases") or []
    listed = [entry.get("term", ""), *(aliases if isinstance(aliases, list) else [])]
    return tuple(dict.fromkeys(str(name) for name in listed if str(name).strip()))
