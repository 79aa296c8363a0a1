"""Everything the listeners share, built once per app."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from slack_bolt.request.internals import extract_team_id

from bot.escalation import Escalations
from bot.metrics import BotMetrics, MeteredBrain
from bot.oauth import multi_workspace
from bot.state import EventLedger, MessageLinks
from bot.tracing import Tracing, from_env
from bot.work import Background
from brain import BrainAPI, Conversation
from core.compute import ComputeSlots
from core.config import Settings
from core.stores import Stores, open_stores
from core.stores.local import LocalCoordinator
from core.stores.protocols import Coordinator

P = ParamSpec("P")
T = TypeVar("T")

#: Brain calls computing at once. Decisions are mostly CPU-bound Python (GIL), so more
#: add no throughput but starve the event loop, which would slow acknowledgements.
BRAIN_WORKERS = 2
#: Brain calls that may wait on an LLM reply at once beside them: a call waiting on the
#: network lends its compute slot (`core.compute`), so a slow LLM call never delays the
#: fast-path messages queued behind it (only this many stalled calls at once could).
LLM_WAITERS = 16


@dataclass(slots=True)
class BotServices:
    """The brain, the shared conversation logic and the adapter's own state."""

    brain: BrainAPI
    settings: Settings
    conversation: Conversation
    events: EventLedger
    links: MessageLinks
    escalations: Escalations
    work: Background
    #: Locks and leases shared with the other replicas on the same stores.
    coordinator: Coordinator = field(default_factory=LocalCoordinator)
    #: What `/metrics` reports (bot/metrics.py).
    metrics: BotMetrics = field(default_factory=BotMetrics)
    #: Spans of requests and decisions, when an exporter is configured (bot/tracing.py).
    tracing: Tracing = field(default_factory=Tracing)
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(
            BRAIN_WORKERS + LLM_WAITERS, thread_name_prefix="bot-brain"
        )
    )
    compute: ComputeSlots = field(default_factory=lambda: ComputeSlots(BRAIN_WORKERS))
    #: The home's record stores the adapter opened (None when built from parts, in tests).
    stores: Stores | None = None
    #: Tickets queued for their owning team inside the trip that filed them, by ticket id,
    #: until the reply is posted (bot/teams.py: the notice takes no trip of its own).
    queued: dict[str, object] = field(default_factory=dict)

    async def in_brain(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a blocking brain/conversation call off the event loop, in a compute slot
        (lent out while the call waits on an LLM)."""

        def in_slot() -> T:
            with self.compute.held():
                return function(*args, **kwargs)

        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()  # the log fields bound for this event
        return await loop.run_in_executor(self.executor, functools.partial(context.run, in_slot))

    async def trip(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """One trip into the brain for one Slack message, click or reaction.

        The events claimed so far are written to disk first, in the same worker call, so the
        answer is never sent before the claim that stops a retry from answering twice is
        durable; the returned `Reply` holds all that drawing it needs.
        """

        def flushed_then_called() -> T:
            self.events.flush()
            return function(*args, **kwargs)

        return await self.in_brain(flushed_then_called)

    async def thread_trip(
        self, thread: str, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """A `trip` holding the lock of one conversation thread: the messages of a thread
        are decided one at a time, across every replica sharing the stores."""

        def in_order() -> T:
            with self.coordinator.serialized(f"thread:{thread}"):
                return function(*args, **kwargs)

        return await self.trip(in_order)

    def workspace_of(self, body: Mapping[str, Any]) -> str | None:
        """The installing Slack workspace (team id) of a request's whole body (an event's
        envelope, a click's, a modal's or a shortcut's payload, a command's form) when the bot
        serves many workspaces (OAuth installs); None with one workspace, so that its records
        carry no team field.

        Read as Bolt reads it to pick the installation whose token answers (a modal's
        `app_installed_team_id`, an event's `authorizations[0].team_id` before its
        `team_id`): an event's own `team` is the sender's workspace in a Slack Connect
        channel, so records keyed by it would land in a workspace that never installed the
        bot."""
        if not multi_workspace(self.settings):
            return None
        team = extract_team_id(dict(body))
        return str(team) if team else None

    @classmethod
    def create(cls, brain: BrainAPI, settings: Settings) -> BotServices:
        """Open the adapter's stores (Slack ledger, message links, alerts) of the home."""
        stores = open_stores(settings)
        metrics = BotMetrics()
        brain = MeteredBrain(brain, metrics)
        return cls(
            brain=brain,
            settings=settings,
            conversation=Conversation(brain, stores.conversations),
            events=EventLedger(stores.events, owed=stores.owed_events),
            links=MessageLinks(stores.links),
            escalations=Escalations(settings.slack, stores.alerts, stores.coordinator),
            work=Background(),
            coordinator=stores.coordinator,
            metrics=metrics,
            tracing=from_env(),
            stores=stores,
        )

    def close(self) -> None:
        """Release the stores (the brain is closed by whoever opened it)."""
        self.executor.shutdown(wait=True)
        self.events.close()
        self.links.close()
        self.escalations.close()
        self.tracing.shutdown()
