"""`BRAIN_LOG_FORMAT=json` holds for every command, not only `brain run`: a log collector
reading a command's standard error gets one JSON object a line, first-use progress and an
LLM failure included, each line of a decision's work carrying its decision id."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path


def _closed_port() -> int:
    """A local port nothing listens on (the LLM API is unreachable there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_commands_log_lines_are_json_and_carry_the_decision_id(isolated_env: Path) -> None:
    env = {
        **os.environ,
        "BRAIN_LOG_FORMAT": "json",
        "ANTHROPIC_API_KEY": "sk-ant-test-unused",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{_closed_port()}",
        "BRAIN_LLM_TIMEOUT": "2",
        "PYTHONPATH": os.getcwd(),
    }
    result = subprocess.run(
        [sys.executable, "-m", "brain", "ask", "it is broken again", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )

    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    written = [line for line in result.stderr.splitlines() if line.strip()]
    assert [line for line in written if not line.startswith("{")] == []
    lines = [json.loads(line) for line in written]
    assert any("ingesting the sample knowledge base" in line["message"] for line in lines)
    failed = [line for line in lines if "llm" in line["message"] and "failed" in line["message"]]
    assert failed, lines
    assert all(line.get("decision_id") == decision["decision_id"] for line in failed), failed
