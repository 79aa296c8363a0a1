"""Write `brain/data/continuation.jsonl`: messages in a thread, labelled by what they do to the
thread's open record, for the continuation model (`brain.continuation.model`).

Each row is one message sent in a thread that already holds a record (a ticket or request):

    {"split", "lang", "kind", "record", "question", "message", "same_user", "minutes",
     "label", "family", "domain", "template"}

`record` is the text the record was filed from, `kind` its kind, `question` the fields the bot
asked for and is still waiting for ("" when it asked nothing), `same_user` whether the record's
requester wrote the message, `minutes` the time since the record last changed, `domain` which
of the author's domains the thread is about and `template` the phrase pattern the message was
made from (the model's calibration folds keep a pattern together: it is calibrated on
phrasings it was not fitted on). `label` is what
the message does:

- `answer`: it answers the bot's question ("it's the Tableau one", "要 Jenkins 的");
- `status`: it asks how the record stands ("any update?", "有人在处理吗");
- `update`: it continues the record otherwise (more detail, "still broken", a retry report, a
  reason or approval, "same here");
- `resolved`: it says the problem is gone ("works now", "自己好了"): an update that also
  ends the record's work, so the thread resolves it;
- `closing`: it ends the exchange and adds nothing ("thanks, bye", "好的，谢谢");
- `new`: it starts something else (another problem, another request, an unrelated question).

Two authors, two splits. `train` threads come from `_train_threads` (its domains, values and
phrasings); `holdout` threads from `_holdout_threads`, written separately with other domains
(other systems, devices and services), other values and other phrasings of every family, and
never used to fit or tune anything: the model and its thresholds see `train` only, and the
benchmark (`benchmarks/continuation.py`) reports both.

Rows are data, not rules: the families are sampled from phrase pools and combined with the
domains' own details, greetings, sign-offs, lower case and the odd typo, so the model must
learn from the message and its relation to the record, not from a fixed cue.

    python scripts/make_continuation_set.py [--threads 420] [--holdout-threads 160] [--fit]

`--fit` then fits the model on the train rows, with the MiniLM embedder and without, and ships
both weights beside the data (`brain/data/continuation-<key>.npz`, the stale ones removed).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "brain" / "data" / "continuation.jsonl"


@dataclass(frozen=True)
class Domain:
    """One kind of thing people file, with what they say about it."""

    kind: str
    #: Ways to open the record ({v}: the value, when the record names it).
    openings: Sequence[str]
    #: Details a user adds later.
    details: Sequence[str]
    #: Symptoms for "still ..." and retry reports.
    symptoms: Sequence[str]
    #: Things a user tries before reporting back.
    tries: Sequence[str]
    #: A field the bot may ask for, the opening that leaves it out, and values for it.
    question: str = ""
    vague_openings: Sequence[str] = ()
    values: Sequence[str] = ()
    reasons: Sequence[str] = ()


@dataclass
class Author:
    """One author's phrase pools for every family, in one language."""

    lang: str
    domains: Sequence[Domain]
    answers: Sequence[str]  # {v}
    still: Sequence[str]  # {s}: a symptom
    retry: Sequence[str]  # {t}: a try, {s}: a symptom
    status: Sequence[str]
    closing: Sequence[str]
    resolved: Sequence[str]
    reasons: Sequence[str]
    urgency: Sequence[str]
    same_here: Sequence[str]
    connectors: Sequence[str]  # before a new request
    questions: Sequence[str]  # unrelated how-to / policy questions (new)
    greetings: Sequence[str] = ()
    signoffs: Sequence[str] = ()
    detail_leads: Sequence[str] = ("{d}",)
    #: Details, tries and answer values that fit any domain of the author.
    generic_details: Sequence[str] = ()
    generic_tries: Sequence[str] = ()
    generic_values: Sequence[str] = ()


def _maybe(rng: random.Random, p: float, options: Sequence[str]) -> str:
    return rng.choice(options) if options and rng.random() < p else ""


def _typo(rng: random.Random, text: str) -> str:
    """Now and then a dropped letter (English words of 5+ letters only)."""
    words = text.split(" ")
    long = [i for i, w in enumerate(words) if len(w) >= 5 and w.isascii() and w.isalpha()]
    if not long or rng.random() > 0.12:
        return text
    i = rng.choice(long)
    w = words[i]
    j = rng.randrange(1, len(w) - 1)
    words[i] = w[:j] + w[j + 1 :]
    return " ".join(words)


