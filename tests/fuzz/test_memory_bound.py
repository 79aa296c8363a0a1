"""The worst inputs known, each in its own `brain` process: the process's peak memory stays
within 1 GB of the same command's peak on a harmless input (its warm size), it ends with exit
code 0 or 1 and prints no traceback.

Before the limits (core/limits.py), a 600-byte YAML glossary grew `brain ingest` to 6 GB; a
5 MB message line and a backtracking identifier regex were read and matched whole. Large
well-formed files (a 5 MB manual, a 60,000-entry glossary) kept `brain ingest` embedding for
17 minutes at 1.84 GB resident, every chunk of a file held until all were embedded; they are
ingested here on the sparse channel (embedding them takes minutes on two cores; the model's
own memory does not depend on the file: `benchmarks/ingest_bound.py` measures both).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.limits import MAX_FILE_CHUNKS, MAX_KB_FILE_BYTES
from tests.fuzz.large_kb import GLOSSARY_ENTRIES, write_large_kb

#: How far above its warm size any input may take a process (kilobytes, as ru_maxrss).
BOUND_KB = 1024 * 1024


def _alias_bomb(levels: int, width: int = 10) -> str:
    """`width ** levels` strings once expanded, in a few hundred bytes ("billion laughs")."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    lines.append(f"glossary:\n  - term: bomb\n    definition: *l{levels - 1}")
    return "\n".join(lines) + "\n"


def _run(
    home: Path, work: Path, args: list[str], stdin: bytes = b"", **env_vars: str
) -> tuple[int, int, str]:
    """(exit code, peak resident kilobytes, stderr) of `brain ARGS` in a child process."""
    env = {**os.environ, "BRAIN_HOME": str(home), "PYTHONIOENCODING": "utf-8", **env_vars}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    feed, out, err = work / "stdin", work / "stdout", work / "stderr"
    feed.write_bytes(stdin)
    with feed.open("rb") as src, out.open("wb") as dst, err.open("wb") as errors:
        child = subprocess.Popen(
            [sys.executable, "-m", "cli", *args], stdin=src, stdout=dst, stderr=errors, env=env
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_maxrss, err.read_text(encoding="utf-8", errors="replace")


@pytest.mark.slow
def test_no_message_line_takes_ask_a_gigabyte_above_its_warm_size(
    home: Path, tmp_path: Path
) -> None:
    code, warm, err = _run(home, tmp_path, ["ask", "--json", "-"], b"VPN error 691 since today\n")
    assert code == 0, err
    hostile = [
        b"a" * (5 * 1024 * 1024),  # a 5 MB line
        ("工单 " * 400_000).encode(),  # 2.4 MB of CJK
        b"(" * 100_000 + b"a" * 100_000 + b")" * 100_000,
        b"\x00\xff\xfe" * 50_000,  # NULs and invalid UTF-8
        ("\u202e\u200b😀" * 100_000).encode(),
        b"INC-" + b"9" * 1_000_000,  # an identifier-shaped million digits
        b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" * 20_000,
    ]
    code, peak, err = _run(home, tmp_path, ["ask", "--json", "-"], b"\n".join(hostile) + b"\n")
    assert "Traceback" not in err
    assert code in (0, 1), err
    assert peak - warm < BOUND_KB, f"ask peaked {peak - warm} KB above its warm {warm} KB"


@pytest.mark.usefixtures("embedder")
def test_no_knowledge_file_takes_ingest_a_gigabyte_above_its_warm_size(
    home: Path, tmp_path: Path
) -> None:
    harmless = tmp_path / "harmless"
    harmless.mkdir()
    (harmless / "note.md").write_text("# Printer\n\nClear the jam.\n", encoding="utf-8")
    code, warm, err = _run(home, tmp_path, ["ingest", str(harmless), "--quiet"])
    assert code == 0, err

    hostile = tmp_path / "hostile"
    hostile.mkdir()
    (hostile / "bomb.yaml").write_text(_alias_bomb(levels=9), encoding="utf-8")  # 10^9 strings
    (hostile / "deep.yaml").write_text("a: " + "[" * 50_000 + "]" * 50_000 + "\n")
    (hostile / "too_big.txt").write_bytes(b"x" * (MAX_KB_FILE_BYTES + 1))  # refused unread
    (hostile / "binary.md").write_bytes(bytes(range(256)) * 256)
    (hostile / "redos.yaml").write_text(
        "id_patterns:\n  - name: evil\n    regex: '(a+)+x'\n    domain: ticket\n"
    )
    code, peak, err = _run(home, tmp_path, ["ingest", str(hostile), "--quiet"])
    assert "Traceback" not in err
    assert code in (0, 1), err
    assert peak - warm < BOUND_KB, f"ingest peaked {peak - warm} KB above its warm {warm} KB"


@pytest.mark.slow
def test_large_well_formed_files_stay_within_a_gigabyte_and_the_chunk_limit(
    home: Path, tmp_path: Path
) -> None:
    sparse = {"BRAIN_EMBEDDER": "none"}
    harmless = tmp_path / "harmless"
    harmless.mkdir()
    (harmless / "note.md").write_text("# Printer\n\nClear the jam.\n", encoding="utf-8")
    code, warm, err = _run(home, tmp_path, ["ingest", str(harmless), "--quiet"], **sparse)
    assert code == 0, err

    _manual, glossary = write_large_kb(tmp_path / "large")
    code, peak, err = _run(home, tmp_path, ["ingest", str(tmp_path / "large")], **sparse)
    assert "Traceback" not in err
    assert code == 1, err  # the glossary is skipped, and the exit code says so
    reason = f"too many chunks ({GLOSSARY_ENTRIES:,} > {MAX_FILE_CHUNKS:,} per file"
    assert f"skipped: {glossary}: {reason}" in err
    assert (tmp_path / "stdout").read_text().startswith("added 1, ")  # the manual
    assert peak - warm < BOUND_KB, f"ingest peaked {peak - warm} KB above its warm {warm} KB"
