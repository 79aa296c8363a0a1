"""docs/cli.md and docs/configuration.md are generated from the parser and the settings: a new
option, command, setting or environment variable fails here until the pages are made again
(`python -m cli.reference --write`), so the reference cannot drift from the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.reference import pages
from core.config import ENV_OVERRIDES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", sorted(str(p) for p in pages()))
def test_the_generated_reference_is_up_to_date(page: str) -> None:
    written = (ROOT / page).read_text(encoding="utf-8")
    assert written == pages()[Path(page)], f"{page} is out of date: python -m cli.reference --write"


def test_every_environment_variable_and_command_is_in_the_reference() -> None:
    generated = "\n".join(pages().values())
    missing = [name for name in ENV_OVERRIDES if f"`{name}`" not in generated]
    assert missing == []
    for command in ("brain ask", "brain memory forget", "brain run", "brain tickets show"):
        assert f"## `{command}`" in generated