def _dress(rng: random.Random, author: Author, core: str, *, greet: float = 0.1) -> str:
    """A message as typed: an optional greeting and sign-off, case, the odd typo."""
    if author.lang == "zh":
        text = _maybe(rng, greet, author.greetings) + core + _maybe(rng, 0.15, author.signoffs)
        return text.strip()
    text = core
    hello = _maybe(rng, greet, author.greetings)
    if hello:
        text = f"{hello} {text[0].lower()}{text[1:]}" if text[:2] != "I " else f"{hello} {text}"
    bye = _maybe(rng, 0.15, author.signoffs)
    if bye:
        text = f"{text.rstrip('.')} {bye}"
    if rng.random() < 0.35:
        text = text.lower()
    return _typo(rng, text).strip()


def _fill(rng: random.Random, pattern: str, domain: Domain, value: str = "") -> str:
    return pattern.format(
        v=value or (rng.choice(domain.values) if domain.values else ""),
        s=rng.choice(domain.symptoms),
        t=rng.choice(domain.tries),
        d=rng.choice(domain.details),
    )


def _thread_rows(
    rng: random.Random, author: Author, split: str, real: Sequence[str] = ()
) -> list[dict[str, object]]:
    """One thread: a record, the bot's question or none, several follow-ups of it, and new
    requests (from the author's other domains and questions, and from `real` messages)."""
    base = rng.choice(author.domains)
    domain = replace(
        base,
        details=[*base.details, *author.generic_details],
        tries=[*base.tries, *author.generic_tries],
        values=[*base.values, *author.generic_values] if base.question == "system" else base.values,
    )
    asked = bool(domain.question and domain.vague_openings and rng.random() < 0.45)
    value = rng.choice(domain.values) if domain.values else ""
    if asked:
        record = _fill(rng, rng.choice(domain.vague_openings), domain, value)
    else:
        record = _fill(rng, rng.choice(domain.openings), domain, value)
    record = _dress(rng, author, record, greet=0.2)
    question = domain.question if asked else ""
    minutes_base = rng.choice([1.0, 3.0, 10.0, 45.0, 180.0, 1200.0, 4000.0])

    def row(
        message: str, label: str, family: str, template: str, *, same: bool = True
    ) -> dict[str, object]:
        return {
            "split": split,
            "lang": author.lang,
            "kind": domain.kind,
            "record": record,
            "question": question,
            "message": message,
            "same_user": same,
            "minutes": round(minutes_base * rng.uniform(0.3, 3.0), 1),
            "label": label,
            "family": family,
            "domain": f"{author.lang}{author.domains.index(base)}",
            "template": f"{author.lang}:{family}:{template}",
        }

    # Each family: its phrase pool, and how a pattern of it is filled.
    pools: dict[str, tuple[Sequence[str], Callable[[str], str]]] = {
        "detail": (author.detail_leads, lambda p: p.format(d=rng.choice(domain.details))),
        "still": (author.still, lambda p: _fill(rng, p, domain)),
        "retry": (author.retry, lambda p: _fill(rng, p, domain)),
        "status": (author.status, str),
        "closing": (author.closing, str),
        "resolved": (author.resolved, str),
        "reason": ([*author.reasons, *domain.reasons], str),
        "urgency": (author.urgency, str),
        "same_here": (author.same_here, lambda p: _fill(rng, p, domain)),
    }
    if domain.kind != "incident" or not domain.symptoms:
        del pools["still"], pools["same_here"]
    families = [*pools, *(["retry"] if "retry" in pools else [])]  # the hardest, twice
    if asked:
        pools["answer"] = (author.answers, lambda p: p.format(v=rng.choice(domain.values)))
        families += ["answer"] * 3
    picked = rng.sample(families, k=min(len(families), rng.choice([2, 3, 3, 4])))
    rows: list[dict[str, object]] = []
    for family in picked:
        pool, fill = pools[family]
        pattern = rng.choice(pool)
        greet = 0.0 if family == "closing" else (0.03 if family == "answer" else 0.1)
        message = _dress(rng, author, fill(pattern), greet=greet)
        label = family if family in ("closing", "answer", "status", "resolved") else "update"
        rows.append(row(message, label, family, pattern, same=family != "same_here"))
    # New requests in the same thread: another domain's opening (sometimes the same kind of
    # record about something else), or an unrelated question.
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        if rng.random() < 0.3:
            core = template = rng.choice(author.questions)
            family = "new_question"
        else:
            others = [d for d in author.domains if d is not base]
            same_kind = [d for d in others if d.kind == domain.kind]
            other = rng.choice(same_kind if same_kind and rng.random() < 0.4 else others)
            core = _fill(rng, rng.choice(other.openings), other)
            template = str(author.domains.index(other))
            family = "new_same_kind" if other.kind == domain.kind else "new_request"
        lead = _maybe(rng, 0.55, author.connectors)
        if lead and author.lang == "en":
            core = f"{lead} {core[0].lower()}{core[1:]}" if core[:2] != "I " else f"{lead} {core}"
        else:
            core = lead + core
        same = rng.random() < 0.8
        rows.append(row(_dress(rng, author, core), "new", family, template, same=same))
    for _ in range(rng.choice([0, 1, 1, 2]) if real else 0):
        core = rng.choice(real)
        if _overlap(core, record) > 0.25:
            continue  # possibly about the same thing: not a clean "new"
        lead = _maybe(rng, 0.4, author.connectors)
        message = f"{lead} {core}" if lead and author.lang == "en" else lead + core
        rows.append(row(message, "new", "new_real", core, same=rng.random() < 0.8))
    return rows


