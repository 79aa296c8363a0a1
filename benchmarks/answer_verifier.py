"""A learned answer verifier, measured on the labelled question-passage pairs
(brain/data/answer_pairs.jsonl, `scripts/make_answer_pairs.py`), beside the word-and-cosine
rules the product verifies with (`controllers.verification`). Tried and not wired into the
product: see `benchmarks/answer_pairs.py` and benchmarks/HISTORY.md.

A logistic regression over a few readings of a pair, and of the pair among the passages a
question would read with it:

- words: the share and count of the question's key terms the passage holds (those the rules
  read: `controllers.verification.specific_terms` less the words that only frame a
  question), and the share of all its terms (`knowledge.relevance.lexical_overlap`);
- meaning: the cosine of question and passage, and of question and the passage's title and
  section (its topic), with MiniLM for an English question and the multilingual encoder for a
  Chinese or mixed one (what retrieval gives as `Hit.dense` / `Hit.meaning`);
- standing: how far the passage is below the best of the passages read with it (cosine, topic
  cosine and the retrieval's 0..1 relevance) and its rank among them, and the share of the
  question's key terms none of the three best passages holds;
- kind: the question's language, whether the passage is in the other one, a glossary entry,
  and whether an error code the question names is in the passage.

Fitted on the train split, the pairs of unanswerable questions weighted `OUTSIDE_WEIGHT`;
Platt-scaled on out-of-fold scores whose folds keep a fact's phrasings together; its bar is
chosen on the same out-of-fold readings. Build and measurement time only: both encoders over
every pair, scikit-learn to fit.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from controllers.verification import codes_in, error_codes, specific_terms, verify
from controllers.verification import key_terms as subject_terms
from core.text.language import detect_language, is_chinese
from knowledge.meaning import meaning_relevance
from knowledge.relevance import lexical_overlap, relevance, terms

PAIRS = Path(__file__).resolve().parents[1] / "brain" / "data" / "answer_pairs.jsonl"

FEATURES = (
    "coverage",
    "shared",
    "overlap",
    "sem",
    "topic",
    "sem_gap",
    "topic_gap",
    "score",
    "score_gap",
    "rank",
    "zh",
    "cross",
    "glossary",
    "code",
    "sem_zh",
    "topic_zh",
    "absent",
    "absent_terms",
)
#: Changes with the features' meaning: a fitted file of another layout is not read.

C = 1.0
FOLDS = 5
#: Weight of a pair of an unanswerable question in the fit: a question is refused only when
#: every passage read fails, so its pairs' errors cost more. Chosen on the train split's
#: out-of-fold readings (1, 2, 4: 4 answered the most at the rules' refusal rate).
OUTSIDE_WEIGHT = 4.0
#: Passages the answering controller reads of a question's hits (`answering.MAX_PASSAGES`).
READ = 3


@dataclass(frozen=True, slots=True)
class Pair:
    """What the features read of one question and one passage, as retrieval gives them."""

    question: str
    title: str
    section: str
    text: str
    #: Cosine of question and passage (MiniLM for English, multilingual otherwise).
    sem: float
    #: Cosine of question and the passage's "title section".
    topic: float
    #: The retrieval's 0..1 relevance of the passage.
    score: float


def chinese_question(question: str) -> bool:
    """Is the question read by the multilingual encoder (Chinese or mixed)?"""
    return detect_language(question) != "en"


def meaning_text(title: str, section: str, text: str) -> str:
    """The passage as the knowledge skill's multilingual channel reads it."""
    return f"{title} {section} {text}"


def topic_text(title: str, section: str) -> str:
    return f"{title} {section}".strip()


def retrieval_score(question: str, title: str, section: str, text: str, dense: float | None,
                    meaning: float | None) -> float:  # fmt: skip
    """The knowledge skill's 0..1 relevance of a hit (`KnowledgeSkill.search`, meaning on)."""
    score = relevance(question, meaning_text(title, section, text), dense)
    if meaning is not None and chinese_question(question):
        score = max(score, round(meaning_relevance(meaning), 4))
    return score


