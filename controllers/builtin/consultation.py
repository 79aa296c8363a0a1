"""`consultation`: answers from the knowledge base, with citations."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from controllers import answering
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController, catalog
from core.cues import cues

if TYPE_CHECKING:
    from knowledge.skill import KnowledgeSkill

#: The Chinese question mark and words (`consultation.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: A question, or a request for information (consultation answers questions, it does not act).
QUESTION = re.compile(
    r"\?|"
    + _CUES.regex("question_mark_zh")
    + r"|^\s*(?:how|what|what's|where|when|why|which|who|can|could|may|is|are|do|does|"
    r"should|am)\b|\b(?:how (?:do|to|can|long|much|many|often)|what (?:is|are|does)|is it|"
    r"are we|do we|can i|allowed to|policy|procedure|process for|rules? (?:for|on)|"
    r"difference between|meaning of|explain|tell me)\b|" + _CUES.regex("question_words_zh"),
    re.I,
)
#: A passage must be at least this relevant (the skill's 0..1 relevance) for the dry-run to
#: promise an answer. Measured on the dev set with the sample KB (benchmarks/bench_controllers.py
#: and the question gate): 0.30 passes 65% of consultation questions and 8% of out-of-scope
#: messages; 0.45 passes 56% / 2%; 0.20 passes 77% / 18%.
DRY_RUN_MIN = 0.30


class ConsultationController(BuiltinController):
    """How-to, policy and definition questions answered from the knowledge base."""

    name = "consultation"

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Ok when the knowledge base has a definition or a relevant passage."""
        if context.services.knowledge is None:
            return DryRunResult(ok=False, reason="no knowledge base is open")
        if not QUESTION.search(self.text_of(context)):
            return DryRunResult(ok=False, reason="not a question or a request for information")
        try:
            return self._dry_run(context.services.knowledge, context.text)
        except Exception as exc:  # the KB is down: say so instead of failing the decision
            return DryRunResult(ok=False, reason=f"knowledge base error: {type(exc).__name__}")

    @staticmethod
    def _dry_run(knowledge: KnowledgeSkill, text: str) -> DryRunResult:
        # confirm_many shares the one retrieval the brain already made for the knowledge signal
        support = knowledge.confirm_many(text, sorted(catalog()))
        evidence = [
            hit
            for confirmation in support.values()
            for hit in confirmation.evidence
            if hit.section != "id_patterns"  # an id in the text is no answer to a question
        ]
        best = max(evidence, key=lambda hit: hit.score, default=None)
        if best is not None and best.score >= DRY_RUN_MIN:
            return DryRunResult(ok=True, reason=f"relevant passage: {answering.citation(best)}")
        term = answering.definition_term(text)
        definition = knowledge.define(term) if term else None
        if definition is not None:
            return DryRunResult(ok=True, reason=f"the glossary defines {definition.term!r}")
        return DryRunResult(ok=False, reason="the knowledge base has nothing relevant")

    def handle(self, context: ControllerContext) -> ControllerResult:
        """Compose (LLM) or extract (no LLM) an answer from the best passages."""
        if context.services.knowledge is None:
            return ControllerResult(
                ok=False, summary="The knowledge base is not available, so I cannot answer."
            )
        evidence = answering.gather(context.services.knowledge, context.text)
        return answering.answer(context.text, evidence, context.services.llm)
