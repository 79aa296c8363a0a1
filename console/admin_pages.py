"""Learning and evolution (Approve / Retire), knowledge search, what-if replay, figures."""

from __future__ import annotations

import asyncio
import secrets
import tempfile
from pathlib import Path
from typing import Any

from aiohttp import web

from brain import (
    conflict_views,
    lesson_view,
    parse_overrides,
    parse_since,
    what_if_replay,
    with_overrides,
)
from console.figures import figures, recent, tiers
from console.render import render
from console.security import admin
from console.state import ConsoleState
from core.errors import ConfigError, UnknownController
from core.limits import MAX_KB_FILE_BYTES
from core.stores.records import ManifestEntry
from knowledge.ingest import content_digest

#: Largest controller file a replay form accepts.
MAX_CONTROLLER_BYTES = 64_000
#: Replay results kept (the oldest is dropped).
MAX_JOBS = 20


class AdminPages:
    """The admin pages of one console."""

    def __init__(self, state: ConsoleState) -> None:
        self.state = state
        #: Replays started here: job id -> (the form, its task). A replay decides every
        #: message twice, so it runs beside the page, which refreshes until it is done.
        self._jobs: dict[str, tuple[dict[str, str], asyncio.Task[dict[str, Any]]]] = {}

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.home),
            web.get("/learning", self.learning),
            web.post("/learning/approve", self.approve),
            web.post("/learning/retire", self.retire),
            web.get("/knowledge", self.knowledge),
            web.get("/replay", self.replay_page),
            web.post("/replay", self.replay_run),
            web.get("/replay/{job}", self.replay_job),
        ]

    async def home(self, request: web.Request) -> web.Response:
        decisions = await asyncio.to_thread(lambda: recent(self.state.pages()))
        return render(
            request,
            "home.html",
            charts=figures(decisions),
            count=len(decisions),
            tiers=tiers(decisions),
        )

    async def learning(self, request: web.Request, message: str = "") -> web.Response:
        data = await asyncio.to_thread(self._learning)
        return render(request, "learning.html", message=message, **data)

    def _learning(self) -> dict[str, Any]:
        brain = self.state.brain
        lessons = [lesson_view(entry) for entry in brain.memory.entries()]
        by_scope: dict[str, list[dict[str, Any]]] = {}
        for lesson in lessons:
            by_scope.setdefault(str(lesson["kind"]), []).append(lesson)
        specs = [spec.model_dump() for spec in brain.evolution.listed()]
        return {
            "lessons": by_scope,
            "conflicts": conflict_views(brain),
            "report": brain.evolution.report(),
            "specs": specs,
        }

    async def approve(self, request: web.Request) -> web.Response:
        form = await request.post()
        name, who = str(form.get("name", "")), admin(request).who
        try:
            await asyncio.to_thread(self.state.brain.evolution.approve, name, who)
        except UnknownController:
            raise web.HTTPNotFound(text="no such evolved controller") from None
        return await self.learning(request, f"Approved {name}: it routes now.")

    async def retire(self, request: web.Request) -> web.Response:
        form = await request.post()
        name = str(form.get("name", ""))
        try:
            await asyncio.to_thread(self.state.brain.evolution.retire, name)
        except UnknownController:
            raise web.HTTPNotFound(text="no such evolved controller") from None
        return await self.learning(request, f"Retired {name}.")

    async def knowledge(self, request: web.Request) -> web.Response:
        query = request.query.get("q", "").strip()[:500]
        hits = await asyncio.to_thread(self.state.search, query, 10) if query else []
        manifest = await asyncio.to_thread(self._manifest)
        return render(request, "knowledge.html", query=query, hits=hits, manifest=manifest)

    def _manifest(self) -> list[dict[str, Any]]:
        entries = self.state.manifest()
        rows = [{**entry.to_dict(), "status": reingest_status(entry)} for entry in entries]
        return sorted(rows, key=lambda row: row["ingested_at"], reverse=True)

    async def replay_page(self, request: web.Request) -> web.Response:
        return render(
            request, "replay.html", form={"since": "7d", "set": ""}, report=None, error=""
        )

    async def replay_run(self, request: web.Request) -> web.Response:
        form = await request.post()
        since_text = str(form.get("since", "7d")).strip() or "7d"
        pairs = [p.strip() for p in str(form.get("set", "")).splitlines() if p.strip()]
        controller = str(form.get("controller", ""))[:MAX_CONTROLLER_BYTES]
        values = {"since": since_text, "set": "\n".join(pairs), "controller": controller}
        try:
            since, overrides = parse_since(since_text), parse_overrides(pairs)
            with_overrides(self.state.settings, overrides)  # refused here, not in the job
        except (ValueError, ConfigError) as exc:
            return render(
                request, "replay.html", form=values, report=None, error=str(exc), status=400
            )
        job = secrets.token_hex(8)
        task = asyncio.ensure_future(asyncio.to_thread(self._replay, since, overrides, controller))
        while len(self._jobs) >= MAX_JOBS:
            self._jobs.pop(next(iter(self._jobs)))
        self._jobs[job] = (values, task)
        raise web.HTTPSeeOther(f"/console/replay/{job}")

    async def replay_job(self, request: web.Request) -> web.Response:
        found = self._jobs.get(request.match_info["job"])
        if found is None:
            raise web.HTTPNotFound(text="no such replay")
        values, task = found
        if not task.done():
            return render(request, "replay.html", form=values, report=None, error="", running=True)
        try:
            report = task.result()
        except (ValueError, ConfigError) as exc:
            return render(request, "replay.html", form=values, report=None, error=str(exc))
        return render(request, "replay.html", form=values, report=report, error="")

    def _replay(self, since: Any, overrides: dict[str, str], controller: str) -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="brain-console-") as folder:
            files = []
            if controller.strip():
                path = Path(folder) / "console_controller.yaml"
                path.write_text(controller, encoding="utf-8")
                files.append(path)
            return what_if_replay(
                self.state.settings, since=since, overrides=overrides, controllers=files
            ).to_dict()


def reingest_status(entry: ManifestEntry) -> str:
    """Whether the file is as it was ingested: "current", "changed" (re-ingest to update the
    knowledge base) or "missing" (a re-ingest of its folder removes its chunks)."""
    path = Path(entry.source)
    try:
        if path.stat().st_size > MAX_KB_FILE_BYTES:  # grown past what an ingest reads
            return "changed"
        data = path.read_bytes()
    except OSError:
        return "missing"
    return "current" if content_digest(data) == entry.digest else "changed"