def design(pairs: Sequence[Pair]) -> np.ndarray:
    """The feature rows of pairs read together (one question's passages: gaps and ranks are
    among them)."""
    if not pairs:
        return np.zeros((0, len(FEATURES)))
    best_sem = max(p.sem for p in pairs)
    best_topic = max(p.topic for p in pairs)
    best_score = max(p.score for p in pairs)
    order = sorted(range(len(pairs)), key=lambda i: -pairs[i].score)
    rank = {i: r for r, i in enumerate(order)}
    # The terms of the passages a question would read (its best `READ`): a key term none of
    # them holds ("Zoom", "Kafka") says the knowledge base has no page on what is asked.
    held: set[str] = set()
    for i in order[:READ]:
        held |= terms(_passage(pairs[i]))
    key = key_terms(pairs[0].question)
    absent = len(key - held)
    rows = []
    for i, p in enumerate(pairs):
        passage = _passage(p)
        shared = key & terms(passage)
        zh = 1.0 if chinese_question(p.question) else 0.0
        asked = error_codes(p.question)
        rows.append(
            [
                len(shared) / len(key) if key else 0.0,
                min(len(shared), 4) / 4,
                lexical_overlap(p.question, passage),
                p.sem,
                p.topic,
                best_sem - p.sem,
                best_topic - p.topic,
                p.score,
                best_score - p.score,
                min(rank[i], 3) / 3,
                zh,
                1.0 if is_chinese(p.text) != bool(zh) else 0.0,
                1.0 if p.section == "glossary" else 0.0,
                1.0 if asked and asked & codes_in(passage, asked) else 0.0,
                zh * p.sem,
                zh * p.topic,
                absent / len(key) if key else 0.0,
                min(absent, 3) / 3,
            ]
        )
    return np.asarray(rows, dtype=np.float64)


def _passage(pair: Pair) -> str:
    """What verification reads of a passage (`controllers.answering.passage_of`)."""
    return "\n".join(part for part in (pair.title, pair.section, pair.text) if part)


def key_terms(question: str) -> set[str]:
    """The terms the rules' coverage counts (`controllers.verification.verify`)."""
    return subject_terms(specific_terms(question))


@dataclass(frozen=True, slots=True)
class Fitted:
    """Logistic weights over `design`, Platt scaling fitted out of fold, and the bar."""

    coef: np.ndarray
    intercept: float
    #: Platt scaling of the raw score: p = sigmoid(scale * z + shift).
    scale: float
    shift: float
    bar: float
    #: The calibrated out-of-fold probabilities of the training rows.
    out_of_fold: np.ndarray

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        z = x @ self.coef + self.intercept
        return np.asarray(1.0 / (1.0 + np.exp(-(self.scale * z + self.shift))))


def fit_model(x: np.ndarray, labels: np.ndarray, groups: Sequence[str], outside: np.ndarray,
              bar: Any) -> Fitted:  # fmt: skip
    """Fit on the design rows `x` (the pairs of unanswerable questions, `outside`, weighted
    `OUTSIDE_WEIGHT`); Platt-scale on scores out of fold (folds keep a group, a fact's
    phrasings, together); `bar(probabilities)` chooses the bar on those readings."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedGroupKFold

    def make() -> LogisticRegression:
        return LogisticRegression(C=C, max_iter=2000)

    weight = np.where(outside, OUTSIDE_WEIGHT, 1.0)
    oof = np.zeros(len(labels))
    split = StratifiedGroupKFold(n_splits=FOLDS, shuffle=True, random_state=0)
    for train, test in split.split(x, labels, list(groups)):
        fitted = make().fit(x[train], labels[train], sample_weight=weight[train])
        oof[test] = fitted.decision_function(x[test])
    platt = LogisticRegression(C=1e6, max_iter=2000).fit(oof[:, None], labels)
    scale, shift = float(platt.coef_[0][0]), float(platt.intercept_[0])
    calibrated = 1.0 / (1.0 + np.exp(-(scale * oof + shift)))
    final = make().fit(x, labels, sample_weight=weight)
    return Fitted(
        coef=final.coef_[0].astype(np.float64),
        intercept=float(final.intercept_[0]),
        scale=scale,
        shift=shift,
        bar=float(bar(calibrated)),
        out_of_fold=calibrated,
    )


#: Bars tried on the out-of-fold readings.
BARS = tuple(round(0.2 + 0.025 * i, 3) for i in range(29))


@dataclass(frozen=True, slots=True)
class Labelled:
    """One row of the pairs file, as read back for fitting and measuring."""

    row: dict[str, Any]

    @property
    def question(self) -> str:
        return str(self.row["question"])

    @property
    def glossary(self) -> bool:
        return self.row["passage_kind"] == "glossary"

    @property
    def section(self) -> str:
        return "glossary" if self.glossary else str(self.row["section"])

    @property
    def piece(self) -> str:
        """The chunk's own text (without the "title — section" header the ingest adds)."""
        passage = str(self.row["passage"])
        return passage if self.glossary else passage.split("\n", 1)[-1]


