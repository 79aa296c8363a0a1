"""Registration of `brain ingest` and `brain kb ...` (imports nothing heavy).

Exit codes (`cli.exit_codes`): 0 success; 1 something was skipped for an error (ingest) or
nothing was found (search, define); 2 configuration or usage error; 3 the store is unavailable
(held by another process, unreadable manifest).
"""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add the knowledge-base sub-commands to the `brain` parser."""
    ingest = subparsers.add_parser(
        "ingest",
        help="ingest Markdown, text and YAML files or folders into the knowledge base",
        description=(
            "Ingest files and folders (.md, .markdown, .txt, .yaml, .yml). Unchanged files are "
            "skipped, changed ones replaced, files gone from an ingested folder removed. "
            "Exit code 1 when a path was skipped for an error, 3 when the store is in use."
        ),
    )
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--json", action="store_true", help="print the summary as JSON")
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    ingest.set_defaults(handler="cli.kb_commands:ingest")

    kb = subparsers.add_parser("kb", help="search the knowledge base or look up a term")
    kb_commands = kb.add_subparsers(dest="kb_command", metavar="KB_COMMAND", required=True)

    search = kb_commands.add_parser("search", help="hybrid search of the knowledge base")
    search.add_argument("query", metavar="QUERY")
    search.add_argument("--json", action="store_true", help="print hits as JSON")
    search.add_argument("--domain", help="only hits of this domain (a controller name)")
    search.add_argument("-k", type=_positive, default=5, help="number of hits (default 5)")
    search.set_defaults(handler="cli.kb_commands:search")

    define = kb_commands.add_parser("define", help="look a term up in the glossary")
    define.add_argument("term", metavar="TERM")
    define.add_argument("--json", action="store_true", help="print the definition as JSON")
    define.set_defaults(handler="cli.kb_commands:define")


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number
