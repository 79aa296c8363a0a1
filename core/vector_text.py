"""Vectors inside JSON documents, as base64 text of float16 values.

A MiniLM vector written as a JSON list is 384 numbers: about 3 KB of text that every read
parses and every copy of the document (`copy_document`'s JSON round trip) parses again. As
base64 of float16 it is 1 KB of one string, copied as one value; float16 keeps the cosines the
stores compare to about three decimals, more than their thresholds use. Lessons and the dynamic
tier's cases store their vectors this way; a case written before as a list still reads.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def encode_vector(vector: np.ndarray | Sequence[float] | None) -> str | None:
    """The vector as base64 text of its float16 values (None stays None)."""
    if vector is None:
        return None
    import numpy as np

    return base64.b64encode(np.asarray(vector, dtype=np.float16).tobytes()).decode("ascii")


def decode_vector(stored: str | Sequence[float] | None) -> np.ndarray | None:
    """A stored vector as float32: base64 text (`encode_vector`) or a JSON list of numbers."""
    if stored is None or len(stored) == 0:
        return None
    import numpy as np

    if isinstance(stored, str):
        return np.frombuffer(base64.b64decode(stored), dtype=np.float16).astype(np.float32)
    return np.asarray(stored, dtype=np.float32)
