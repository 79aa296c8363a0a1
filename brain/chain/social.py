"""Messages that only greet, thank or close a talk ("hello", "thanks, that fixed it", "收到").

They are no request: no controller should take them, and they are no unknown problem for the
dynamic tier to plan or for evolution to learn from. Without this reading "hello" ended in
"outside what I can handle", "谢谢" in "which controller?", and each left an evolution signal.

A calibrated multinomial logistic regression (none, greeting, thanks, closing) over the
speech-act model's language-independent features (`brain.chain.speech_act.design`: hashed
character and word n-grams of the message and its first clause, its size and question mark),
fitted on `brain/data/social_acts.jsonl` (split "train": social phrases in English and Chinese
as people type them, and requests wrapped in one, "hi, my laptop will not boot") plus every
train row of the speech-act set as `none`. Its "holdout" split (other phrases) is never fitted
or tuned on. Temperature-scaled on out-of-fold scores whose folds keep a phrase's forms
together. The fitted weights are shipped (`social-<key>.npz`, written by
`scripts/make_social_set.py --fit`); without a shipped copy the model is fitted once in the
process (about a second).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from brain.chain import speech_act
from core.calibrated_linear import CalibratedLinear, fit_temperature, grouped_out_of_fold
from core.model_files import shipped_file

__all__ = ["ACTS", "SOCIAL_AT", "SocialReading", "fit_model", "labelled_rows", "read"]

DATA_FILE = "social_acts.jsonl"
SHIPPED_NAME = "social"
ACTS = ("none", "greeting", "thanks", "closing")
#: A message is social when the social acts together are at least this likely. Chosen on the
#: train split's out-of-fold readings (`benchmarks/social_acts.py`): the lowest bar of
#: 0.5, 0.55, ... at which at most 1% of the requests (`none`) reach it.
SOCIAL_AT = 0.55
#: Longer messages carry a request or a story: never social, whatever the model reads.
MAX_WORDS = 12
FOLDS = 5


@dataclass(frozen=True, slots=True)
class SocialReading:
    """The model's reading of one message: each act's probability."""

    probabilities: dict[str, float]

    @property
    def social(self) -> float:
        """How likely the message is only social (any of greeting, thanks, closing)."""
        return 1.0 - self.probabilities["none"]

    @property
    def act(self) -> str:
        """The likeliest social act (whether or not the message is social)."""
        return max(ACTS[1:], key=lambda a: self.probabilities[a])

    @property
    def is_social(self) -> bool:
        return self.social >= SOCIAL_AT

    def describe(self) -> str:
        return f"a social message ({self.act}, {self.social:.2f})"


@dataclass(frozen=True, slots=True)
class SocialModel(CalibratedLinear):
    """Weights over `speech_act.design` (no embedding block), one temperature."""

    def read(self, texts: Sequence[str]) -> list[SocialReading]:
        probs = self.probabilities(speech_act.design(texts))
        return [SocialReading(dict(zip(ACTS, map(float, row), strict=True))) for row in probs]


def labelled_rows(split: str = "train") -> list[dict[str, str]]:
    """The social set's rows of `split`, and the speech-act set's of that split as `none`."""
    text = resources.files("brain.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    own = [r for r in rows if r.get("split") == split]
    requests = [
        {**r, "label": "none", "template": f"speech-{r.get('template') or r['text']}"}
        for r in speech_act.labelled_rows(split)
    ]
    return own + requests


def model_key(rows: Sequence[dict[str, str]]) -> str:
    """What the fitted weights depend on: the rows, the feature layout, the settings."""
    return speech_act.rows_key((speech_act.N_HASHED, ACTS, speech_act.C, FOLDS, 1), rows)


def out_of_fold(rows: Sequence[dict[str, str]]) -> np.ndarray:
    """Each row's scores from a model fitted without its phrase."""
    x = speech_act.design([r["text"] for r in rows])
    labels = np.array([ACTS.index(r["label"]) for r in rows])
    groups = [r.get("template") or r["text"] for r in rows]
    return grouped_out_of_fold(x, labels, groups, len(ACTS), speech_act.logistic, FOLDS)


def fit_model(rows: Sequence[dict[str, str]]) -> SocialModel:
    """Fit, and calibrate on out-of-fold scores (deterministic: fixed folds, lbfgs)."""
    labels = np.array([ACTS.index(r["label"]) for r in rows])
    final = speech_act.logistic().fit(speech_act.design([r["text"] for r in rows]), labels)
    return SocialModel(
        coef=final.coef_.astype(np.float64),
        intercept=final.intercept_.astype(np.float64),
        temperature=fit_temperature(out_of_fold(rows), labels),
        with_embedding=False,
        key=model_key(rows),
    )


@cache
def shipped_model() -> SocialModel:
    """The model fitted at build time on the shipped rows (fitted now without a copy)."""
    rows = labelled_rows("train")
    key = model_key(rows)
    path = shipped_file("brain.data", SHIPPED_NAME, key)
    if path.is_file():
        try:
            return SocialModel.load(path, key)
        except (OSError, ValueError, KeyError):
            pass  # a damaged copy: fit
    return fit_model(rows)


def read(text: str) -> SocialReading | None:
    """The reading of one message, or None for a message too long to be only social."""
    if not text.strip() or len(speech_act.words(text)) > MAX_WORDS:
        return None
    return shipped_model().read([text])[0]
