"""The words people read and the words recognizers look for are data, not code: no module's
strings (docstrings aside) hold a character outside ASCII.

An emoji, a curly quote or a Chinese word in a string literal is wording a translator or a
reviewer of a language does not see: people-facing text belongs in the message catalogs
(`core/wording/<language>.yaml`), a recognizer's words and other text data in the cue file
beside its module (`<module>.cues.yaml`, `core.cues`). Writing the character as an escape
("\\N{...}", "\\u2026") hides it from this check without moving it, so escapes count too: the
check reads the strings' values, not their source. Docstrings and comments may still quote an
example.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.packages import PACKAGES, ROOT
from tests.source_strings import docstring_ids


def _worded(path: Path) -> list[str]:
    """The strings of `path`'s code (docstrings aside) that hold a character outside ASCII."""
    tree = ast.parse(path.read_text("utf-8"))
    skip = docstring_ids(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and not node.value.isascii()
    ]


def test_no_module_holds_wording_outside_ascii_in_its_code() -> None:
    found = {
        str(path.relative_to(ROOT)): strings
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if (strings := _worded(path))
    }
    assert found == {}


def test_an_escaped_character_is_found(tmp_path: Path) -> None:
    """The check reads values: an ellipsis written by its name is still an ellipsis."""
    module = tmp_path / "module.py"
    module.write_text(
        '"""A docstring \u2026 may quote one."""\n\nMORE = "more\\N{HORIZONTAL ELLIPSIS}"\n'
    )
    assert _worded(module) == ["more\u2026"]
