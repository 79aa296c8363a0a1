"""The words and patterns a recognizer looks for, as data beside it: `<module>.cues.yaml` next
to `<module>.py` (`controllers/builtin/change.cues.yaml` for `controllers.builtin.change`).

A recognizer's cues used to be Python literals, English and Chinese in one regular expression
in the middle of the code; reviewing a language's words, or adding a language, meant reading
and editing code. Here the module keeps what the cues are for (the flags, how a match is used)
and reads their text from its file with `cues(__name__)`, once, when it is imported; building
the patterns stays the module's own (`core.lazy.LazyPattern` where compiling can wait).

A cue file is a mapping from names to entries. An entry is:

- a string: a regular expression's source (or a word) as written;
- a list of strings: alternatives, joined with "|" when read as one source;
- a mapping by language (`en:`, `zh:`, each a string or a list): the same entry in each
  language, joined with "|" in the file's order when read as one source. The codes are those
  of the message catalogs (`core.wording.languages()`).

`Cues.table` reads a mapping of text to text as it is (a Chinese word and the name it stands
for), `Cues.numbers` one of text to whole numbers (numerals).
A missing file, a missing name or an entry of the wrong shape is a `CueError` that names the
file and the name.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from core.errors import BrainError
from core.safe_yaml import load_shipped_yaml
from core.wording import languages

__all__ = ["SUFFIX", "CueError", "Cues", "cues"]

#: A cue file is named after its module: `<module>` + SUFFIX, in the module's package.
SUFFIX = ".cues.yaml"


class CueError(BrainError, KeyError):
    """A cue file or an entry in it is missing or malformed; the text names the file and key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True, slots=True)
class Cues:
    """One module's cue file: its entries by name, and where it was read from."""

    file: str
    entries: Mapping[str, object]

    def text(self, name: str) -> str:
        """Entry `name` as written: one string (a word, a set of marks)."""
        entry = self._entry(name)
        if not isinstance(entry, str):
            raise CueError(f"{self.file}: {name!r} is not text")
        return entry

    def regex(self, name: str) -> str:
        """Entry `name` as one regular expression's source: a string as written; a list, or
        the languages of a per-language entry, as alternatives joined with "|"."""
        entry = self._entry(name)
        if isinstance(entry, Mapping):
            return "|".join(
                self._source(f"{name}.{language}", part)
                for language, part in self._by_language(name, entry)
            )
        return self._source(name, entry)

    def words(self, name: str) -> tuple[str, ...]:
        """Entry `name` as a list of words (or sources): a list as written, or the lists of a
        per-language entry one after the other in the file's order."""
        entry = self._entry(name)
        if isinstance(entry, Mapping):
            return tuple(
                word
                for language, part in self._by_language(name, entry)
                for word in self._list(f"{name}.{language}", part)
            )
        return self._list(name, entry)

    def table(self, name: str) -> dict[str, str]:
        """Entry `name` as a mapping of text to text, in the file's order."""
        entry = self._entry(name)
        if not isinstance(entry, Mapping) or not all(
            isinstance(key, str) and isinstance(value, str) for key, value in entry.items()
        ):
            raise CueError(f"{self.file}: {name!r} is not a table of text to text")
        return dict(entry)

    def numbers(self, name: str) -> dict[str, int]:
        """Entry `name` as a mapping of text to whole numbers (numerals and their values)."""
        entry = self._entry(name)
        if not isinstance(entry, Mapping) or not all(
            isinstance(key, str) and type(value) is int for key, value in entry.items()
        ):
            raise CueError(f"{self.file}: {name!r} is not a table of text to numbers")
        return dict(entry)

    def _entry(self, name: str) -> object:
        entry = self.entries.get(name)
        if entry is None:
            raise CueError(f"{self.file} has no entry {name!r}")
        return entry

    def _by_language(self, name: str, entry: Mapping[object, object]) -> list[tuple[str, object]]:
        known = languages()
        unknown = [str(code) for code in entry if code not in known]
        if unknown:
            raise CueError(
                f"{self.file}: {name!r} is by language, but {', '.join(unknown)} is no language "
                f"with a catalog ({', '.join(known)})"
            )
        return [(str(code), part) for code, part in entry.items()]

    def _source(self, name: str, entry: object) -> str:
        if isinstance(entry, str):
            return entry
        return "|".join(self._list(name, entry))

    def _list(self, name: str, entry: object) -> tuple[str, ...]:
        if not isinstance(entry, list) or not all(isinstance(word, str) for word in entry):
            raise CueError(f"{self.file}: {name!r} is not a list of text")
        return tuple(entry)


def cues(module: str) -> Cues:
    """The cue file of `module` (pass `__name__`), read once a process. A module run with
    `python -m` is named "__main__": its cue file is found by the name it was run as
    (`core.text.onnx_export` runs so in the install's build environment)."""
    return _cues(_run_as(module))


def _run_as(module: str) -> str:
    """The module's importable name: "__main__" is the module `python -m` ran."""
    if module != "__main__":
        return module
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return spec.name if spec is not None and spec.name else module


@cache
def _cues(module: str) -> Cues:
    package, _, stem = module.rpartition(".")
    shown = f"{module.replace('.', '/')}{SUFFIX}"
    try:
        source = resources.files(package).joinpath(f"{stem}{SUFFIX}")
    except (ModuleNotFoundError, ValueError):  # no such package, or none ("__main__")
        source = None
    if source is None or not source.is_file():
        raise CueError(f"no cue file {shown} for the module {module!r}")
    data = load_shipped_yaml(source.read_text(encoding="utf-8"))
    if not isinstance(data, Mapping) or not all(isinstance(key, str) for key in data):
        raise CueError(f"{shown} is not a mapping of names to entries")
    return Cues(file=shown, entries=dict(data))
