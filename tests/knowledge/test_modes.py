"""Sparse-only mode, the store lock across processes, the CLI surface, the query cache."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli import main
from core.config import load_settings
from core.text.embedder import get_dense_embedder
from knowledge import open_knowledge


def test_sparse_only_mode_still_finds_things(
    empty_home: Path,
    small_kb: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    with caplog.at_level(logging.WARNING, logger="core.text.embedder"):
        assert get_dense_embedder() is None
    skill = open_knowledge(load_settings())
    try:
        assert not skill.store.has_dense
        assert skill.ingest([small_kb], progress=False).exit_code == 0
        assert Path(skill.search("paper jam in the printer", k=1)[0].source).name == "printer.md"
        assert Path(skill.search("VPN 连不上 691", k=1)[0].source).name == "vpn.md"
        assert skill.search("VPN 连不上 691", k=1)[0].score > 0.3
        assert skill.define("rollover") is not None
    finally:
        skill.close()


@pytest.mark.parametrize(
    "command", [["kb", "search", "printer"], ["ingest", "{kb}"]], ids=["kb-search", "ingest"]
)
def test_second_process_gets_a_clear_lock_message(
    empty_home: Path, small_kb: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    holder = open_knowledge(load_settings())
    try:
        env = {**os.environ, "BRAIN_HOME": str(empty_home), "BRAIN_EMBEDDER": "none"}
        argv = [part.format(kb=small_kb) for part in command]
        result = subprocess.run(
            [sys.executable, "-m", "brain", *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    finally:
        holder.close()
    assert result.returncode == 3
    assert "in use" in result.stderr and "BRAIN_QDRANT_URL" in result.stderr
    assert str(os.getpid()) in result.stderr  # who holds it
    assert "Traceback" not in result.stderr


def test_cli_search_and_define_json(
    empty_home: Path,
    small_kb: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    assert main(["ingest", str(small_kb), "--quiet"]) == 0
    assert "added 4" in capsys.readouterr().out

    assert main(["kb", "search", "toner cartridge", "--json", "-k", "2"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert 1 <= len(hits) <= 2
    assert {"source", "title", "text", "score"} <= set(hits[0])
    assert Path(hits[0]["source"]).name == "printer.md"

    assert main(["kb", "search", "toner", "--domain", "change", "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == []

    assert main(["kb", "define", "rollover", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["term"] == "滚仓"
    assert main(["kb", "define", "qqqzzz"]) == 1
    assert "no glossary entry" in capsys.readouterr().err

    assert main(["kb", "search", "printer jam"]) == 0
    assert "printer.md" in capsys.readouterr().out


def test_help_lists_the_knowledge_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    listed = set(re.findall(r"^    ([a-z]+) {2,}\S", out, re.MULTILINE))  # "    kb   knowledge…"
    assert {"ingest", "kb"} <= listed, out


def test_a_missing_model_package_stops_with_its_name_and_sparse_runs_when_chosen(
    small_kb: Path, tmp_path: Path
) -> None:
    script = (
        "import sys; sys.modules['onnxruntime'] = None\n"
        "from core.config import KnowledgeConfig, Settings\n"
        "from knowledge import open_knowledge\n"
        "from core.text.embedder import EmbedderMissing, get_dense_embedder\n"
        "try:\n"
        "    get_dense_embedder()\n"
        "except EmbedderMissing as exc:\n"
        "    print('missing:', exc, file=sys.stderr)\n"
        "else:\n"
        "    raise SystemExit('no error without onnxruntime')\n"
        f"home = {str(tmp_path / 'home')!r}\n"
        "config = KnowledgeConfig(ingest_sample=False, embedder='none')\n"
        "skill = open_knowledge(Settings(home=home, knowledge=config))\n"
        f"skill.ingest([{str(small_kb)!r}], progress=False)\n"
        "print(skill.search('paper jam', k=1)[0].source)\n"
        "skill.close()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("printer.md")
    missing = [line for line in result.stderr.splitlines() if line.startswith("missing:")]
    assert len(missing) == 1 and "onnxruntime" in missing[0]
    assert "BRAIN_EMBEDDER=none" in missing[0]
    warnings = [line for line in result.stderr.splitlines() if "dense embedder unavailable" in line]
    assert len(warnings) == 1 and "disabled by configuration" in warnings[0]


def test_primed_and_cleared_query_vectors_are_the_model_s() -> None:
    embedder = get_dense_embedder()
    assert embedder is not None
    texts = ["vpn drops every ten minutes", "打印机卡纸了"]
    fresh = embedder.embed(texts)
    embedder.clear_cache()
    embedder.prime([*texts, texts[0]])
    for text, vector in zip(texts, fresh, strict=True):
        cached = embedder.embed_query(text)
        assert np.allclose(cached, vector, atol=1e-5)
        assert not cached.flags.writeable  # shared by every caller
    embedder.clear_cache()
    assert np.allclose(embedder.embed_query(texts[1]), fresh[1], atol=1e-5)
