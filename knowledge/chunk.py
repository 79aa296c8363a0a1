"""A chunk of a document as stored, and its deterministic id (no heavy imports)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

#: Namespace of the deterministic point ids (uuid5 over source and chunk position).
POINT_NAMESPACE = uuid.UUID("6f1c0f8e-2b0e-5b6a-9d61-6b2f3c1e7a10")


def point_id(source: str, index: int, section: str = "") -> str:
    """Deterministic id of chunk `index` (in `section`) of `source`."""
    return str(uuid.uuid5(POINT_NAMESPACE, f"{source}\x00{index}\x00{section}"))


@dataclass(slots=True)
class Chunk:
    """One piece of a document ready to store; `text` is what gets embedded and searched."""

    chunk_id: str
    text: str
    payload: dict[str, Any]
