"""`brain ask --json -` as a batch tool, and the CLI's edges: bytes that are not UTF-8,
line numbers, one exit-code table, a closed output pipe, invisible bidi characters."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import exit_codes, main

ROOT = Path(__file__).resolve().parents[2]


class _BinaryStdin(io.TextIOWrapper):
    """A stdin whose text layer is strict UTF-8, like `PYTHONIOENCODING=utf-8`."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8", errors="strict")


@pytest.mark.usefixtures("home")
def test_invalid_utf8_on_stdin_is_one_line_not_the_end_of_the_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = b"vpn error 691 \xff\xfe on my laptop\n\xc3\x28\n\nprocess ticket 2025060300011279027\n"
    monkeypatch.setattr(sys, "stdin", _BinaryStdin(data))

    code = main(["ask", "--json", "-"])

    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3, 4]
    assert rows[0]["decision_id"] and "\ufffd" in rows[0]["text"]
    assert rows[1]["decision_id"]  # a lone bad byte is still a (garbled) message
    assert "error" in rows[2] and "empty" in rows[2]["error"]
    assert rows[3]["controller"] == "ticket"
    assert code == exit_codes.OK


@pytest.mark.usefixtures("home")
def test_bidi_override_characters_do_not_survive_cleaning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spoofed = "reset my password \u202eeslaf\u202c \u2066x\u2069 \u061c please"
    assert main(["ask", spoofed, "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    hidden = {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068"}
    assert not hidden.intersection(decision["text"]) and "\u2069" not in decision["text"]
    assert "eslaf" in decision["text"]
    assert main(["ask", "\u202e\u2066\u2069", "--json"]) == exit_codes.USAGE


def test_store_locked_has_one_exit_code_for_every_command(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.config import load_settings
    from knowledge import open_knowledge

    (isolated_env).mkdir(parents=True, exist_ok=True)
    (isolated_env / "brain.toml").write_text(
        '[knowledge]\nembedder = "none"\ningest_sample = false\n', encoding="utf-8"
    )
    holder = open_knowledge(load_settings())  # this process holds the local store
    try:
        other = {
            "ask": main(["ask", "vpn is down"]),
            "kb search": main(["kb", "search", "vpn"]),
            "kb define": main(["kb", "define", "vpn"]),
        }
    finally:
        holder.close()
    assert other == dict.fromkeys(other, exit_codes.STORE_UNAVAILABLE)
    assert "Traceback" not in capsys.readouterr().err


def test_a_closed_output_pipe_ends_quietly(isolated_env: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BRAIN_HOME": str(isolated_env)}
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "controllers"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `| head` that has already exited
    stderr = process.stderr.read().decode()
    code = process.wait()
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert code == exit_codes.BROKEN_PIPE


def test_an_ascii_stdout_answers_every_line_of_a_chinese_batch(home: Path) -> None:
    """With `PYTHONIOENCODING=ascii` (some cron and container locales) the batch died
    at the first Chinese answer; JSON output is ASCII-safe, so every line is answered."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BRAIN_HOME": str(home)}
    env["PYTHONIOENCODING"] = "ascii"
    lines = ["VPN 连不上，报错 691", "什么是滚仓？", "帮我重置 SAP 密码", "服务器磁盘满了"]
    done = subprocess.run(
        [sys.executable, "-m", "brain", "ask", "--json", "-"],
        cwd=ROOT,
        env=env,
        input="\n".join(lines).encode("utf-8"),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    answers = [json.loads(line) for line in done.stdout.decode("ascii").splitlines()]
    assert len(answers) == len(lines)
    assert all("decision_id" in answer for answer in answers)
    text = subprocess.run(
        [sys.executable, "-m", "brain", "ask", lines[1]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    assert text.returncode == 0 and "Traceback" not in text.stderr.decode()