def _overlap(a: str, b: str) -> float:
    """Share of `a`'s words (CJK characters) also in `b`."""
    words = re.compile(r"[a-z0-9]{3,}|[\u3400-\u9fff]", re.IGNORECASE)
    wa = {w.lower() for w in words.findall(a)}
    wb = {w.lower() for w in words.findall(b)}
    return len(wa & wb) / max(1, len(wa))


#: Hand-written Slack requests and questions (the routing set's `training.jsonl` and the
#: escalation set's train split, one line each with its language), taken once and kept: the
#: set must not change whenever those sets gain rows, or the committed rows could no longer be
#: written again from this script.
REAL = Path(__file__).with_name("continuation_real.jsonl")


def _real_requests(lang: str) -> list[str]:
    """Self-contained new messages in a thread (`REAL`, in `lang`). Only for the train split
    (the held-out split's new requests are its own author's)."""
    rows = map(json.loads, REAL.read_text("utf-8").splitlines())
    return [str(r["text"]) for r in rows if r["lang"] == lang]


def build(threads: int, holdout_threads: int, seed: int = 7) -> list[dict[str, object]]:
    """Every row, train threads first."""
    from continuation_authors import holdout_authors, train_authors
    from continuation_context import context_rows
    from continuation_more_phrasings import more_rows
    from continuation_particulars import particular_rows
    from continuation_progress import progress_rows
    from continuation_questions import question_rows
    from continuation_readings import reading_rows
    from continuation_reasons import reason_rows
    from continuation_resolved import resolved_rows
    from continuation_short_new import short_new_rows
    from continuation_symptoms import symptom_rows
    from continuation_timing import timing_rows
    from continuation_workarounds import workaround_rows

    rows: list[dict[str, object]] = []
    for split, authors, n in (
        ("train", train_authors(), threads),
        ("holdout", holdout_authors(), holdout_threads),
    ):
        rng = random.Random(f"{seed}-{split}")  # each split's rows do not move with the other's
        real = {a.lang: _real_requests(a.lang) for a in authors} if split == "train" else {}
        for i in range(n):
            author = authors[i % len(authors)]
            rows.extend(_thread_rows(rng, author, split, real.get(author.lang, ())))
        rows.extend(short_new_rows(rows, split, _overlap, seed))
        if split == "train":
            rows.extend(more_rows(rows, seed))
            rows.extend(context_rows(rows, _overlap, seed))
            rows.extend(progress_rows(seed))
            rows.extend(symptom_rows(seed))
            rows.extend(reason_rows(rows, seed))
            rows.extend(question_rows(rows, seed))
            rows.extend(particular_rows(rows, seed))
            rows.extend(reading_rows(seed))
            rows.extend(resolved_rows(rows, seed))
            rows.extend(timing_rows(rows, seed))
            rows.extend(workaround_rows(rows, seed))
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for r in rows:
        key = (str(r["record"]), str(r["question"]), str(r["message"]))
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def fit_shipped() -> None:
    """Fit the model on the train rows (with and without the embedder) and ship both."""
    sys.path.insert(0, str(REPO))
    from brain.continuation.model import SHIPPED_NAME, fit_model, labelled_rows
    from core.config import load_settings
    from core.model_files import ship_fits
    from core.text.embedder import get_dense_embedder

    embedder = get_dense_embedder(load_settings())
    rows = labelled_rows("train")
    embed = embedder.embed if embedder is not None else None
    for model, path in ship_fits("brain.data", SHIPPED_NAME, lambda e: fit_model(rows, e), embed):
        print(f"model {model.key} -> {path}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=420)
    parser.add_argument("--holdout-threads", type=int, default=160)
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    rows = build(args.threads, args.holdout_threads)
    with OUT.open("w", encoding="utf-8") as out:
        for r in rows:
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for r in rows:
        key = f"{r['split']}/{r['lang']}/{r['label']}"
        counts[key] = counts.get(key, 0) + 1
    print(f"{len(rows)} rows -> {OUT}")
    for key in sorted(counts):
        print(f"  {key}: {counts[key]}")
    if args.fit:
        fit_shipped()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
