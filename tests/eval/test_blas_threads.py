"""The routing model's numeric work runs on one BLAS thread unless the operator says otherwise:
many small products, where a second OpenBLAS thread on a shared CPU only waits for a time slice
(`core.native_threads`: a routing fit 3.3 s against 0.15 s on two loaded cores)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from brain.semantic.scorer import SemanticScorer
from core.native_threads import THREAD_VARIABLES
from tests.eval.test_semantic import NEGATIVES, _controllers

#: Runs the command line's entry point, then reports the BLAS variables and what the BLAS
#: libraries numpy loaded afterwards were told.
_PROBE = """
import json, os, sys
from cli import main
main(["controllers", "list"])
import numpy
from threadpoolctl import threadpool_info
blas = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
print(json.dumps({"env": {k: os.environ.get(k) for k in sys.argv[1:]}, "blas": blas}))
"""


def _probe(**env: str) -> dict[str, Any]:
    clean = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *THREAD_VARIABLES],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_command_line_loads_numpy_with_one_blas_thread() -> None:
    seen = _probe()
    assert seen["env"] == dict.fromkeys(THREAD_VARIABLES, "1")
    assert seen["blas"] and set(seen["blas"]) == {1}


def test_an_operators_thread_count_is_kept() -> None:
    seen = _probe(OPENBLAS_NUM_THREADS="2")
    assert seen["env"]["OPENBLAS_NUM_THREADS"] == "2"


def test_a_fit_in_a_process_that_loaded_numpy_first_runs_on_one_blas_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A program that uses the brain as a library has numpy loaded with its own thread count;
    the fit limits itself for its duration and gives the count back."""
    from threadpoolctl import threadpool_info, threadpool_limits

    during: list[set[int]] = []
    fit = SemanticScorer._fit.__func__  # type: ignore[attr-defined]

    def watched(cls: type[SemanticScorer], *args: Any, **kwargs: Any) -> SemanticScorer:
        during.append({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})
        return fit(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(SemanticScorer, "_fit", classmethod(watched))
    with threadpool_limits(limits=2, user_api="blas"):
        loaded = {i["filepath"] for i in threadpool_info() if i["user_api"] == "blas"}
        SemanticScorer.fit(_controllers(), None, negatives=NEGATIVES)
        after = {i["num_threads"] for i in threadpool_info() if i["filepath"] in loaded}
    assert during == [{1}]
    assert after == {2}
