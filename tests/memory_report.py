"""Where a test process's memory goes: every run ends with each test process's peak resident
size and the tests during which a process grew most.

A worker above 2 GB keeps the suite from sharing a 24 GiB machine with a benchmark, and the
peak alone does not say which test made it; the growth of the peak while a test ran does (the
first test to load a model pays for it, later ones only for what they add). Under xdist each
worker measures itself and hands its figures to the controller, which prints them.
"""

from __future__ import annotations

import json
import resource
from typing import Any

import pytest

#: How many of the largest growths the summary names.
NAMED = 10
#: Growths under this many MB are not worth a line.
NOTABLE_MB = 50.0


def _peak_mb() -> float:
    """This process's peak resident size in MB (Linux reports kilobytes). Child processes are
    left out: a forked child's peak starts at its parent's size at the fork, so theirs would
    say nothing of their own."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class MemoryReport:
    """Collects the peak growth per test in this process, and every worker's figures."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._growth: list[tuple[float, str]] = []
        self._processes: dict[str, dict[str, Any]] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Any:
        before = _peak_mb()
        yield
        grown = _peak_mb() - before
        if grown >= NOTABLE_MB:
            self._growth.append((grown, item.nodeid))

    def _mine(self) -> dict[str, Any]:
        return {"peak_mb": _peak_mb(), "growth": sorted(self._growth, reverse=True)[:NAMED]}

    def pytest_sessionfinish(self) -> None:
        workeroutput = getattr(self._config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: the controller prints
            workeroutput["memory_report"] = json.dumps(self._mine())
        elif not self._processes:  # a run without workers
            self._processes["main"] = self._mine()

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        report = getattr(node, "workeroutput", {}).get("memory_report")
        if report:
            self._processes[str(node.gateway.id)] = json.loads(report)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self._processes:
            return
        terminalreporter.section("memory per test process")
        growth: list[tuple[float, str]] = []
        for name, figures in sorted(self._processes.items()):
            terminalreporter.write_line(f"{name}: peak {figures['peak_mb']:.0f} MB")
            growth += [(float(mb), str(test)) for mb, test in figures["growth"]]
        for mb, test in sorted(growth, reverse=True)[:NAMED]:
            terminalreporter.write_line(f"  +{mb:.0f} MB during {test}")


__all__ = ["MemoryReport"]
