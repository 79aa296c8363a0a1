"""The project's first-party packages, read from the import contracts (`root_packages` of
`[tool.importlinter]` in pyproject.toml), so an architecture test cannot miss a package that
is added later, as two once missed `console`."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES: tuple[str, ...] = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "root_packages"
    ]
)
