"""The live-event model's veto of a page the security rules force: it takes both models.

The live-event model reads whether a message reports something happening now; trained on
finished incidents and drills, it can read a past-tense report ("this morning I ... signed
in, the page was fake") as over. A forced page stands while the escalation model, which reads
the rules too, is sure of it; only when neither model confirms it is the message P2.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from brain.escalation.decide import decide_escalation
from brain.escalation.model import load_or_fit
from core.records import IntentResult

NO_INTENT = IntentResult(intent="other", confidence=0.0, description="", urgency="low", entities={})
PAST_TENSE_LIVE = (
    "this morning I followed a link in an email and entered my password, I now believe the "
    "site was fake"
)
FINISHED = "we finished handling the leaked API key yesterday, it was rotated"


def test_a_forced_page_the_escalation_model_is_sure_of_stands_under_the_veto(
    tmp_path: Path,
) -> None:
    # Every p(live) under the bar: the live-event model confirms nothing.
    model = dataclasses.replace(load_or_fit(tmp_path, None), veto=1.01)
    live = decide_escalation(PAST_TENSE_LIVE, NO_INTENT, model=model)
    assert live.security and live.escalate and live.priority == "P1"

    finished = decide_escalation(FINISHED, NO_INTENT, model=model)
    assert finished.security and not finished.escalate and finished.priority == "P2"
    assert any("does not confirm the security event" in line for line in finished.evidence)
