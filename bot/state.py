"""What the Slack adapter must remember across restarts, in the home's record stores.

- the event ledger: ids of Slack events (and message keys) already taken, so one message
  gets one reply even across a retry storm or a restart, and the claims still owed an answer,
  so a message acknowledged by a process that died is answered by another (or the next run).
  An in-memory LRU answers the hot path; the store is written off the event loop and pruned
  to the most recent entries.
- message links: Slack message (channel, ts) -> decision id, for the user's message and
  for every bot reply, so reactions, button clicks and `/brain-why <permalink>` find their decision.
"""

from __future__ import annotations

import asyncio
import functools
import os
import socket
import threading
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from core.stores.protocols import (
    EventClaims,
    EventLedgerStore,
    LinkLookup,
    MessageLinkStore,
    OwedEvents,
    OwnedClaims,
)
from core.stores.records import MessageLink

__all__ = ["MAX_EVENTS", "EventLedger", "MessageLink", "MessageLinks"]

#: How many taken event ids are remembered (memory and disk).
MAX_EVENTS = 20_000
#: Claims made at once against a shared store (each holds a pooled connection briefly).
CLAIM_THREADS = 4


class EventLedger:
    """Remembers which Slack events were taken; `claim` is atomic, on the event loop or in a
    brain worker (a click is claimed in its trip, once its right is checked).

    On a store shared by several replicas (`EventClaims`, PostgreSQL) a claim is also the
    store's atomic claim, made before the event is acknowledged: a retry delivered to another
    replica finds the key taken. The local LRU then only spares the store a round trip for
    keys this process already saw.

    A claim `owed` an answer (a user's message) is the owner's (`owner`, this process) until
    `settle` records the answer just before it is sent (and `confirm` once Slack took it; a
    taker of a claim settled and never confirmed asks Slack whether the reply is there
    before answering: `bot.recovery`). If the process dies first, the claim
    is taken over: on a store with `OwnedClaims` by a Slack retry reaching another replica or
    by a live replica's sweep (`orphans`); on the embedded default by the next start of this
    home, from the `owed` collection (written before the acknowledgement, emptied by
    `settle`).
    """

    def __init__(
        self,
        store: EventLedgerStore,
        limit: int = MAX_EVENTS,
        *,
        owner: str | None = None,
        owed: OwedEvents | None = None,
    ) -> None:
        self.store = store
        self.limit = limit
        self.owner = owner or replica_id()
        self._shared = store if isinstance(store, EventClaims) else None
        self._owned = store if isinstance(store, OwnedClaims) else None
        self._owed = owed if self._owned is None else None
        #: Claims refused because the key was taken before (Slack's retries, a message seen
        #: as both app_mention and message, a second click), by kind ("event"...), for metrics.
        self.duplicates: Counter[str] = Counter()
        #: Events this process took over from a dead owner (or a crashed run) and answered.
        self.recovered = 0
        #: Answers not sent because another process had taken the claim over meanwhile.
        self.lost_claims = 0
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._unsettled: set[str] = set()
        #: Settled keys whose answer is being sent (`confirm` ends them).
        self._sending: set[str] = set()
        #: Embedded: the bodies of owed events (rewritten with the "sending" mark).
        self._payloads: dict[str, Mapping[str, Any]] = {}
        #: Threads of their own for the claims an acknowledgement waits on, so an ack never
        #: queues behind replies' writes in the loop's default executor.
        self._claiming = ThreadPoolExecutor(CLAIM_THREADS, thread_name_prefix="bot-claims")
        self._unsaved: list[tuple[str, float]] = []
        self._unsaved_guard = threading.Lock()
        self._reserving = threading.Lock()
        self._flushing = threading.Lock()
        for key, at in store.recent(limit):
            self._seen[key] = at
        #: Owed events a crashed earlier run of this home left unanswered (embedded).
        self._left_over = [] if self._owed is None else self._owed.all()

    def seen(self, key: str) -> bool:
        """True when this key was claimed before."""
        return key in self._seen

    def claim(self, *keys: str) -> bool:
        """Claim keys in memory; False (nothing claimed) when any of them was taken before.

        On a shared store this blocks on the database: from the event loop use `take`."""
        if not self._reserve(keys):
            return False
        return self._shared is None or self._settle(keys, self._shared.claim(keys, time.time()))

    async def take(
        self,
        *keys: str,
        owed: bool = False,
        payload: Mapping[str, Any] | None = None,
        again: bool = False,
    ) -> bool:
        """`claim` for the event loop: a shared store's claim runs in a thread, so other
        requests are acknowledged meanwhile (this one waits for its claim).

        `owed`: an answer is owed (settle it with `settle`), `payload` the event to give it
        from again after a crash. `again`: the event is being answered again after its owner
        died (the keys may be this process's memory of the dead run's claims)."""
        if not again and not self._reserve(keys):
            return False
        if again:
            for key in keys:
                self._seen[key] = time.time()
        if owed:
            self._unsettled.update(keys)
        loop = asyncio.get_running_loop()
        if self._owned is not None:
            owner = self.owner if owed else None
            claim = functools.partial(
                self._owned.claim, keys, time.time(), owner=owner, payload=payload
            )
            taken = await loop.run_in_executor(self._claiming, claim)
            return self._settle(keys, taken)
        if self._shared is not None:
            claim = functools.partial(self._shared.claim, keys, time.time())
            return self._settle(keys, await loop.run_in_executor(self._claiming, claim))
        if owed and payload is not None and self._owed is not None:
            self._payloads.update((key, payload) for key in keys)
            rows = [{"key": key, "payload": dict(payload)} for key in keys]
            # Durable before the ack, written in a claim thread: an fsync is ~0.4 ms on an idle
            # disk but can take a second on a busy one (or wait for a compaction of the
            # journal holding its lock), and on the loop it stalled every other request's ack.
            write = functools.partial(self._owed.put_many, rows)
            await loop.run_in_executor(self._claiming, write)
        return True

    async def settle(self, *keys: str) -> bool:
        """Record that the owed answer of `keys` is being sent now (compare-and-set; then
        `confirm` once Slack took it). False when another process took a claim over: do not
        answer."""
        mine = [key for key in keys if key in self._unsettled]
        if not mine:
            return True
        self._unsettled.difference_update(mine)
        if self._owned is not None:
            settled = await asyncio.to_thread(self._owned.settle, mine, self.owner)
            if not settled:
                self.lost_claims += 1
                return False
        elif self._owed is not None:
            rows = [
                {"key": key, "payload": self._payloads[key], "sending": True}
                for key in mine
                if key in self._payloads
            ]
            await asyncio.to_thread(self._owed.put_many, rows)
        self._sending.update(mine)
        return True

    async def confirm(self, *keys: str) -> None:
        """The answer `settle` announced reached Slack: nothing is owed any more."""
        mine = [key for key in keys if key in self._sending]
        if not mine:
            return
        self._sending.difference_update(mine)
        for key in mine:
            self._payloads.pop(key, None)
        if self._owned is not None:
            await asyncio.to_thread(self._owned.confirm, mine, self.owner)
        elif self._owed is not None:
            await asyncio.to_thread(self._owed.remove, mine)

    async def release(self, *keys: str) -> None:
        """Nothing is owed after all (the event is not the bot's to answer)."""
        if await self.settle(*keys):
            await self.confirm(*keys)

    def heartbeat(self, ttl_s: float) -> None:
        """This process is alive for `ttl_s` more seconds (blocking: call from a thread)."""
        if self._owned is not None:
            self._owned.heartbeat(self.owner, ttl_s)

    def orphans(self) -> list[tuple[dict[str, Any], bool]]:
        """Owed events whose owner died unanswered, now this process's (blocking): the dead
        replicas' on a shared store, the crashed earlier run's on the embedded default. Each
        with whether its answer may have been sent already (ask Slack before answering)."""
        if self._owned is not None:
            taken = self._owned.orphans(self.owner)
        else:
            taken = [
                (str(row["key"]), dict(row["payload"]), bool(row.get("sending")))
                for row in self._left_over
            ]
            self._left_over = []
        for key, payload, _ in taken:
            self._seen[key] = time.time()
            self._unsettled.add(key)
            if self._owned is None:
                self._payloads[key] = payload
        self.recovered += len(taken)
        return [(payload, sent) for _, payload, sent in taken]

    def _reserve(self, keys: tuple[str, ...]) -> bool:
        """Take the keys in this process (at once, whichever thread asks), or count a
        duplicate."""
        with self._reserving:
            return self._reserve_held(keys)

    def _reserve_held(self, keys: tuple[str, ...]) -> bool:
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
            self._unsettled.difference_update(keys)
        return taken

    def flush(self) -> None:
        """Write every key claimed so far to disk (blocking: call from a worker thread)."""
        with self._flushing:
            with self._unsaved_guard:
                rows, self._unsaved = self._unsaved, []
            if rows:
                self.store.record(rows, keep=self.limit)

    def close(self) -> None:
        """Write what is pending; a shared store forgets this process's heartbeat."""
        self.flush()
        self._claiming.shutdown(wait=True)
        if self._owned is not None:
            self._owned.retire(self.owner)


def replica_id() -> str:
    """A name for this process among the replicas (host, pid and a random part: a restarted
    process is a new owner, so its dead predecessor's claims are taken over)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


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

    def asked_by(self, user: str) -> list[MessageLink]:
        """The messages `user` asked (role "question") that this process knows, newest first
        (App Home's "recent decisions")."""
        with self._guard:
            mine = [k for k in self._links.values() if k.role == "question" and k.asker == user]
        return sorted(mine, key=lambda link: float(link.ts or 0), reverse=True)

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
