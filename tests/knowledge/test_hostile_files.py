"""Hostile knowledge files through `brain ingest`: alias bombs, backtracking regexes, links.

Each one used to cost gigabytes, seconds per message or a leaked file; each is now skipped
with a reason the admin can act on, and everything else in the folder is still ingested.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main
from core.text.embedder import DenseEmbedder


def _alias_bomb(levels: int, width: int = 10) -> str:
    """A glossary whose definition is `width ** levels` strings, written in a few hundred
    bytes through nested aliases (a smaller "billion laughs")."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        refs = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"l{level}: &l{level} [{refs}]")
    lines.append(f"glossary:\n  - term: bomb\n    definition: *l{levels - 1}")
    return "\n".join(lines) + "\n"


def _ingest(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, dict]:
    code = main(["ingest", *map(str, paths), "--json", "--quiet"])
    return code, json.loads(capsys.readouterr().out)


def _reasons(report: dict) -> dict[str, str]:
    return {Path(item["path"]).name: item["reason"] for item in report["skipped"]}


def test_yaml_alias_bombs_are_refused_and_the_rest_is_ingested(
    empty_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], embedder: DenseEmbedder
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    bomb = _alias_bomb(levels=5)  # 10^5 strings once expanded, under 600 bytes
    assert len(bomb) < 600
    (docs / "bomb.yaml").write_text(bomb, encoding="utf-8")
    many = "x: &x lol\nglossary:\n  - term: many\n    definition: " + (
        "[" + ", ".join(["*x"] * 60) + "]\n"
    )
    (docs / "many_aliases.yaml").write_text(many, encoding="utf-8")
    deep = "glossary:\n  - term: deep\n    definition: " + "[" * 200 + "]" * 200 + "\n"
    (docs / "deep.yaml").write_text(deep, encoding="utf-8")
    front = "---\nd: &d [a, a]\ne: [" + ", ".join(["*d"] * 60) + "]\n---\n# Front\n\nText.\n"
    (docs / "front.md").write_text(front, encoding="utf-8")
    (docs / "fine.yaml").write_text(
        "base: &base {domain: consultation}\nglossary:\n"
        "  - {<<: *base, term: rollover, definition: Moving a position to the next period.}\n",
        encoding="utf-8",
    )

    code, report = _ingest(capsys, docs)

    reasons = _reasons(report)
    assert code == 1
    assert "refused YAML: its aliases expand" in reasons["bomb.yaml"]
    assert "aliases" in reasons["many_aliases.yaml"]
    assert "nested deeper" in reasons["deep.yaml"]
    assert "refused front matter" in reasons["front.md"]
    assert report["added"] == [str(docs / "fine.yaml")]


def test_regex_with_nested_quantifiers_is_refused_at_ingest(
    empty_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], embedder: DenseEmbedder
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "redos.yaml").write_text(
        "id_patterns:\n  - name: evil\n    regex: '(a+)+x'\n    domain: ticket\n",
        encoding="utf-8",
    )
    (docs / "long.yaml").write_text(
        f"id_patterns:\n  - name: long\n    regex: '{'a' * 600}'\n", encoding="utf-8"
    )
    (docs / "ok.yaml").write_text(
        "id_patterns:\n  - name: asset\n    regex: 'LT-\\d{5}'\n    domain: change\n",
        encoding="utf-8",
    )

    code, report = _ingest(capsys, docs)

    reasons = _reasons(report)
    assert code == 1
    assert "id pattern evil: nested quantifiers" in reasons["redos.yaml"]
    assert "longer than" in reasons["long.yaml"]
    assert report["added"] == [str(docs / "ok.yaml")]


def test_symbolic_links_are_not_followed(
    empty_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], embedder: DenseEmbedder
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("root:x:0:0:the secret outside the folder\n", encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "runbook.md").write_text("# Printer\n\nClear the jam gently.\n", encoding="utf-8")
    (docs / "passwd.txt").symlink_to(secret)
    (docs / "linked-folder").symlink_to(outside, target_is_directory=True)
    direct_link = tmp_path / "direct.txt"
    direct_link.symlink_to(secret)

    code, report = _ingest(capsys, docs, direct_link)

    reasons = _reasons(report)
    assert code == 1
    assert report["added"] == [str(docs / "runbook.md")]
    assert "symbolic link" in reasons["passwd.txt"]
    assert "symbolic link" in reasons["direct.txt"]
    assert "symbolic link" in reasons.get("linked-folder", ""), reasons
    assert not any(str(outside) in item["path"] for item in report["skipped"])  # not walked
    # The search works on what was ingested ...
    assert main(["kb", "search", "printer jam", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert str(docs / "runbook.md") in {hit["source"] for hit in found}
    # ... and nothing it returns came from behind a link.
    main(["kb", "search", "the secret outside the folder", "--json"])
    hits = json.loads(capsys.readouterr().out or "[]")
    assert {hit["source"] for hit in hits} <= {str(docs / "runbook.md")}
    assert not any("secret" in hit["text"] for hit in hits)
