"""A simulated working day of corrections: does what the requesters teach reach the day's later
tickets?

A desk's history (`--history` rows of the IT tickets' train split, seeded shuffle) is imported
as `brain controllers import` does it (its categories become or fold into controllers, every row
trains the routing model) into a fresh home. Then `--stream` unseen tickets (the val split,
seeded shuffle; never the test split) arrive from `--requesters` people; each ticket is decided
as its requester's message, and each wrong first touch (asked back counts as wrong) is
corrected by its requester to the ticket's category, as a person would in Slack; with
`--confirm`, each right one is confirmed by its requester (a 👍).

Who sends what (`--who`): `random` (every ticket from anyone: the tickets are independent) or
`habit` (a requester sends one kind of ticket: the stream's k-means clusters by embedding, one
per requester), the case where a requester's own corrections can count for their next ticket.

Printed per `--window` tickets, side by side on the same stream:

- **learning**: the brain above, corrections recorded (its own examples count for the author at
  once; agreed groups for everyone; the organisation refit folded in every `--refit-every`
  tickets, as a long-running bot does in the background);
- **no learning**: the same imported home and stream, no corrections;
- **offline refit**: a logistic regression on MiniLM embeddings of the history plus every
  streamed ticket before the window with its true label, beside the same on the history alone
  (what the day's labels could teach any model at that point).

and, after the day, what the memory made of the corrections: decisions a preference moved (the
author's own / an agreed group's), agreed groups, organisation rows, refits.
Figures are reported, never asserted.

Run: `nice -n 10 .venv/bin/python benchmarks/correction_day.py [--who habit] [--home DIR]`
(`--home` keeps the imported home for a later run: the import is most of the time).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from brain.learning.labelled import LabelledRow
from core.files import copy_tree
from core.records import Message

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "it_tickets"
SOURCE_NAME = "desk_history.jsonl"


def _rows(split: str) -> list[tuple[str, str]]:
    path = DATA / f"{split}.jsonl"
    if not path.is_file():
        path = Path("/work/shared/data/it_tickets") / f"{split}.jsonl"
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("text") and row.get("intent"):
            found.append((str(row["text"]), str(row["intent"])))
    return found


def _settings(home: Path) -> Any:
    from core.config import load_settings

    os.environ["BRAIN_HOME"] = str(home)
    return load_settings()


def _import(home: Path, history: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Import the history into `home` (once: kept when already there); category -> controller."""
    from brain.evaluation.importing import import_rows
    from controllers.registry import ControllerRegistry

    routes = home / "day-routes.json"
    if routes.is_file():
        return dict(json.loads(routes.read_text(encoding="utf-8")))
    home.mkdir(parents=True, exist_ok=True)
    source = home / SOURCE_NAME
    source.write_text(
        "".join(json.dumps({"text": t, "intent": c}) + "\n" for t, c in history), "utf-8"
    )
    settings = _settings(home)
    existing = ControllerRegistry.load(settings).names()
    rows = [LabelledRow(t, c) for t, c in history]
    report = import_rows(settings, source, rows, {}, existing=existing)
    route = dict(report.mapped)
    for path in report.files:
        if path.endswith(".yml"):
            for spec in yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []:
                route[str(spec.get("label") or spec["name"])] = str(spec["name"])
    missing = sorted({c for _, c in history} - set(route))
    assert not missing, f"categories without a controller: {missing}"
    routes.write_text(json.dumps(route), encoding="utf-8")
    print(f"imported {len(rows)} rows; held-out accuracy {report.accuracy}", flush=True)
    return route


def _requesters(vectors: np.ndarray, count: int, who: str, seed: int) -> list[str]:
    if who == "random":
        rng = random.Random(seed)
        return [f"R{rng.randrange(count):02d}" for _ in range(len(vectors))]
    from sklearn.cluster import KMeans

    labels = KMeans(n_clusters=count, n_init=4, random_state=seed).fit_predict(vectors)
    return [f"R{int(label):02d}" for label in labels]


