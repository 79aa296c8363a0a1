"""The CLI on an ASCII-only terminal (some cron and container locales): a Chinese message given
as an argument or typed into `brain chat` is kept exactly, and answered without a traceback.

Run in a subprocess, because what is tested is how Python's start-up reads argv and stdin
under `PYTHONIOENCODING=ascii` and `LC_ALL=C`; `PYTHONUTF8=0` keeps Python's UTF-8 mode off, as
on the machines where argv is decoded as ASCII (a Python in UTF-8 mode reads it right anyway).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = "VPN 连不上"


def _brain(home: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    """`python -m brain ARGV...` on an ASCII-only terminal; its stdin is `stdin` as UTF-8."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BRAIN_HOME": str(home)}
    env.update(PYTHONIOENCODING="ascii", LC_ALL="C", PYTHONUTF8="0")
    done = subprocess.run(
        [sys.executable, "-m", "brain", *argv],
        cwd=ROOT,
        env=env,
        input=stdin.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in done.stderr.decode("utf-8", "replace")
    return done


def _stored_text(home: Path, decision_id: str) -> str:
    """The message text of a stored decision, read back through `brain why --json`."""
    return str(json.loads(_brain(home, "why", decision_id, "--json").stdout)["text"])


def test_a_chinese_argument_is_stored_as_typed(home: Path) -> None:
    decision = json.loads(_brain(home, "ask", TEXT, "--json").stdout)
    assert decision["text"] == TEXT
    assert _stored_text(home, decision["decision_id"]) == TEXT
    answer = _brain(home, "ask", "什么是滚仓？").stdout.decode("ascii")
    assert "decision d-" in answer


def test_brain_chat_answers_chinese_lines(home: Path) -> None:
    done = _brain(home, "chat", stdin=f"{TEXT}\n什么是滚仓？\n/quit\n")
    out = done.stdout.decode("ascii")
    # A Chinese asker's decision line says 决策, escaped on an ASCII terminal.
    decisions = re.findall(r"(?:decision|\\u51b3\\u7b56) (d-[0-9a-f]+)", out)
    assert len(decisions) == 2 and out.rstrip().endswith("bye"), out
    assert _stored_text(home, decisions[0]) == TEXT
