"""The surfaces reach the decision chain through one door: the names `brain` exports.

The Slack app and the console import from `brain` itself, never from its subpackages, so the
chain's inside can be rearranged without a surface noticing; the API is pinned here, so a
change to it is a change to this test."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import brain

ROOT = Path(__file__).resolve().parents[2]
SURFACES = ("bot", "console")

PUBLIC = (
    "Brain",
    "BrainAPI",
    "Choice",
    "Conversation",
    "DecisionFilter",
    "DeskReport",
    "INTENT_VOTE_WEIGHTS",
    "NONE_OF_THESE",
    "Reply",
    "browse",
    "conflict_views",
    "corrected",
    "desk_report",
    "explain_decision",
    "lesson_view",
    "logged_messages",
    "messages_in",
    "parse_overrides",
    "parse_since",
    "resolving",
    "signal_names",
    "what_if_replay",
    "with_overrides",
)


def test_the_public_names_are_pinned_and_each_is_its_modules_own() -> None:
    assert sorted(brain.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        module_name, attribute = brain._EXPORTS[name]
        module = importlib.import_module(module_name)
        expected = module if attribute is None else getattr(module, attribute)
        assert getattr(brain, name) is expected, name


def test_no_public_name_is_shadowed_by_a_subpackage() -> None:
    """Importing `brain.x` sets `brain.x` to the module: a public name `x` would be replaced."""
    children = {info.name for info in pkgutil.iter_modules(brain.__path__)}
    assert not children & set(PUBLIC)


def _brain_imports(path: Path) -> list[str]:
    """The `brain` modules a file imports (top level, functions and TYPE_CHECKING alike)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [name for name in names if name == "brain" or name.startswith("brain.")]
    return found


def test_the_surfaces_import_only_the_public_names() -> None:
    deeper = {
        f"{path.relative_to(ROOT)}: {name}"
        for surface in SURFACES
        for path in (ROOT / surface).rglob("*.py")
        for name in _brain_imports(path)
        if name != "brain"
    }
    assert not deeper, sorted(deeper)


def test_importing_brain_loads_none_of_its_parts() -> None:
    """The names load on first use: `import brain` (which every part of it runs first) must not
    pull in the engine and its models."""
    probe = "import sys, brain; print(sorted(m for m in sys.modules if m.startswith('brain.')))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
