"""How far a corrected message may reach, measured on the corrections that came after it.

A correction is an example of its controller (`brain.memory.agreed`): a message alike enough
takes the controller. Whether "alike enough" is right depends on the messages. Short requests
worded two ways by people who mean the same thing (the correction stories) are right nearly
always; long, noisily labelled e-mails of a help desk are not: in the simulated day
(benchmarks/correction_day.py) a requester's corrected ticket was the right example for their
next alike ticket in 35 of 167 cases where the model alone was right in 128, and following those
examples cost the day 8 tickets.

Every correction is a held-out test of the examples before it: its message was routed wrongly
and a person said where it belongs. So, as each correction arrives, the nearest earlier
correction its message was alike enough to (by the same measure and floor the reach uses) is
looked up, and whether that example named the same controller is kept, with the similarity.
An example then reaches a message only while the examples at least that alike have been right
at least as often as wrong (a Beta prior of PRIOR_RIGHT right and PRIOR_WRONG wrong tests keeps
the first corrections reaching, as people expect of a brain they just taught). Only the latest
WINDOW tests count, so every process (the bot's, a CLI command's) that has read the same lessons
reaches the same messages, and the measure follows the desk as it changes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import IntEnum

#: Tests kept (the latest); a process loading many lessons tests only this many of them.
WINDOW = 200
#: The prior, in tests: with no evidence an example reaches; a few misses at a similarity close it.
PRIOR_RIGHT = 2.0
PRIOR_WRONG = 1.0
#: The share of right tests (prior included) an example's similarity needs.
MIN_PRECISION = 0.5


class Measure(IntEnum):
    """How two texts were compared: similarities of different measures are not comparable."""

    NGRAMS = 0  #: overlap of character n-grams (no encoder for the pair)
    EMBEDDING = 1  #: MiniLM cosine, both texts in Latin script
    MIXED = 2  #: multilingual cosine, one text Chinese and one not
    CHINESE = 3  #: multilingual cosine, both texts Chinese


@dataclass(frozen=True, slots=True)
class ReachTest:
    """One correction as a test of the earlier examples: the nearest one's similarity, the
    measure it was compared by and whether it named the corrected controller."""

    similarity: float
    measure: Measure
    right: bool


class ReachEvidence:
    """The latest tests, and the gate they make."""

    def __init__(self) -> None:
        self._tests: deque[ReachTest] = deque(maxlen=WINDOW)

    def add(self, test: ReachTest) -> None:
        self._tests.append(test)

    def clear(self) -> None:
        self._tests.clear()

    def precision(self, similarity: float, measure: Measure) -> float:
        """The estimated share of right examples at least this alike (same measure)."""
        right = wrong = 0
        for test in self._tests:
            if test.measure == measure and test.similarity >= similarity:
                if test.right:
                    right += 1
                else:
                    wrong += 1
        return (right + PRIOR_RIGHT) / (right + wrong + PRIOR_RIGHT + PRIOR_WRONG)

    def reaches(self, similarity: float, measure: Measure) -> bool:
        """Whether an example this alike to a message may move it."""
        return self.precision(similarity, measure) >= MIN_PRECISION

    def __len__(self) -> int:
        return len(self._tests)
