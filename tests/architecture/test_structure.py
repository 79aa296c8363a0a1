"""The shape the team keeps (ARCHITECTURE.md): small modules, and no import circles inside any
package, type-only imports included (a circle there is still two modules that need each other).
import-linter keeps the direction between packages; these keep what it cannot see."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

from tests.architecture.packages import PACKAGES

ROOT = Path(__file__).resolve().parents[2]
#: The most lines one module may have.
MAX_LINES = 500
#: Packages whose modules are held to having no import circle among them.
ACYCLIC = PACKAGES


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_no_module_is_over_the_size_limit() -> None:
    over = {
        str(path.relative_to(ROOT)): lines
        for path in _modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert over == {}


def _circles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root) & modules)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    imported = graph.find_modules_directly_imported_by(child) & modules
                    work.append((child, iter(sorted(imported))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.mark.parametrize("package", ACYCLIC)
def test_no_import_circle_inside_a_package(package: str) -> None:
    graph = grimp.build_graph(package, cache_dir=None)
    modules = set(graph.modules)
    assert _circles(graph, modules) == []


def test_the_circle_finder_sees_a_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a package whose two modules import each other is caught."""
    package = tmp_path / "toy_circle"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy_circle import b\n"
    )
    (package / "b.py").write_text("from toy_circle import a\n")
    (package / "c.py").write_text("from toy_circle import b\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("toy_circle", cache_dir=None)
    assert _circles(graph, set(graph.modules)) == [["toy_circle.a", "toy_circle.b"]]
