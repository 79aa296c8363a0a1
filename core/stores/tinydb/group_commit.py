"""Group commit onto a journal: many writers, one append and one fsync for all that wait.

A writer `accept`s its record (a version number) and `commit`s it: the first thread to take the
journal appends everything queued, and every writer whose record went with it returns. The
background checkpoint waits on `wait_for_writes` and is stopped by `close`.
"""

from __future__ import annotations

import json
import threading
import time

from core.stores.tinydb.journal import Journal, Record


class GroupCommit:
    """The queue of records waiting for the journal, and who has been written."""

    def __init__(self, journal: Journal, *, durable: bool = True) -> None:
        self.journal = journal
        self.durable = durable
        self._io = threading.Lock()  # one journal append at a time in this process
        self._cond = threading.Condition()
        self._queue: list[str] = []  # encoded records waiting for the next append
        self._version = 0  # records accepted
        self._written = 0  # records appended (and fsynced when durable)
        self._dirty = False  # appended since the last checkpoint
        self._closed = False

    def accept(self, record: Record) -> int:
        """Queue one record; its version, for `commit`."""
        line = json.dumps(record, ensure_ascii=False, default=str)
        with self._cond:
            if self._closed:
                raise RuntimeError("the decision log is closed")
            self._version += 1
            self._queue.append(line)
            return self._version

    def commit(self, version: int) -> None:
        """Return once record `version` is in the journal, appending (with whatever else is
        queued) unless another thread's append already took it."""
        while True:
            with self._cond:
                if self._written >= version:
                    return
            with self._io:
                with self._cond:
                    if self._written >= version:
                        return
                    lines, self._queue = self._queue, []
                    top = self._version
                try:
                    self.journal.append(lines, sync=self.durable)
                except BaseException:
                    with self._cond:
                        self._queue[:0] = lines  # keep them for the next attempt
                    raise
                with self._cond:
                    self._written = top
                    self._dirty = True
                    self._cond.notify_all()

    def wait_for_writes(self, gather_s: float) -> bool:
        """Block until something was appended since the last `applied`, then `gather_s` more
        for a batch to gather (each append wakes the waiters: a gather that ended there made
        a checkpoint of about every second decision); False once closed."""
        with self._cond:
            while not self._dirty and not self._closed:
                self._cond.wait()
            if self._closed:
                return False
            deadline = time.monotonic() + gather_s
            while not self._closed and (left := deadline - time.monotonic()) > 0:
                self._cond.wait(timeout=left)
            return True

    def pause(self, seconds: float) -> None:
        """Wait `seconds` (a retry's back-off), returning early when closed."""
        with self._cond:
            if not self._closed:
                self._cond.wait(timeout=seconds)

    def applied(self) -> None:
        """A checkpoint is about to fold everything appended so far."""
        with self._cond:
            self._dirty = False

    def close(self) -> None:
        """Refuse new records and wake the checkpoint thread so it ends."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