def _day(
    home: Path,
    stream: Sequence[tuple[str, str]],
    requesters: Sequence[str],
    route: dict[str, str],
    *,
    learn: bool,
    refit_every: int,
    confirm: bool = False,
) -> tuple[list[bool], dict[str, Any]]:
    """Decide the stream in a brain on `home`; correct wrong first touches when `learn` (and
    confirm right ones, when `confirm`)."""
    from brain.engine import Brain

    right: list[bool] = []
    moved: Counter[str] = Counter()
    moved_right: Counter[str] = Counter()
    corrections = confirmations = 0
    with Brain.open(_settings(home)) as brain:
        for index, ((text, category), user) in enumerate(zip(stream, requesters, strict=True)):
            decision = brain.decide(Message(text, user=user, channel=f"D-{user}"))
            wanted = route[category]
            right.append(decision.controller == wanted)
            scope = _preference_scope(decision)
            if scope:
                moved[scope] += 1
                moved_right[scope] += int(decision.controller == wanted)
            if learn and decision.controller != wanted:
                brain.feedback(decision.decision_id, "correct", controller=wanted, user=user)
                corrections += 1
            elif learn and confirm:
                brain.feedback(decision.decision_id, "confirm", user=user)
                confirmations += 1
            if learn and (index + 1) % refit_every == 0:
                brain.parts.org_training.refit_now()
        agreement = brain.settings.memory.agreement_users
        facts = {
            "corrections": corrections,
            "confirmations": confirmations,
            "moved by a preference": dict(moved),
            "of them right": dict(moved_right),
            "agreed groups": len(brain.agreed_examples.agreed(agreement)) if learn else 0,
            "organisation rows": len(brain.parts.org_training.rows()) if learn else 0,
            "refits": brain.parts.org_training.refits,
        }
    return right, facts


def _preference_scope(decision: Any) -> str:
    """ "user" / "org" when a remembered correction chose the controller, else ""."""
    text = str(decision.preference or "")
    if not text:
        return ""
    return "org" if "people moved" in text or "organisation" in text else "user"


def _offline(
    embed: Any, history: Sequence[tuple[str, str]], stream: Sequence[tuple[str, str]], window: int
) -> tuple[list[float], list[float]]:
    """Per window: a refit on history + the stream so far, and the fit on history alone."""
    from sklearn.linear_model import LogisticRegression

    x = np.vstack(
        [embed([t for t, _ in history[i : i + 256]]) for i in range(0, len(history), 256)]
    )
    s = embed([t for t, _ in stream])
    y = [c for _, c in history]
    truth = np.array([c for _, c in stream])
    base = LogisticRegression(max_iter=3000).fit(x, y)
    refit, static = [], []
    for start in range(0, len(stream), window):
        part = slice(start, start + window)
        model = (
            LogisticRegression(max_iter=3000).fit(
                np.vstack([x, s[:start]]), y + list(truth[:start])
            )
            if start
            else base
        )
        refit.append(float(np.mean(model.predict(s[part]) == truth[part])))
        static.append(float(np.mean(base.predict(s[part]) == truth[part])))
    return refit, static


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    history = _rows("train")
    rng.shuffle(history)
    history = history[: args.history]
    stream = _rows("val")
    rng.shuffle(stream)
    stream = stream[: args.stream]
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        base = Path(args.home) if args.home else Path(tmp) / "imported"
        route = _import(base, history)
        from core.text.embedder import open_embedder

        embedder = open_embedder("onnx")
        requesters = _requesters(
            embedder.embed([t for t, _ in stream]), args.requesters, args.who, args.seed
        )
        arms: dict[str, tuple[list[bool], dict[str, Any]]] = {}
        for name, learn in (("no learning", False), ("learning", True)):
            home = Path(tmp) / name.replace(" ", "-")
            copy_tree(base, home)
            arms[name] = _day(
                home,
                stream,
                requesters,
                route,
                learn=learn,
                refit_every=args.refit_every,
                confirm=args.confirm,
            )
            print(f"{name}: {arms[name][1]}", flush=True)
        refit, static = (
            _offline(embedder.embed, history, stream, args.window) if args.offline else ([], [])
        )
    report: dict[str, Any] = {"who": args.who, "windows": []}
    for number, start in enumerate(range(0, len(stream), args.window)):
        part = slice(start, start + args.window)
        row = {
            "tickets": min(start + args.window, len(stream)),
            "learning": float(np.mean(arms["learning"][0][part])),
            "no learning": float(np.mean(arms["no learning"][0][part])),
        }
        if refit:
            row["offline refit"], row["offline, history only"] = refit[number], static[number]
        report["windows"].append(row)
        print(
            "  ".join(
                f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()
            )
        )
    report["learning"] = arms["learning"][1]
    report["no learning"] = arms["no learning"][1]
    print(json.dumps(report, indent=1))
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=8000, help="imported history rows")
    parser.add_argument("--stream", type=int, default=400, help="unseen tickets in the day")
    parser.add_argument("--requesters", type=int, default=40)
    parser.add_argument("--who", choices=("random", "habit"), default="random")
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--refit-every", type=int, default=25, help="tickets between refits")
    parser.add_argument("--no-offline", dest="offline", action="store_false")
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="each right first touch is confirmed by its requester (a 👍), in the learning arm",
    )
    parser.add_argument("--home", default="", help="keep (or reuse) the imported home here")
    parser.add_argument("--seed", type=int, default=7)
    run(parser.parse_args())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
