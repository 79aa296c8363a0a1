"""Tiny synthetic labelled data for `brain eval` (train / val / test JSON lines, some oos)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

TOPICS: dict[str, tuple[list[str], list[str]]] = {
    "weather_forecast": (
        ["will it rain", "what is the forecast", "how hot will it be", "is snow expected"],
        ["tomorrow", "this weekend", "in berlin", "tonight", "on friday"],
    ),
    "music_play": (
        ["play some", "put on", "start the playlist of", "i want to hear"],
        ["jazz", "the beatles", "relaxing piano", "rock music", "my favourite songs"],
    ),
    "bank_balance": (
        ["what is the balance of", "how much money is in", "show me the funds in", "check"],
        ["my checking account", "my savings", "the joint account", "my bank account"],
    ),
}
OUT_OF_SCOPE = [
    "how do i fix a flat bicycle tyre",
    "recommend a good novel about space",
    "what is the capital of peru",
    "how many legs does a spider have",
    "translate good morning into korean",
    "who painted the mona lisa",
    "how long should i boil an egg",
    "what time does the zoo open",
    "how do i knit a scarf",
    "is a tomato a fruit",
    "what is the tallest mountain in africa",
    "how do you train a puppy to sit",
]


def _rows(seed: int, per_label: int, oos: list[str]) -> list[dict[str, str | None]]:
    rng = random.Random(seed)
    rows: list[dict[str, str | None]] = []
    for label, (heads, tails) in TOPICS.items():
        pairs = [f"{h} {t}" for h in heads for t in tails]
        rng.shuffle(pairs)
        rows += [{"text": text, "intent": label} for text in pairs[:per_label]]
    rows += [{"text": text, "intent": "oos"} for text in oos]
    rng.shuffle(rows)
    return rows


@pytest.fixture(scope="session")
def eval_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """train (10 per label + 4 oos), val and test (6 per label + 4 oos each)."""
    folder = tmp_path_factory.mktemp("eval-data")
    splits = {
        "train": _rows(1, 10, OUT_OF_SCOPE[:4]),
        "val": _rows(2, 6, OUT_OF_SCOPE[4:8]),
        "test": _rows(3, 6, OUT_OF_SCOPE[8:]),
    }
    paths = {}
    for name, rows in splits.items():
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        paths[name] = path
    return paths
