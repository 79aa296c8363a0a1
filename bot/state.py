"""What the Slack adapter must remember across restarts, in the home's record stores.

- the event ledger: ids of Slack events (and message keys) already taken, so one message
  gets one reply even across a retry storm or a restart. An in-memory LRU answers the hot path;
  the store is written off the event loop and pruned to the most recent entries.
- message links: Slack message (channel, ts) -> decision id, for the user's message and
  for every bot reply, so reactions, button clicks and `/brain-why <permalink>` find their decision.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter, OrderedDict

from core.stores.protocols import EventClaims, EventLedgerStore, LinkLookup, MessageLinkStore
from core.stores.records import MessageLink

__all__ = ["MAX_EVENTS", "EventLedger", "MessageLink", "MessageLinks"]

#: How many taken event ids are remembered (memory and disk).
MAX_EVENTS = 20_000


class EventLedger:
    """Remembers which Slack events were taken; `claim` is atomic on the event loop.

    On a store shared by several replicas (`EventClaims`, PostgreSQL) a claim is also the
    store's atomic claim, made before the event is acknowledged: a retry delivered to another
    replica finds the key taken. The local LRU then only spares the store a round trip for
    keys this process already saw.
    """

    def __init__(self, store: EventLedgerStore, limit: int = MAX_EVENTS) -> None:
        self.store = store
        self.limit = limit
        self._shared = store if isinstance(store, EventClaims) else None
        #: Claims refused because the key was taken before (Slack's retries, a message seen
        #: as both app_mention and message, a second click), by kind ("event"...), for metrics.
        self.duplicates: Counter[str] = Counter()
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._unsaved: list[tuple[str, float]] = []
        self._unsaved_guard = threading.Lock()
        self._flushing = threading.Lock()
        for key, at in store.recent(limit):
            self._seen[key] = at

    def seen(self, key: str) -> bool:
        """True when this key was claimed before."""
        return key in self._seen

    def claim(self, *keys: str) -> bool:
        """Claim keys in memory; False (nothing claimed) when any of them was taken before.

        On a shared store this blocks on the database: from the event loop use `take`."""
        if not self._reserve(keys):
            return False
        return self._shared is None or self._settle(keys, self._shared.claim(keys, time.time()))

    async def take(self, *keys: str) -> bool:
        """`claim` for the event loop: a shared store's claim runs in a thread, so other
        requests are acknowledged meanwhile (this one waits for its claim)."""
        if not self._reserve(keys):
            return False
        if self._shared is None:
            return True
        taken = await asyncio.to_thread(self._shared.claim, keys, time.time())
        return self._settle(keys, taken)

    def _reserve(self, keys: tuple[str, ...]) -> bool:
        """Take the keys in this process (at once, on the event loop), or count a duplicate."""
        if any(key in self._seen for key in keys):
            self.duplicates[_kind(keys)] += 1
            return False
        now = time.time()
        for key in keys:
            self._seen[key] = now
        if self._shared is None:
            with self._unsaved_guard:
                self._unsaved.extend((key, now) for key in keys)
        while len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return True

    def _settle(self, keys: tuple[str, ...], taken: bool) -> bool:
        """After the shared claim: another replica had the keys -> a duplicate (the keys stay
        taken here too)."""
        if not taken:
            self.duplicates[_kind(keys)] += 1
        return taken

    def flush(self) -> None:
        """Write every key claimed so far to disk (blocking: call from a worker thread)."""
        with self._flushing:
            with self._unsaved_guard:
                rows, self._unsaved = self._unsaved, []
            if rows:
                self.store.record(rows, keep=self.limit)

    def close(self) -> None:
        """Write what is pending."""
        self.flush()


def _kind(keys: tuple[str, ...]) -> str:
    return keys[0].split(":", 1)[0] if keys else ""


class MessageLinks:
    """Slack message -> decision mapping: all in memory, written behind in batches.

    `add` is instant; `flush` (blocking: call from a worker thread) writes every link added
    so far in one store write, so a burst of replies costs one file rewrite, not one each.
    """

    def __init__(self, store: MessageLinkStore) -> None:
        self.store = store
        self._flushing = threading.Lock()
        self._links: dict[tuple[str, str], MessageLink] = {}
        #: (channel, thread root) -> the latest link in that thread.
        self._threads: dict[tuple[str, str], MessageLink] = {}
        self._unsaved: list[MessageLink] = []
        self._guard = threading.Lock()
        for link in store.all():
            self._remember(link)

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
        with self._flushing:
            with self._guard:
                rows, self._unsaved = self._unsaved, []
            if rows:
                self.store.add_many(rows)

    def get(self, channel: str, ts: str) -> MessageLink | None:
        """The decision a Slack message belongs to, if the bot knows it."""
        with self._guard:
            found = self._links.get((channel, ts))
        return found if found is not None else self._shared_lookup(channel, ts, thread=False)

    def find_ts(self, channel: str, ts: str) -> MessageLink | None:
        """Like `get`, but also accepts the ts of a thread the bot answered in."""
        with self._guard:
            found = self._links.get((channel, ts)) or self._threads.get((channel, ts))
        return found if found is not None else self._shared_lookup(channel, ts, thread=True)

    def _shared_lookup(self, channel: str, ts: str, *, thread: bool) -> MessageLink | None:
        """On a store shared by replicas, a message another replica posted (one query)."""
        if not isinstance(self.store, LinkLookup):
            return None
        found = self.store.lookup(channel, ts, thread=thread)
        if found is not None:
            with self._guard:  # as a message only: the thread's latest may change elsewhere
                self._links.setdefault((found.channel, found.ts), found)
        return found

    def close(self) -> None:
        """Write what is pending."""
        self.flush()
