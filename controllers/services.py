"""Build the services every controller shares for one brain home."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controllers.base import ControllerServices
from controllers.tickets import TicketStore

if TYPE_CHECKING:
    from core.config import Settings
    from core.llm import LLMClient
    from knowledge.skill import KnowledgeSkill


def build_services(
    settings: Settings,
    knowledge: KnowledgeSkill | None = None,
    llm: LLMClient | None = None,
    *,
    tickets: TicketStore | None = None,
) -> ControllerServices:
    """The knowledge skill and LLM as given (either may be None) plus the home's ticket store
    (a brain hands in the one on its own stores; tools and tests let it open)."""
    return ControllerServices(
        knowledge=knowledge,
        tickets=tickets if tickets is not None else TicketStore.open(settings),
        llm=llm,
        webhooks=settings.webhooks,
    )
