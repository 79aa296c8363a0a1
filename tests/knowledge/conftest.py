"""Fixtures of the knowledge tests: one embedder and one sample KB per test process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import KnowledgeConfig, Settings
from core.text.embedder import DenseEmbedder, get_dense_embedder
from knowledge import open_knowledge
from knowledge.skill import KnowledgeSkill


@pytest.fixture(scope="session")
def embedder() -> DenseEmbedder:
    """The real MiniLM embedder, loaded once per test process."""
    loaded = get_dense_embedder()
    assert loaded is not None, "MiniLM must be installed for the knowledge tests"
    loaded.load()
    return loaded


@pytest.fixture(scope="session")
def sample_kb(
    tmp_path_factory: pytest.TempPathFactory, embedder: DenseEmbedder
) -> Iterator[KnowledgeSkill]:
    """The shipped sample KB, ingested on first use into a private home (read-only use)."""
    home = tmp_path_factory.mktemp("sample-home")
    skill = open_knowledge(Settings(home=home))
    yield skill
    skill.close()


def write_config(home: Path, **knowledge: object) -> None:
    """A brain.toml in `home` with a [knowledge] section."""
    KnowledgeConfig.model_validate(knowledge)  # fail early on a typo in a test
    lines = ["[knowledge]"]
    for key, value in knowledge.items():
        rendered = str(value).lower() if isinstance(value, bool) else f'"{value}"'
        lines.append(f"{key} = {rendered}")
    home.mkdir(parents=True, exist_ok=True)
    (home / "brain.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private BRAIN_HOME whose KB starts empty (no sample ingest)."""
    home = tmp_path / "home"
    write_config(home, ingest_sample=False)
    monkeypatch.setenv("BRAIN_HOME", str(home))
    monkeypatch.delenv("BRAIN_CONFIG", raising=False)
    monkeypatch.delenv("BRAIN_QDRANT_URL", raising=False)
    return home


@pytest.fixture
def small_kb(tmp_path: Path) -> Path:
    """A tiny knowledge folder: two Markdown docs, one text file and a glossary."""
    root = tmp_path / "kb"
    (root / "runbooks").mkdir(parents=True)
    (root / "runbooks" / "printer.md").write_text(
        "---\ndomain: incident\n---\n# Printer jams\n\n## Clearing a jam\n\n"
        "Open the front door, remove the jammed paper gently and close the tray.\n\n"
        "## Toner\n\nReplace the toner cartridge when the panel says toner low.\n",
        encoding="utf-8",
    )
    (root / "runbooks" / "vpn.md").write_text(
        "---\ndomain: incident\n---\n# VPN 报错 691\n\nVPN 连不上并提示 691：用户名或密码被拒绝，"
        "请先重置密码再重新连接。\n",
        encoding="utf-8",
    )
    (root / "notes.txt").write_text(
        "Support hours are Monday to Friday 08:00-20:00.\n\nOutside hours call the hotline.\n",
        encoding="utf-8",
    )
    (root / "terms.yaml").write_text(
        "domain: consultation\nglossary:\n  - term: 滚仓\n    aliases: [rollover]\n"
        "    definition: 到期头寸滚动到下一期。\n"
        "id_patterns:\n  - name: asset_tag\n    regex: 'LT-\\d{5}'\n    domain: change\n",
        encoding="utf-8",
    )
    return root
