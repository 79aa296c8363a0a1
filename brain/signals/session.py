"""The session decision log signal (10%) and the session cache it reads.

Session signal of a controller: 0.5 (neutral) + 0.10 per earlier success - 0.15 per earlier
failure in this conversation, clipped to 0..1. An earlier decision is a success for its
controller when it was confirmed, or when it was routed/composed and the user went on without
rejecting or correcting it (an unchallenged route); it is a failure when it was rejected or
corrected; a correction is also a success for the controller it was corrected to.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from brain.signals.base import PartialTotal, Signal, SignalQuery, SignalReading, SignalSources
from brain.signals.session_cache import SESSION_NEUTRAL


class SessionSignal(Signal):
    """Earlier successes and failures of each controller in this conversation."""

    name: ClassVar[str] = "session"
    word: ClassVar[str] = "this conversation"
    neutral: ClassVar[float] = SESSION_NEUTRAL
    telling_order: ClassVar[int] = 40

    def score(
        self, query: SignalQuery, sources: SignalSources, partial: PartialTotal | None
    ) -> SignalReading:
        key = query.message.session_key
        if sources.session_entries(key):
            return SignalReading(sources.sessions.signal(key, query.names))
        return SignalReading(np.full(len(query.names), SESSION_NEUTRAL, dtype=np.float32))

    def reasons(self, reading: SignalReading, index: int, controller: str) -> list[str]:
        value = float(reading.values[index])
        if value > SESSION_NEUTRAL:
            return ["it worked earlier in this conversation"]
        if value < SESSION_NEUTRAL:
            return ["it was corrected earlier in this conversation"]
        return []
