"""Where things are composed (ARCHITECTURE.md, "Where things go"): stores are built only by
`core.stores` and opened only at the composition roots, and the decision chain imports no
surface, whatever the surface's package is called."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

from tests.architecture.packages import PACKAGES

ROOT = Path(__file__).resolve().parents[2]
#: The decision chain: it imports no other first-party top-level package (no surface).
CHAIN = ("core", "knowledge", "controllers", "brain")
STORES = ROOT / "core" / "stores"
#: Where a home's stores are opened (`core.stores.open_stores`), each once per process: the
#: brain (which hands its stores to its parts, controllers and learning), the command line,
#: the tools that read one store without a brain (`TicketStore.open`, `DocManifest.open`),
#: the evaluation's real home, and the Slack adapter (its own ledger; and a fresh handle for
#: `/readyz`).
ROOTS = {
    "brain/engine.py",
    "brain/evaluation/run.py",
    # A period of the real home's log, read for a replay or the desk's figures.
    "brain/decisions/period.py",
    # What-if replay decides in throwaway copies of the home.
    "brain/replay/run.py",
    "brain/replay/sandbox.py",
    "controllers/tickets.py",
    "knowledge/manifest.py",
    "bot/services.py",
    "bot/readiness.py",
}
OPENERS = {"open_stores", "open_backend"}


def _store_classes() -> set[str]:
    """Every class the store package defines (the backends' stores, the generic records)."""
    names: set[str] = set()
    for path in STORES.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and not _is_protocol(node)
        }
    # Records and registrations, not stores; `LocalCoordinator` holds in-process locks only
    # (no state: an adapter built without shared stores may make its own).
    plain = {"Stores", "Capabilities", "BackendKind", "ManifestEntry", "MessageLink"}
    # The records the stores hold (core/stores/records.py, the lesson in lesson.py) are
    # values, built anywhere.
    values = {
        node.name
        for name in ("records.py", "lesson.py")
        for node in ast.walk(ast.parse((STORES / name).read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    }
    return names - plain - values - {"LocalCoordinator"}


def _is_protocol(node: ast.ClassDef) -> bool:
    """An interface (`class X(Protocol)`): never built, so its name may be reused elsewhere."""
    return any(isinstance(base, ast.Name) and base.id == "Protocol" for base in node.bases)


def _calls(path: Path) -> set[str]:
    """Names called in a module (`f(...)` and `x.f(...)`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                called.add(func.id)
            elif isinstance(func, ast.Attribute):
                called.add(func.attr)
    return called


def _outside_stores() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if STORES not in path.parents
    )


def test_store_classes_are_built_only_by_core_stores() -> None:
    classes = _store_classes()
    assert {"TinyDecisionStore", "PgDecisionStore", "MemoryBackend", "TicketCollection"} <= classes
    built = {
        str(path.relative_to(ROOT)): sorted(_calls(path) & classes)
        for path in _outside_stores()
        if _calls(path) & classes
    }
    assert built == {}


def test_stores_are_opened_only_at_the_composition_roots() -> None:
    opened = {
        str(path.relative_to(ROOT))
        for path in _outside_stores()
        if _calls(path) & OPENERS and path.parts[len(ROOT.parts)] != "cli"
    }
    assert opened <= ROOTS, sorted(opened - ROOTS)


def _first_party() -> set[str]:
    """Every top-level package of the repository (a new surface is one more folder)."""
    return {p.parent.name for p in ROOT.glob("*/__init__.py")}


def chain_imports_of_other_packages(root: Path = ROOT) -> dict[str, set[str]]:
    """Chain module -> the first-party top-level packages outside the chain it imports."""
    graph = grimp.build_graph(*CHAIN, include_external_packages=True, cache_dir=None)
    others = _first_party() - set(CHAIN)
    found: dict[str, set[str]] = {}
    for module in graph.modules:
        if module.split(".")[0] not in CHAIN:
            continue
        imported = {m.split(".")[0] for m in graph.find_modules_directly_imported_by(module)}
        if imported & others:
            found[module] = imported & others
    return found


def test_the_decision_chain_imports_no_other_first_party_package() -> None:
    assert {"bot", "cli"} <= _first_party()
    offenders = chain_imports_of_other_packages()
    # `python -m brain` runs the command line: the one documented exception.
    assert offenders == {"brain.__main__": {"cli"}}
