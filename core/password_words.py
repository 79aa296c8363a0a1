"""Is a plain word next to "password" the password itself, or words about it?

"my password is sunshine" gives a password away; "my password is expired" and "my password
doesn't work" do not. Nothing in the shape of one lower-case word tells the two apart (no
digit, no symbol, no entropy: dictionary words are what people choose), so what decides is
the word's meaning: people describe a password with a small, closed set of words (states,
function words, the nouns of its handling) and with regular endings ("-ed", "-ing", "-ly",
"-able"). A word outside that set, at the end of its clause ("... is sunshine", "... is
sunshine, please reset it"), is taken as the password. `core.redact` applies this only after
the key words of the password family ("password", "passwd", "passphrase", "pwd", and their
Chinese words), never after "pin", "token" or "key".
"""

from __future__ import annotations

import re

from core.cues import cues

__all__ = [
    "PASSPHRASE",
    "describes_password",
    "passphrase_value",
    "phrase_ends",
    "phrase_goes_on",
]

#: The words and marks of a description, in each language (`password_words.cues.yaml`).
_CUES = cues(__name__)
#: Words that describe a password or its handling, or that start a description of it.
_DESCRIPTIONS = frozenset(_CUES.words("descriptions"))
#: Endings of participles, adverbs and adjectives ("expired", "going", "suddenly",
#: "readable", "visible", "sensitive", "insufficient"); a word must be longer than the ending
#: by three letters ("red", "need" and "bed" are not descriptions), by two before "-ing".
_DESCRIPTIVE_ENDING = re.compile(
    r"(?i)^(?:[a-z]{2,}ing|[a-z]{3,}(?:ed|ly|able|ible|ive|ous|ful|less|ent))$"
)
#: Words after which a clause goes on with something else ("... is sunshine and it fails").
_CLAUSE_WORDS = frozenset(_CUES.words("clause_words"))
#: Words that start no description of their own: after the password's word they end its phrase
#: ("... is sunshine the vpn rejects it"), however much they are words about passwords.
_FUNCTION_WORDS = _CLAUSE_WORDS | frozenset(_CUES.words("function_words"))
#: What may follow the new password's word in "changed my password to sunshine ...", where an
#: infinitive is likelier ("... to log in", "... to access mail"): the end, a mark, a
#: conjunction, a time.
_PHRASE_END = re.compile("(?i)" + _CUES.regex("phrase_end"))
#: Words that end a passphrase's clause; fewer than for one word, since a passphrase is words.
_PASSPHRASE_STOPS = frozenset(_CUES.words("passphrase_stops"))
_NEXT_WORD = re.compile(_CUES.regex("next_word"))
#: Apostrophes, straight or curly: a word with one is a contraction ("isn't").
_APOSTROPHES = _CUES.words("apostrophes")
#: The separators after which a passphrase is stated outright.
_ASSIGNMENT_MARKS = _CUES.text("assignment_marks")

_PASSPHRASE_KEY = r"(?<![A-Za-z])pass[ -]?phrase(?![A-Za-z])"
#: "passphrase is correct horse battery staple", "pass phrase: ...", in either language: the
#: key with its separator (group 1) and the rest of its clause (group 2), which stops before
#: another passphrase key so that each one is matched in its turn.
PASSPHRASE = re.compile(
    rf"(?i)({_PASSPHRASE_KEY}(?:{_CUES.regex('passphrase_separator')}))"
    rf"(\"[^\"]*\"|'[^']*'|(?:(?!{_PASSPHRASE_KEY}){_CUES.regex('passphrase_clause_char')})+)"
)


def describes_password(word: str) -> bool:
    """Is `word` one people use to describe a password (a state, a function word, a noun of
    its handling, a contraction such as "isn't"), rather than a password?"""
    if any(mark in word for mark in _APOSTROPHES):
        return True
    return any(
        part.lower() in _DESCRIPTIONS or _DESCRIPTIVE_ENDING.match(part) is not None
        for part in word.split("-")
        if part
    )


def phrase_goes_on(rest: str) -> bool:
    """Does `rest` (the text right after a word) carry on a description with a word of its
    own ("case sensitive", "company policy"), rather than end the phrase (the end, a mark, a
    function word: "sunshine.", "sunshine and it fails", "sunshine the vpn rejects it")?"""
    following = _NEXT_WORD.match(rest)
    if following is None:
        return False
    word = following.group(1)
    return word.lower() not in _FUNCTION_WORDS and describes_password(word)


def phrase_ends(rest: str) -> bool:
    """Does the phrase end where `rest` starts (the end, a mark, a conjunction, a time)?"""
    return _PHRASE_END.match(rest) is not None


def passphrase_value(separator: str, value: str) -> str | None:
    """The part of `value` (the clause after "passphrase" and `separator`) that is the
    passphrase, or None when the clause describes it ("passphrase is required")."""
    if value and value[0] in "\"'":
        return value
    words = value.split()
    if not words:
        return None
    is_stated = not any(mark in separator for mark in _ASSIGNMENT_MARKS)
    # "passphrase is required for the vault", "... is not accepted", but "correct horse
    # battery staple": a description's first word is followed by the clause's end or by
    # another word of a description.
    if (
        is_stated
        and describes_password(words[0])
        and (len(words) == 1 or describes_password(words[1]) or words[1].lower() in _CLAUSE_WORDS)
    ):
        return None
    for word in re.finditer(r"\S+", value):
        if word.group(0).lower() in _PASSPHRASE_STOPS:
            return value[: word.start()].rstrip() or None
    return value.rstrip()
