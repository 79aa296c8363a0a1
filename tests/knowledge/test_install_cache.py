"""The install-time export (`scripts/setup`): every fresh home finds it by the model's hash,
a home works without it, and the step is quiet and does nothing when it is already there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.config import Settings, load_settings
from core.text.embedder import DenseEmbedder, _fork_layer, _model_dir, encoder_cache_dir
from core.text.onnx_files import MODEL_SUBDIR, onnx_files


def _settings(home: Path) -> Settings:
    """The settings of `home` with the environment's overrides (the install cache's)."""
    return load_settings({**os.environ, "BRAIN_HOME": str(home)})


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _install(session_cache: Path, target: Path) -> Path:
    """The session's export (and its hash stamp) copied into an install cache, with the model
    files the install step copies beside it when no package ships them (no `tune` extra)."""
    encoder = target / "encoder"
    encoder.mkdir(parents=True)
    for path in session_cache.iterdir():
        if path.suffix in (".onnx", ".json"):
            _link_or_copy(str(path), str(encoder / path.name))
    model = _model_dir()
    if model.name == MODEL_SUBDIR and not (target / MODEL_SUBDIR).exists():  # the install's copy
        shutil.copytree(model, target / MODEL_SUBDIR, copy_function=_link_or_copy)
    return encoder


@pytest.fixture
def install(embedder: DenseEmbedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An install cache holding the export; the session's explicit cache no longer set."""
    session_cache = Path(os.environ["BRAIN_ENCODER_CACHE"])
    assert onnx_files(_model_dir(), session_cache, _fork_layer(_model_dir())).exist()
    encoder = _install(session_cache, tmp_path / "install")
    monkeypatch.delenv("BRAIN_ENCODER_CACHE")
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(tmp_path / "install"))
    return encoder


def test_a_fresh_home_uses_the_install_export(install: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert encoder_cache_dir(_settings(home)) == install
    own = _install(install, home / "models")  # a home's own export comes first
    assert encoder_cache_dir(_settings(home)) == own


def test_an_export_of_other_model_files_is_not_used(install: Path, tmp_path: Path) -> None:
    for graph in install.glob("*.onnx"):
        graph.rename(graph.with_name(graph.name.replace("minilm-", "minilm-0")))
    home = tmp_path / "home"
    assert encoder_cache_dir(_settings(home)) == home / "models" / "encoder"


def test_without_an_install_cache_a_home_exports_its_own(
    install: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_INSTALL_CACHE", str(tmp_path / "nothing-here"))
    home = tmp_path / "home"
    assert encoder_cache_dir(_settings(home)) == home / "models" / "encoder"


def test_the_install_step_is_quiet_and_idempotent(install: Path) -> None:
    before = sorted(p.name for p in install.iterdir())
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    script = Path(__file__).resolve().parents[2] / "scripts" / "export_model.py"
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0 and run.stdout == "" and run.stderr == ""
    probe = "import sys; from core.text.install import export_for_install as e; "
    probe += "print(e(), 'torch' in sys.modules)"
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.stdout.split() == [str(install), "False"], run.stderr  # nothing re-exported
    assert sorted(p.name for p in install.iterdir()) == before
