"""What the Slack adapter must remember across restarts, in TinyDB under the brain home.

- `slack/events.json`: ids of Slack events (and message keys) already taken, so one message
  gets one reply even across a retry storm or a restart. An in-memory LRU answers the hot path;
  the file is written off the event loop and pruned to the most recent entries.
- `slack/messages.json`: Slack message (channel, ts) -> decision id, for the user's message and
  for every bot reply, so reactions, button clicks and `/brain-why <permalink>` find their decision.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.storage import file_lock, open_db

#: How many taken event ids are remembered (memory and disk).
MAX_EVENTS = 20_000


@dataclass(slots=True)
class MessageLink:
    """A Slack message tied to a decision."""

    channel: str
    ts: str
    decision_id: str
    #: The user who asked (the author of the message the decision is about).
    asker: str
    #: Root of the thread the conversation happens in.
    thread_ts: str
    #: "question" (the user's message), "reply" (the bot's answer), "clarify", "reroute".
    role: str


class EventLedger:
    """Remembers which Slack events were taken; `claim` is atomic on the event loop."""

    def __init__(self, path: Path, limit: int = MAX_EVENTS) -> None:
        self.path = path
        self.limit = limit
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._unsaved: list[dict[str, Any]] = []
        self._unsaved_guard = threading.Lock()
        self._db = open_db(path)
        self._lock = file_lock(path)
        with self._lock:
            rows = sorted(self._db.all(), key=lambda row: row.get("at", 0.0))
        for row in rows[-limit:]:
            self._seen[str(row["key"])] = float(row.get("at", 0.0))

    def seen(self, key: str) -> bool:
        """True when this key was claimed before."""
        return key in self._seen

    def claim(self, *keys: str) -> bool:
        """Claim keys in memory; False (nothing claimed) when any of them was taken before."""
        if any(key in self._seen for key in keys):
            return False
        now = time.time()
        for key in keys:
            self._seen[key] = now
        with self._unsaved_guard:
            self._unsaved.extend({"key": key, "at": now} for key in keys)
        while len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return True

    def flush(self) -> None:
        """Write every key claimed so far to disk (blocking: call from a worker thread)."""
        with self._lock:
            with self._unsaved_guard:
                rows, self._unsaved = self._unsaved, []
            if not rows:
                return
            self._db.insert_multiple(rows)
            if len(self._db) > self.limit * 1.2:
                rows = sorted(self._db.all(), key=lambda row: row.get("at", 0.0))
                self._db.truncate()
                self._db.insert_multiple(dict(row) for row in rows[-self.limit :])

    def close(self) -> None:
        """Release the file."""
        self._db.close()


class MessageLinks:
    """Slack message -> decision mapping: all in memory, written behind in batches.

    `add` is instant; `flush` (blocking: call from a worker thread) writes every link added
    so far in one TinyDB write, so a burst of replies costs one file rewrite, not one each.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = open_db(path)
        self._lock = file_lock(path)
        self._links: dict[tuple[str, str], MessageLink] = {}
        #: (channel, thread root) -> the latest link in that thread.
        self._threads: dict[tuple[str, str], MessageLink] = {}
        self._unsaved: list[MessageLink] = []
        self._guard = threading.Lock()
        with self._lock:
            rows = self._db.all()
        for row in rows:
            self._remember(_link(row))

    def _remember(self, link: MessageLink) -> None:
        self._links[(link.channel, link.ts)] = link
        self._threads[(link.channel, link.thread_ts)] = link

    def add(self, link: MessageLink) -> None:
        """Remember one message's decision (persisted by the next `flush`)."""
        with self._guard:
            self._remember(link)
            self._unsaved.append(link)

    def flush(self) -> None:
        """Write every link added so far to disk."""
        with self._lock:
            with self._guard:
                rows, self._unsaved = self._unsaved, []
            if rows:
                self._db.insert_multiple(asdict(link) for link in rows)

    def get(self, channel: str, ts: str) -> MessageLink | None:
        """The decision a Slack message belongs to, if the bot knows it."""
        with self._guard:
            return self._links.get((channel, ts))

    def find_ts(self, channel: str, ts: str) -> MessageLink | None:
        """Like `get`, but also accepts the ts of a thread the bot answered in."""
        with self._guard:
            return self._links.get((channel, ts)) or self._threads.get((channel, ts))

    def close(self) -> None:
        """Write what is pending and release the file."""
        self.flush()
        self._db.close()


def _link(row: Any) -> MessageLink:
    return MessageLink(**{k: str(row[k]) for k in MessageLink.__dataclass_fields__})
