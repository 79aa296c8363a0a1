"""Signals are a registry: a sixth signal is one class plus one weight in the configuration.

The plugin below is installed the way a deployment adds one (an entry point of the
`brain.signals` group); nothing in the decision chain names it.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from brain.engine import Brain
from brain.signals.registry import available_signals, signal_words
from core.config import ConfigError
from core.records import Message

CHANNEL_SIGNAL = '''
from typing import ClassVar

import numpy as np

from brain.signals.base import Signal, SignalReading


class ChannelSignal(Signal):
    """A controller whose name is part of the channel's name is where the channel points."""

    name: ClassVar[str] = "channel"
    word: ClassVar[str] = "the channel"
    telling_order: ClassVar[int] = 60

    def score(self, query, sources, partial):
        channel = query.message.channel
        values = [1.0 if name in channel else 0.0 for name in query.names]
        return SignalReading(np.array(values, dtype=np.float32), "ok", channel)

    def reasons(self, reading, index, controller):
        if reading.values[index] > 0:
            return [f"the channel #{reading.evidence} is about {controller}"]
        return []
'''


@pytest.fixture
def channel_signal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The sixth signal, installed as a distribution with a `brain.signals` entry point."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "channel_signal.py").write_text(CHANNEL_SIGNAL, encoding="utf-8")
    dist = site / "channel_signal-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: channel-signal\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        "[brain.signals]\nchannel = channel_signal:ChannelSignal\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(site))
    available_signals.cache_clear()  # discovered once per process: see it now, forget it after
    signal_words.cache_clear()
    yield
    available_signals.cache_clear()
    signal_words.cache_clear()
    sys.modules.pop("channel_signal", None)


def _configure(home: Path, text: str) -> None:
    (home / "brain.toml").write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_sixth_signal_shows_in_the_decision_its_rationale_and_why(
    home: Path, channel_signal: None
) -> None:
    _configure(home, "[routing]\nweight_keyword = 0.25\n[routing.weights]\nchannel = 0.05\n")
    with Brain.open() as brain:
        decision = brain.decide(
            Message("VPN error 691 since this morning", user="u1", channel="incident-desk")
        )
        stored = brain.get_decision(decision.decision_id)
        explained = brain.explain(decision.decision_id).text()

    assert decision.controller == "incident"
    assert decision.signals["incident"]["channel"] == 1.0
    assert decision.signals["ticket"]["channel"] == 0.0
    assert list(decision.signals["incident"])[:6] == [
        "keyword",
        "semantic",
        "knowledge",
        "session",
        "memory",
        "channel",
    ]
    assert "the channel #incident-desk is about incident" in decision.rationale
    assert stored.signals["incident"]["channel"] == 1.0  # logged and read back
    header = next(line for line in explained.splitlines() if line.strip().startswith("controll"))
    assert header.split()[1:] == [
        "keyword",
        "semantic",
        "knowledge",
        "session",
        "memory",
        "channel",
        "total",
        "conf",
    ]


def test_the_sixth_signal_weighs_in_the_total(home: Path, channel_signal: None) -> None:
    text = "VPN error 691 since this morning"
    _configure(home, "[routing]\nweight_keyword = 0.25\n[routing.weights]\nchannel = 0.05\n")
    with Brain.open() as brain:  # two conversations: the first is not the second's session
        weighted = brain.decide(Message(text, user="u1", channel="incident-desk"))
    _configure(home, "[routing.weights]\nchannel = 0.0\n")
    with Brain.open() as brain:
        unweighted = brain.decide(Message(text, user="u2", channel="incident-desk"))

    assert weighted.signals["incident"]["session"] == unweighted.signals["incident"]["session"]
    weighted_row, unweighted_row = weighted.signals["incident"], unweighted.signals["incident"]

    assert weighted_row["channel"] == unweighted_row["channel"] == 1.0
    expected = unweighted_row["total"] - 0.05 * unweighted_row["keyword"] + 0.05 * 1.0
    assert weighted_row["total"] == pytest.approx(expected, abs=2e-4)


def test_a_weight_for_a_signal_nobody_registered_is_a_clear_error(home: Path) -> None:
    _configure(home, "[routing]\nweight_keyword = 0.25\n[routing.weights]\nchannel = 0.05\n")
    with Brain.open() as brain, pytest.raises(ConfigError, match=r"unknown signal.*channel"):
        brain.decide(Message("VPN error 691"))
