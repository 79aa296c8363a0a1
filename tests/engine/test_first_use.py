"""First use in a fresh home: slow work says what it is doing on stderr; stdout stays JSON."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_first_ask_reports_fitting_on_stderr_and_keeps_stdout_json(isolated_env: Path) -> None:
    env = {**os.environ, "BRAIN_EMBEDDER": "none", "PYTHONPATH": os.getcwd()}
    result = subprocess.run(
        [sys.executable, "-m", "brain", "ask", "my laptop will not boot", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["decision_id"]  # nothing but the decision on stdout
    assert re.search(r"fitting the routing model on [\d,]+ examples \.\.\. [\d.]+ s", result.stderr)
    assert "ingesting the sample knowledge base" in result.stderr

    again = subprocess.run(
        [sys.executable, "-m", "brain", "ask", "my laptop will not boot", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert again.returncode == 0, again.stderr
    assert "fitting" not in again.stderr  # the fitted model is cached in the home
