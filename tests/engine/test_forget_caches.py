"""Forgetting a person reaches the caches of the process that forgets (`core.text.kept`): the
embedder's query vectors, the routing fit's training vectors, recognised intents, knowledge
and ticket look-ups held the forgotten person's words until evicted or the process ended, and
a journaled store's memory of its last fold kept their removed case and unredacted ticket.
The training vectors of other people's lessons stay (a refit need not embed them again)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from brain.engine import Brain
from core.records import Message
from core.text import kept
from tests.fakes.capability_hook import FakeHook

#: A word no other test writes, in every message of the forgotten person.
WORD = "zorblaxian"
FORGOTTEN = "UFORGETS1"
#: Three people who correct alike messages to `access` (an organisation lesson: a refit).
LESSONS = {
    FORGOTTEN: f"the {WORD} badge reader at the door rejects my card",
    "UKEEPS002": "door badge reader says my card is invalid qwertyplum",
    "UKEEPS003": "my access card is refused by the lobby turnstile plumbusx",
}
#: A request no controller takes, which the fake capability hook answers (it knows rooms).
ROOM = f"book the {WORD} meeting room on floor 5 for Friday 3pm"
ASKED = (
    f"my {WORD} laptop keyboard types double letters",
    f"how do I reset my {WORD} password",
    f"what is {WORD} 滚仓",
    f"search tickets about {WORD}",
    f"ERR-4411 on the {WORD} host",
)


def _held(word: str) -> list[str]:
    return sorted({text for text in kept.held() if word in text.casefold()})


def _in_memory(word: str) -> list[str]:
    """Every string holding `word` in a container the collector tracks (dict keys and values,
    list, tuple and set items) anywhere in this process, this module's own aside."""
    gc.collect()
    ours = {id(ASKED), id(LESSONS), id(vars(sys.modules[__name__]))}
    found = []
    for thing in gc.get_objects():
        if id(thing) in ours:
            continue
        if isinstance(thing, dict):
            items = [*thing.keys(), *thing.values()]
        elif isinstance(thing, list | tuple | set | frozenset):
            items = list(thing)
        else:  # a record with slots (a dataclass's fields have no dict of their own)
            slots = [n for c in type(thing).__mro__ for n in getattr(c, "__slots__", ())]
            items = [getattr(thing, n, None) for n in slots if isinstance(n, str)]
        found += [i for i in items if isinstance(i, str) and word in i.casefold()]
    return sorted(set(found))


def test_forget_empties_the_processes_caches_of_the_persons_words(brain: Brain) -> None:
    for text in ASKED:
        brain.ask(Message(text, user=FORGOTTEN, channel="DFORGET01"))
    for user, text in LESSONS.items():
        decision = brain.ask(Message(text, user=user, channel=f"D{user}"))
        brain.feedback(decision.decision_id, "correct", controller="access", user=user)
    assert brain.parts.org_training.refit_now() is not None  # precondition: a fit on lessons
    assert len(_held(WORD)) >= len(ASKED)  # precondition: the caches hold them

    brain.forget_user(FORGOTTEN)

    assert _held(WORD) == []
    assert _in_memory(WORD) == []
    # Selective where it is dear: the others' lessons' training vectors are kept.
    assert LESSONS["UKEEPS002"] in _held("qwertyplum")


def test_forget_reaches_the_capability_hooks_answers(home: Path) -> None:
    """The dynamic tier's capability hook remembers its answer to each message (by its text)."""
    with FakeHook() as hook:
        (home / "brain.toml").write_text(f'[dynamic]\nhook_url = "{hook.url}"\n')
        opened = Brain.open()
        try:
            opened.ask(Message(ROOM, user=FORGOTTEN, channel="DFORGET02"))
            assert any(ROOM in str(sent) for sent in hook.requests)  # precondition: asked
            hook.requests.clear()  # the fake's own record, not the brain's
            opened.forget_user(FORGOTTEN)
            assert _in_memory(WORD) == []
        finally:
            opened.close()
