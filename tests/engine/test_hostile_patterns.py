"""An ID pattern that backtracks catastrophically costs a bounded time, once.

Static checks at ingest refuse nested quantifiers; overlapping alternatives such as
`(a|aa)+b` pass them but take exponential time on "aaaa...c". Matching runs with a time
budget, so the decision comes back and the pattern is retired until the KB changes.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from cli import main

SLOW_PATTERN = "id_patterns:\n  - name: slow\n    regex: '(a|aa)+b'\n    domain: ticket\n"


@pytest.mark.usefixtures("home")
def test_a_backtracking_id_pattern_times_out_and_is_retired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    patterns = tmp_path / "slow.yaml"
    patterns.write_text(SLOW_PATTERN, encoding="utf-8")
    assert main(["ingest", str(patterns), "--quiet"]) == 0
    capsys.readouterr()

    hostile = "a" * 64 + "c please look"
    with caplog.at_level(logging.WARNING, logger="knowledge.skill"):
        assert main(["ask", hostile, "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)

    assert decision["decision_id"]
    assert "slow" not in json.dumps(decision["entities"])
    assert any(
        "'slow'" in r.getMessage() and "time budget" in r.getMessage() for r in caplog.records
    )
