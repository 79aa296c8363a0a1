"""Everything the listeners share, built once per app."""

from __future__ import annotations

from dataclasses import dataclass

from bot.escalation import Escalations
from bot.state import EventLedger, MessageLinks
from bot.work import Background
from brain.config import Settings
from brain.conversation import BrainAPI, Conversation


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

    @classmethod
    def create(cls, brain: BrainAPI, settings: Settings) -> BotServices:
        """Open the adapter's stores under `settings.home/slack`."""
        folder = settings.path("slack")
        return cls(
            brain=brain,
            settings=settings,
            conversation=Conversation(brain),
            events=EventLedger(folder / "events.json"),
            links=MessageLinks(folder / "messages.json"),
            escalations=Escalations(settings.slack, folder / "alerts.json"),
            work=Background(),
        )

    def close(self) -> None:
        """Release the stores (the brain is closed by whoever opened it)."""
        self.events.close()
        self.links.close()
        self.escalations.close()