def labelled(split: str) -> list[Labelled]:
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]
    return [Labelled(r) for r in rows if r["split"] == split]


def _cosines(
    encode: Callable[[list[str]], np.ndarray], left: list[str], right: list[str]
) -> list[float]:
    texts = list(dict.fromkeys([*left, *right]))
    vectors = dict(zip(texts, encode(texts), strict=True))
    return [float(np.dot(vectors[a], vectors[b])) for a, b in zip(left, right, strict=True)]


def readings(rows: Sequence[Labelled]) -> dict[str, list[float]]:
    """Each row's cosines as retrieval and the verifier take them: MiniLM of question and
    chunk (every question: the skill's `Hit.dense`), the multilingual encoder's of a Chinese
    question and "title section text" (`Hit.meaning`), and of question and topic with the
    question's own encoder."""
    from core.text.embedder import get_dense_embedder
    from core.text.multilingual import multilingual_vectors

    embedder = get_dense_embedder()
    if embedder is None:
        raise SystemExit("the verifier is fitted with MiniLM")

    def minilm(texts: list[str]) -> np.ndarray:
        return embedder.embed(texts)

    def use(texts: list[str]) -> np.ndarray:
        vectors = multilingual_vectors(texts)
        if vectors is None:
            raise SystemExit("the verifier is fitted with the multilingual encoder")
        return vectors

    questions = [r.question for r in rows]
    zh = [chinese_question(q) for q in questions]
    dense = _cosines(minilm, questions, [str(r.row["passage"]) for r in rows])
    topics = [topic_text(str(r.row["title"]), r.section) for r in rows]
    meaning = [float("nan")] * len(rows)
    topic = [float("nan")] * len(rows)
    zh_rows = [i for i, z in enumerate(zh) if z]
    en_rows = [i for i, z in enumerate(zh) if not z]
    if zh_rows:
        texts = [
            meaning_text(str(rows[i].row["title"]), rows[i].section, rows[i].piece) for i in zh_rows
        ]
        for i, c in zip(
            zh_rows, _cosines(use, [questions[i] for i in zh_rows], texts), strict=True
        ):
            meaning[i] = c
        cos = _cosines(use, [questions[i] for i in zh_rows], [topics[i] for i in zh_rows])
        for i, c in zip(zh_rows, cos, strict=True):
            topic[i] = c
    if en_rows:
        cos = _cosines(minilm, [questions[i] for i in en_rows], [topics[i] for i in en_rows])
        for i, c in zip(en_rows, cos, strict=True):
            topic[i] = c
    return {"dense": dense, "meaning": meaning, "topic": topic}


def pairs(rows: Sequence[Labelled], read: dict[str, list[float]]) -> list[Pair]:
    out = []
    for i, r in enumerate(rows):
        zh = chinese_question(r.question)
        title = str(r.row["title"])
        meaning = read["meaning"][i] if zh else None
        out.append(
            Pair(
                question=r.question,
                title=title,
                section=r.section,
                text=r.piece,
                sem=float(meaning if meaning is not None else read["dense"][i]),
                topic=read["topic"][i],
                score=retrieval_score(
                    r.question, title, r.section, r.piece, read["dense"][i], meaning
                ),
            )
        )
    return out


def by_question(rows: Sequence[Labelled]) -> dict[str, list[int]]:
    """Row indices of each question (its passages are read together)."""
    grouped: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        grouped[f"{r.row['group']}\x00{r.question}"].append(i)
    return grouped


