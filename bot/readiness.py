"""Is the bot ready to take events? The answer behind `/readyz` (and the events gate).

Ready means warm: every part a decision needs has been opened and fitted (`Brain.warm`), so
the first message is answered without waiting for a model, and every registered check passes
(by default: the record stores open and answer a read). `/healthz` is only liveness.

Other parts of the bot add their own checks with `Readiness.add_check(name, check)`: a check
returns None when all is well, else a short reason (it must not raise; if it does, its
exception's text is the reason). Checks are blocking calls; the server runs them off the
event loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from core.config import Settings
from core.stores import open_stores

log = logging.getLogger(__name__)

__all__ = ["Check", "Readiness", "ReadinessReport", "stores_openable"]

#: None when the thing checked is fine, else why not.
Check = Callable[[], str | None]

WARMING_UP = "warming up"


@dataclass(frozen=True, slots=True)
class ReadinessReport:
    """One answer of `/readyz`: ready only when warm and every check said "ok"."""

    ready: bool
    checks: dict[str, str]
    warm_s: float | None = None
    parts: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "ready": self.ready,
            "checks": self.checks,
            "warm_s": self.warm_s,
            "parts": self.parts,
        }


class Readiness:
    """The warm-up flag, how long it took, and the named checks (thread-safe)."""

    def __init__(self, parts: Callable[[], dict[str, bool]] | None = None) -> None:
        self._lock = threading.Lock()
        self._checks: dict[str, Check] = {}
        self._parts = parts or dict
        self._started = time.perf_counter()
        self.warm_s: float | None = None

    @property
    def warm(self) -> bool:
        """Has the warm-up finished?"""
        return self.warm_s is not None

    def add_check(self, name: str, check: Check) -> None:
        """Register (or replace) a check that `/readyz` runs once warm."""
        with self._lock:
            self._checks[name] = check

    def warming(self) -> None:
        """The warm-up starts now."""
        self._started = time.perf_counter()

    def warmed(self) -> float:
        """The warm-up is done; returns (and logs) how long it took."""
        self.warm_s = time.perf_counter() - self._started
        log.info("warm-up took %.1f s: ready for events", self.warm_s)
        return self.warm_s

    def report(self) -> ReadinessReport:
        """Run every check (blocking) and say whether the bot is ready."""
        if not self.warm:
            return ReadinessReport(False, {"warm": WARMING_UP}, None, self._parts())
        with self._lock:
            checks = dict(self._checks)
        results = {"warm": "ok"}
        for name, check in checks.items():
            try:
                reason = check()
            except Exception as exc:  # a failing check is a reason, never a 500
                reason = f"{type(exc).__name__}: {exc}"
            results[name] = "ok" if reason is None else reason
        ready = all(value == "ok" for value in results.values())
        return ReadinessReport(ready, results, round(self.warm_s or 0.0, 3), self._parts())


def stores_openable(settings: Settings) -> Check:
    """A check that the home's record stores open and answer a read (a fresh handle each
    time, so a store that went away since start is noticed)."""

    def check() -> str | None:
        stores = open_stores(settings)
        try:
            stores.alerts.pending()
            stores.events.recent(1)
        finally:
            stores.close()
        return None

    return check
