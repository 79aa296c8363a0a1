"""An English answer from the knowledge base carries no Chinese words the asker did not write:
the sample KB glosses its English terms for Chinese readers ("A break (对账差异) is ...",
"reconciliation (recon, 对账)"), and those brackets reached English askers, whose reply was
then not wholly in their language. A gloss the question names stays ("what does 滚仓 mean?"
is answered with "Rollover (滚仓)"), and a Chinese asker's answer keeps its Chinese lines only."""

from __future__ import annotations

import re

from brain.conversation.turns import Conversation
from brain.engine import Brain
from core.records import Message

_CJK = re.compile(r"[\u4e00-\u9fff]")


def _answer(brain: Brain, text: str) -> str:
    reply = Conversation(brain).handle(Message(text, "u1", "C1"))
    assert reply.decision is not None and reply.decision.result is not None
    assert reply.decision.result.ok, reply.text
    return " ".join([reply.text, *reply.result_lines])


def test_an_english_answer_drops_the_knowledge_bases_chinese_glosses(brain: Brain) -> None:
    said = _answer(brain, "what does reconciliation mean in settlement?")
    assert "statement files" in said or "Matching" in said
    assert not _CJK.search(said), said


def test_a_gloss_the_english_question_names_stays(brain: Brain) -> None:
    said = _answer(brain, "what does 滚仓 mean in the settlement docs?")
    assert "滚仓" in said
    assert not set(_CJK.findall(said)) - set("滚仓"), said
