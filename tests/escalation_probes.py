"""What the escalation tests of hand-written wordings share: the check that a wording is not
near any training row of the escalation model (so the test measures reading, not recall), and
the parameters of a live/quiet table where wordings still missed are strict xfails."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from brain.escalation.model import labelled_rows

#: The bar at which `scripts/build_escalation_set.py` calls a row near a held-out one.
NEAR = 0.5


def _grams(text: str) -> set[str]:
    folded = re.sub(r"\s+", " ", text.lower())
    return {folded[i : i + 3] for i in range(max(1, len(folded) - 2))}


def assert_not_near_training(texts: Iterable[str]) -> None:
    """Each text's character 3-gram Jaccard with every training row is under `NEAR`."""
    rows = [_grams(str(r["text"])) for r in labelled_rows("train")]
    for text in texts:
        mine = _grams(text)
        nearest = max(len(mine & g) / len(mine | g) for g in rows)
        assert nearest < NEAR, text


def live_and_quiet(
    live: Mapping[str, str],
    quiet: Mapping[str, str],
    missed: Mapping[str, str],
    prefix: str = "",
) -> list[Any]:
    """(text, pages) parameters: each live wording must page (a strict xfail, with its
    reason, while it is in `missed`), each quiet one must not."""
    return [
        pytest.param(
            text,
            True,
            id=f"{prefix}live_{name}",
            marks=[pytest.mark.xfail(strict=True, reason=missed[name])] if name in missed else [],
        )
        for name, text in live.items()
    ] + [pytest.param(text, False, id=f"{prefix}quiet_{name}") for name, text in quiet.items()]
