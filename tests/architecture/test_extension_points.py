"""ARCHITECTURE.md, "Where things go": a store backend and a signal from a distribution of
their own (a temp package with entry points, as a deployment adds one) plug in with no edit
anywhere else: the backend is chosen by name and its declared capabilities are used, the
signal's calibration features come from the registry. A surface is a package beside `bot/`
that speaks to `brain.conversation` only."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from brain.replay.sandbox import sandbox
from brain.signals.registry import available_signals, calibration_features, signal_words
from core.config import ConfigError, Settings
from core.stores import open_stores
from core.stores.backends import backend_kinds

TOY = """
from core.stores.backends import BackendBase, BackendKind, Capabilities
from core.stores.local import LocalCoordinator
from core.stores.memory.collection import MemoryCollection
from core.stores.memory.decisions import MemoryDecisionStore


class ToyBackend(BackendBase):
    name = "toy"

    def __init__(self):
        self.made = {}
        self.coordinators = 0

    def collection(self, name, *, key, table="_default", sharded=False):
        return self.made.setdefault(name, MemoryCollection(key))

    def decisions(self):
        return MemoryDecisionStore()

    def coordinator(self):
        self.coordinators += 1
        return LocalCoordinator()


KIND = BackendKind("toy", Capabilities(coordinator=True), lambda settings: ToyBackend())
SHARED = BackendKind("toy_shared", Capabilities(shared=True), lambda settings: ToyBackend())

from typing import ClassVar

import numpy as np

from brain.signals.base import Signal, SignalReading


class ToySignal(Signal):
    name: ClassVar[str] = "toy"
    word: ClassVar[str] = "the toy"
    calibrated: ClassVar[bool] = True
    calibrated_margin: ClassVar[bool] = True

    def score(self, query, sources, partial):
        return SignalReading(np.zeros(len(query.names), dtype=np.float32))
"""


@pytest.fixture
def toy_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "toy_plugin.py").write_text(TOY, encoding="utf-8")
    dist = site / "toy_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: toy-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        "[brain.store_backends]\ntoy = toy_plugin:KIND\ntoy_shared = toy_plugin:SHARED\n"
        "[brain.signals]\ntoy = toy_plugin:ToySignal\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(site))
    caches = (backend_kinds, available_signals, signal_words)
    for cache in caches:
        cache.cache_clear()  # discovered once per process: see it now, forget it after
    yield
    for cache in caches:
        cache.cache_clear()
    sys.modules.pop("toy_plugin", None)


def test_a_store_backend_is_chosen_by_name_and_its_capabilities_are_used(
    tmp_path: Path, toy_distribution: None
) -> None:
    stores = open_stores(Settings(home=tmp_path, storage={"backend": "toy"}))
    assert type(stores.backend).__name__ == "ToyBackend"
    stores.ping()  # the declared coordinator, not the in-process default
    assert stores.backend.coordinators == 1  # type: ignore[attr-defined]
    assert stores.sessions is None and stores.artifacts is None  # not declared: none


@pytest.mark.parametrize(("backend", "replayed_on"), [("toy", "toy"), ("toy_shared", "memory")])
def test_a_backend_whose_stores_replicas_share_is_replayed_in_memory(
    tmp_path: Path, toy_distribution: None, backend: str, replayed_on: str
) -> None:
    """A what-if replay must not write into stores other processes use: a backend that
    declares them shared (as PostgreSQL does) is replayed on memory copies, whatever its
    name; one that does not, on a copy of the home's files."""
    with sandbox(Settings(home=tmp_path, storage={"backend": backend})) as copied:
        assert copied.storage.backend == replayed_on


def test_an_unknown_backend_is_refused_naming_the_registered_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="registered: tinydb, memory, postgres"):
        open_stores(Settings(home=tmp_path, storage={"backend": "nosuch"}))


def test_a_signal_from_a_distribution_brings_its_calibration_features(
    toy_distribution: None,
) -> None:
    features = calibration_features(available_signals())
    assert features[-2:] == ("semantic_margin", "toy_margin") and "toy" in features
    assert features[:6] == ("total", "margin", "semantic", "keyword", "knowledge", "toy")


SURFACE = '''
"""A toy surface: a line of text in, the rendered reply out (what `bot/` does for Slack)."""

from brain.conversation.reply import Reply
from brain.conversation.turns import BrainAPI, Conversation
from brain.conversation.surface import SurfaceWording
from core.records import Message


def render(reply: Reply) -> str:
    lines = [reply.headline or reply.text, *reply.result_lines]
    lines += [f"{number}. {choice.label}" for number, choice in enumerate(reply.choices, 1)]
    if reply.rationale:
        lines.append(f"why: {reply.rationale}")
    return "\\n".join(lines)


class ToySurface:
    def __init__(self, brain: BrainAPI, sessions) -> None:
        words = SurfaceWording(help="say anything")
        self.conversation = Conversation(brain, sessions, wording=words)

    def say(self, line: str, *, user: str = "UTOY", place: str = "toy-room") -> tuple[Reply, str]:
        reply = self.conversation.handle(Message(line, user=user, channel=place))
        return reply, render(reply)
'''


@pytest.fixture
def toy_surface(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A package beside `bot/` (on the path, not in the repository): nothing else is edited."""
    site = tmp_path / "surface-site"
    (site / "toy_surface").mkdir(parents=True)
    (site / "toy_surface" / "__init__.py").write_text(SURFACE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    yield
    sys.modules.pop("toy_surface", None)


def test_a_surface_beside_bot_routes_and_renders_through_the_conversation(
    isolated_env: Path, fitted_home: Path, toy_surface: None
) -> None:
    import grimp

    from brain.engine import Brain
    from core.files import copy_tree

    copy_tree(fitted_home, isolated_env, dirs_exist_ok=True)
    import toy_surface  # type: ignore[import-not-found]

    with Brain.open() as brain:
        surface = toy_surface.ToySurface(brain, brain.conversations)
        reply, shown = surface.say("process ticket 2025060300011279027")
        assert reply.decision is not None and reply.decision.controller == "ticket"
        assert reply.headline and reply.headline in shown
        assert reply.controller_label in shown and reply.rationale in shown
        # the decision it rendered is the brain's record, explainable like any other
        assert brain.get_decision(reply.decision.decision_id).controller == "ticket"
        # its own words, with no edit to the conversation: a command shows the surface's help
        assert surface.say("/help")[0].text == "say anything"

    layers = ("core", "knowledge", "controllers", "brain", "bot", "cli")
    graph = grimp.build_graph("toy_surface", *layers, cache_dir=None)
    uses = {m.split(".")[0] for m in graph.find_modules_directly_imported_by("toy_surface")}
    assert uses == {"core", "brain"}  # beside bot/, not on it: no Slack, no command line
    below = graph.find_modules_that_directly_import("toy_surface")
    assert below == set()  # and nothing in the layers knows it is there
