"""Try a message, the decisions list and a decision's page."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from aiohttp import web

from brain import DecisionFilter, browse
from console.render import render
from console.security import admin
from console.state import ConsoleState
from console.view import decision_view
from core.access import many_workspaces, same_workspace
from core.errors import UnknownDecision
from core.records import Message

#: Decisions a list page shows.
PAGE_SIZE = 50
#: Longest message try-a-message accepts (the chain caps stored text anyway).
MAX_TRY_CHARS = 4000
#: The channel try-a-message decides in: its own thread each time, so no real session changes.
TRY_CHANNEL = "console"


class DecisionPages:
    """The decision-facing pages of one console."""

    def __init__(self, state: ConsoleState) -> None:
        self.state = state

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/try", self.try_page),
            web.post("/try", self.try_message),
            web.get("/decisions", self.list_page),
            web.get("/decisions/{decision_id}", self.decision_page),
        ]

    async def try_page(self, request: web.Request) -> web.Response:
        return render(request, "try.html", form={}, view=None)

    async def try_message(self, request: web.Request) -> web.Response:
        form = await request.post()
        text = str(form.get("text", "")).strip()[:MAX_TRY_CHARS]
        user = str(form.get("user", "")).strip() or "console"
        history = tuple(
            line.strip() for line in str(form.get("history", "")).splitlines() if line.strip()
        )
        values = {"text": text, "user": user, "history": "\n".join(history)}
        if not text:
            return render(request, "try.html", form=values, view=None, status=400)
        message = Message(
            text,
            user=user,
            channel=TRY_CHANNEL,
            thread=f"try-{secrets.token_hex(4)}",
            history=history,
        )
        view = await asyncio.to_thread(self._decide, message)
        return render(request, "try.html", form=values, view=view)

    def _decide(self, message: Message) -> dict[str, Any]:
        """Decide (logged, like any decision; controllers are not run) and explain it; the
        retrieval hits come from the record, else from the knowledge base's search."""
        decision = self.state.brain.decide(message)
        searched = [] if decision.retrieval else self.state.search(decision.text)
        return decision_view(decision, searched=searched)

    async def list_page(self, request: web.Request) -> web.Response:
        query = request.query
        criteria = DecisionFilter(
            since=query.get("since") or None,
            until=query.get("until") or None,
            controller=query.get("controller") or None,
            outcome=query.get("outcome") or None,
            tier=query.get("tier") or None,
            escalated=_flag(query.get("escalated")),
            corrected=_flag(query.get("corrected")),
            user=query.get("user") or None,
            channel=query.get("channel") or None,
            team=self._team_of(request) or query.get("team") or None,
        )
        before = query.get("before") or None
        page = await asyncio.to_thread(
            lambda: browse(self.state.pages(), criteria, before=before, limit=PAGE_SIZE)
        )
        kept = {k: v for k, v in query.items() if k != "before" and v}
        return render(request, "decisions.html", page=page, filters=kept)

    async def decision_page(self, request: web.Request) -> web.Response:
        decision_id = request.match_info["decision_id"]
        try:
            view = await asyncio.to_thread(self._view, decision_id, self._team_of(request))
        except UnknownDecision:
            raise web.HTTPNotFound(text="no such decision") from None
        return render(request, "decision.html", view=view)

    def _team_of(self, request: web.Request) -> str | None:
        """The workspace a Slack-signed-in admin may read when the bot serves many (their
        own, whatever the form asks); None: every workspace (one workspace, a token admin)."""
        if not many_workspaces(self.state.settings):
            return None
        return admin(request).team

    def _view(self, decision_id: str, team: str | None = None) -> dict[str, Any]:
        decision = self.state.decision(decision_id)
        if not same_workspace(decision.team, team):
            raise UnknownDecision(decision_id)  # another workspace's: not found, like none
        searched = [] if decision.retrieval else self.state.search(decision.text)
        return decision_view(
            decision, searched=searched, lessons=self.state.lessons_of(decision_id)
        )


def _flag(value: str | None) -> bool | None:
    return {"yes": True, "no": False}.get(value or "")
