"""Slow work after the acknowledgement: tracked background tasks with logged failures."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """Runs coroutines after Slack has been answered; `drain` waits for all of them."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.failures = 0

    def spawn(self, work: Coroutine[Any, Any, Any], name: str = "bot-work") -> asyncio.Task[Any]:
        """Start `work` now; its exception is logged, never lost silently."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self.failures += 1
            log.error("background work %s failed", task.get_name(), exc_info=error)

    @property
    def pending(self) -> int:
        """Tasks still running."""
        return len(self._tasks)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until no task is running (including tasks started meanwhile)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._tasks:
            remaining = None if deadline is None else max(0.0, deadline - loop.time())
            if remaining == 0.0:
                raise TimeoutError(f"{len(self._tasks)} background tasks still running")
            await asyncio.wait(set(self._tasks), timeout=remaining)

    async def cancel(self) -> None:
        """Stop every task (used at shutdown)."""
        tasks = set(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
