"""The meaning channel's passage vectors, kept once a process by what a chunk says: every
knowledge base a process opens on the same documents reads the vectors the first one encoded,
a question's closeness does not depend on the questions asked before it, and an edited
document is encoded anew."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

import knowledge.meaning
from core.config import Settings, load_settings
from core.files import copy_tree
from core.text.multilingual import multilingual_vectors
from knowledge import open_knowledge
from knowledge.meaning import passage
from knowledge.types import Hit
from tests.knowledge.conftest import write_config

FIRST = "半夜出了P1故障找谁？"
SECOND = "U盘在公司电脑上能用吗？"


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of passage texts each encoding of the meaning channel sends to the encoder."""
    sent: list[int] = []
    encode: Callable[[Sequence[str]], np.ndarray | None] = knowledge.meaning.multilingual_vectors

    def counted(texts: Sequence[str]) -> np.ndarray | None:
        sent.append(len(texts))
        return encode(texts)

    monkeypatch.setattr(knowledge.meaning, "multilingual_vectors", counted)
    return sent


def _read(hits: list[Hit]) -> list[tuple[str, float, float | None, float | None]]:
    return [(hit.chunk_id, hit.score, hit.meaning, hit.near) for hit in hits]


def test_a_second_knowledge_base_on_the_same_documents_encodes_no_passage_again(
    fitted_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each brain a process opened encoded the sample's 786 passage readings again at its first
    Chinese question (about 2 s), batched with that question, so a passage's vector, and the
    closeness read from it, moved in its last digits with the question that came first."""
    first_home, second_home = tmp_path / "a", tmp_path / "b"
    copy_tree(fitted_home, first_home)
    copy_tree(fitted_home, second_home)
    first = open_knowledge(Settings(home=first_home))
    try:
        first.search(FIRST, k=5, meaning=True)
        after_another = first.search(SECOND, k=5, meaning=True)
    finally:
        first.close()
    sent = _counting(monkeypatch)
    second = open_knowledge(Settings(home=second_home))
    try:
        asked_first = second.search(SECOND, k=5, meaning=True)
    finally:
        second.close()
    assert sent == []
    assert asked_first and all(hit.meaning is not None for hit in asked_first)
    assert _read(asked_first) == _read(after_another)


def test_an_edited_document_is_read_anew(
    empty_home: Path, small_kb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vectors are kept by a chunk's title, heading and text, not by its id: a document
    ingested again with other words is encoded again, and its closeness is the cosine of the
    question and its new words."""
    write_config(empty_home, ingest_sample=False, embedder="none")
    question = "VPN 连不上，打印机也卡纸了怎么办？"
    runbook = small_kb / "runbooks" / "vpn.md"
    skill = open_knowledge(load_settings())
    try:
        skill.ingest([small_kb], progress=False)
        before = _by_source(skill.search(question, k=10, meaning=True))[str(runbook)]
        runbook.write_text(
            "---\ndomain: incident\n---\n# 打印机卡纸\n\n打开前盖，轻轻取出卡住的纸。\n",
            encoding="utf-8",
        )
        sent = _counting(monkeypatch)
        skill.ingest([small_kb], progress=False)
        after = _by_source(skill.search(question, k=10, meaning=True))[str(runbook)]
    finally:
        skill.close()
    assert sent == [1]  # the edited chunk's one reading; the others are kept
    assert "卡住" in after.text and after.meaning is not None
    encoded = multilingual_vectors(
        [passage({"title": after.title, "section": after.section, "text": after.text}), question]
    )
    assert encoded is not None
    assert after.meaning == pytest.approx(float(encoded[0] @ encoded[1]), abs=1e-5)
    assert after.meaning != before.meaning


def _by_source(hits: list[Hit]) -> dict[str, Hit]:
    return {hit.source: hit for hit in hits}