def full_design(rows: Sequence[Labelled], all_pairs: Sequence[Pair]) -> np.ndarray:
    x = np.zeros((len(rows), 0))
    blocks: dict[int, np.ndarray] = {}
    for indices in by_question(rows).values():
        for i, feature_row in zip(indices, design([all_pairs[i] for i in indices]), strict=True):
            blocks[i] = feature_row
    x = np.vstack([blocks[i] for i in range(len(rows))])
    return x


def question_rates(
    rows: Sequence[Labelled], passed: Sequence[bool], scores: Sequence[float] | None = None
) -> dict[str, float]:
    """Per question: an answerable one is answered when a passage that answers it passes
    (answered wrongly when only others pass); an unanswerable one is refused when none passes.
    With `scores` (the retrieval's relevance of each pair), only a question's `READ` best
    passages count, as the answering controller reads no more."""
    answered = wrong = refused = answerable = unanswerable = 0
    for indices in by_question(rows).values():
        if scores is not None:
            indices = sorted(indices, key=lambda i: -scores[i])[:READ]
        if str(rows[indices[0]].row["kind"]) == "outside":
            unanswerable += 1
            refused += not any(passed[i] for i in indices)
            continue
        answerable += 1
        right = any(passed[i] for i in indices if rows[i].row["label"] == 1)
        answered += right
        wrong += not right and any(passed[i] for i in indices)
    return {
        "answerable": answerable,
        "answered": round(answered / max(answerable, 1), 4),
        "answered_wrong_passage": round(wrong / max(answerable, 1), 4),
        "unanswerable": unanswerable,
        "refused": round(refused / max(unanswerable, 1), 4),
        "pair_accuracy": round(
            float(np.mean([p == (r.row["label"] == 1) for p, r in zip(passed, rows, strict=True)])),
            4,
        ),
    }


def rules_verdicts(
    rows: Sequence[Labelled], read: dict[str, list[float]], all_pairs: Sequence[Pair]
) -> list[bool]:
    """What the word-and-cosine rules (`verify` without a probability) say of each pair, a
    question's passages read together (their closest multilingual cosine)."""
    passed = [False] * len(rows)
    for indices in by_question(rows).values():
        meanings = [read["meaning"][i] for i in indices if not math.isnan(read["meaning"][i])]
        closest = max(meanings) if meanings else None
        for i in indices:
            pair, meaning = all_pairs[i], read["meaning"][i]
            passed[i] = verify(
                rows[i].question,
                "\n".join(part for part in (pair.title, pair.section, pair.text) if part),
                cosine=read["dense"][i],
                meaning=None if math.isnan(meaning) else meaning,
                closest=closest,
            ).passed
    return passed


def choose_bar(
    rows: Sequence[Labelled], scores: Sequence[float], rules: Sequence[bool], alone: bool
) -> Callable[[np.ndarray], float]:
    """The bar of `BARS` answering the most questions while refusing at least as many
    unanswerable ones as the rules; on the out-of-fold probabilities and the passages a
    question would read (the higher bar on a tie, the highest when none refuses enough).
    `alone`: the model decides by itself; else a passage passes on the rules' verdict or on
    the model's at the bar (the model passes what the rules refuse)."""
    floor = question_rates(rows, rules, scores)["refused"]

    def bar(probabilities: np.ndarray) -> float:
        def merit(b: float) -> tuple[bool, float, float]:
            passed = [
                bool(p >= b) or (not alone and q) for p, q in zip(probabilities, rules, strict=True)
            ]
            rates = question_rates(rows, passed, scores)
            safe = rates["refused"] >= floor
            return (safe, rates["answered"] if safe else 0.0, b)

        return max(BARS, key=merit)

    return bar


def fit_train(alone: bool) -> tuple[Fitted, list[Labelled], list[bool], list[float]]:
    """Fit on the train split; returns the model, the rows, the rules' verdicts on them and
    the rows' retrieval relevance."""
    rows = labelled("train")
    read = readings(rows)
    all_pairs = pairs(rows, read)
    x = full_design(rows, all_pairs)
    labels = np.array([int(r.row["label"]) for r in rows])
    groups = [str(r.row["group"]) for r in rows]
    outside = np.array([r.row["kind"] == "outside" for r in rows])
    scores = [p.score for p in all_pairs]
    rules = rules_verdicts(rows, read, all_pairs)
    model = fit_model(x, labels, groups, outside, choose_bar(rows, scores, rules, alone))
    return model, rows, rules, scores
