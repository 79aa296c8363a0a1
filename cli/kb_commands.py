"""Handlers of `brain ingest` and `brain kb ...` (exit codes: see `cli.exit_codes`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cli import exit_codes
from core.config import Settings, load_settings
from core.errors import StorageError
from core.text.shortening import shorten
from core.wording import wording
from knowledge import open_knowledge
from knowledge.ingest import IngestReport, plan
from knowledge.manifest import DocManifest

if TYPE_CHECKING:
    from knowledge.skill import KnowledgeSkill

EXIT_NOT_FOUND = exit_codes.PARTIAL
EXIT_STORE = exit_codes.STORE_UNAVAILABLE


def _with_skill(run: Callable[[KnowledgeSkill], int], settings: Settings | None = None) -> int:
    from knowledge.store import StoreLockedError

    try:
        skill = open_knowledge(settings or load_settings())
    except (StoreLockedError, StorageError) as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return EXIT_STORE
    try:
        return run(skill)
    finally:
        skill.close()


def ingest(args: argparse.Namespace) -> int:
    """`brain ingest PATH...`: ingest, then print a summary (stdout) and skips (stderr).

    When the paths hold nothing to read or remove, the store is not even opened, so the
    answer comes without loading Qdrant or the model.
    """
    paths = [Path(p) for p in args.paths]
    settings = load_settings()
    # A bulk ingest is a batch job of its own: let MiniLM use every core (measured 17 -> 32
    # chunks/s on 2 cores); the bot keeps one thread so a query never waits on spinning threads.
    if settings.training.torch_threads is None:
        settings.training.torch_threads = os.cpu_count() or 1
    try:
        manifest = DocManifest.open(settings)
        work = plan(paths, manifest)
        manifest.close()
    except StorageError as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return EXIT_STORE
    if work.empty:
        _print_report(work.report, as_json=args.json)
        return work.report.exit_code

    def run(skill: KnowledgeSkill) -> int:
        report = skill.ingest(paths, progress=False if args.quiet else None)
        _print_report(report, as_json=args.json)
        return report.exit_code

    return _with_skill(run, settings)


def _print_report(report: IngestReport, *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report.to_dict()))
        return
    for item in report.skipped:
        label = "skipped" if item.error else "ignored"
        print(f"{label}: {item.path}: {item.reason}", file=sys.stderr)
    rate = f", {report.chunks_per_second:.0f} chunks/s" if report.chunks_written else ""
    print(
        f"added {len(report.added)}, updated {len(report.updated)}, "
        f"removed {len(report.removed)}, unchanged {len(report.unchanged)}, "
        f"skipped {len(report.errors)} "
        f"({report.chunks_written} chunks written, {report.chunks_removed} removed, "
        f"{report.seconds:.2f} s{rate})"
    )


def search(args: argparse.Namespace) -> int:
    """`brain kb search QUERY`: hits with source, title, section, domain, score and text."""

    def run(skill: KnowledgeSkill) -> int:
        hits = skill.search(args.query, domain=args.domain, k=args.k)
        if args.json:
            print(json.dumps([dataclasses.asdict(hit) for hit in hits]))
        else:
            if not hits:
                print("no hits", file=sys.stderr)
            for rank, hit in enumerate(hits, 1):
                where = (
                    wording("en").say("common.title_section", title=hit.title, section=hit.section)
                    if hit.section
                    else hit.title
                )
                print(f"{rank}. [{hit.score:.2f}] {where}  ({hit.domain}; {hit.source})")
                print(f"   {_excerpt(hit.text)}")
        return 0 if hits else EXIT_NOT_FOUND

    return _with_skill(run)


def define(args: argparse.Namespace) -> int:
    """`brain kb define TERM`: the glossary entry, or exit 1 when the term is unknown."""

    def run(skill: KnowledgeSkill) -> int:
        found = skill.define(args.term)
        if found is None:
            if args.json:
                print("null")
            print(f"brain: no glossary entry for {args.term!r}", file=sys.stderr)
            return EXIT_NOT_FOUND
        if args.json:
            print(json.dumps(dataclasses.asdict(found)))
        else:
            aliases = f" (also: {', '.join(found.aliases)})" if found.aliases else ""
            print(f"{found.term}{aliases} [{found.domain}]")
            print(found.definition)
        return 0

    return _with_skill(run)


def _excerpt(text: str, limit: int = 160) -> str:
    return shorten(" ".join(text.split()), limit)
