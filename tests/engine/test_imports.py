"""Each command imports only what it uses: no ML library where nothing is embedded, no PyTorch
where ONNX Runtime embeds, no `anthropic` without an API key.

Every command runs in a fresh interpreter (`cli.main` in a subprocess) on a copy of the fitted
home, and reports which heavy modules ended up in `sys.modules`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.files import copy_tree

#: Libraries that cost seconds to import.
ML = ("torch", "transformers", "sentence_transformers", "onnxruntime", "sklearn")
HEAVY = (*ML, "anthropic")

_PROBE = """
import json, sys
from cli import main
heavy = sys.argv.pop(1).split(",")
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "loaded": [m for m in heavy if m in sys.modules]}), file=sys.stderr)
"""


def _run(home: Path, *args: str, heavy: tuple[str, ...] = HEAVY) -> tuple[str, list[str]]:
    """stdout of `brain ARGS` and the heavy modules it imported."""
    env = {**os.environ, "BRAIN_HOME": str(home), "PYTHONPATH": os.getcwd()}
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, ",".join(heavy), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, None), result.stderr
    return result.stdout, report["loaded"]


@pytest.fixture(scope="module")
def decided(
    tmp_path_factory: pytest.TempPathFactory, fitted_home: Path
) -> tuple[Path, str, list[str]]:
    """A copy of the fitted home holding one decision made by `brain ask`: the home, the
    decision id, and what that `brain ask` imported."""
    home = tmp_path_factory.mktemp("imports") / "home"
    copy_tree(fitted_home, home)
    out, loaded = _run(home, "ask", "VPN error 691 since this morning", "--json")
    return home, json.loads(out)["decision_id"], loaded


def test_ask_embeds_through_onnx_and_imports_no_torch_or_anthropic(
    decided: tuple[Path, str, list[str]],
) -> None:
    loaded = decided[2]
    assert "onnxruntime" in loaded
    assert not {"torch", "transformers", "sentence_transformers", "anthropic"} & set(loaded)


def test_a_warm_ask_loads_the_routing_model_without_scikit_learn(
    decided: tuple[Path, str, list[str]],
) -> None:
    """The saved routing model is plain arrays: loading it imports no scikit-learn (nor the
    scipy.stats it pulls in), the largest import of a warm `brain ask` before, and no joblib
    (its pure-Python unpickler took longer than the rest of the load)."""
    home = decided[0]
    heavy = ("sklearn", "joblib")
    out, loaded = _run(home, "ask", "my laptop will not boot", "--json", heavy=heavy)
    assert json.loads(out)["controller"] is not None
    assert loaded == []


@pytest.mark.parametrize(
    "command",
    [
        ["--help"],
        ["why", "{id}"],
        ["why", "{id}", "--json"],
        ["feedback", "{id}", "--confirm"],
        ["controllers", "--json"],
        ["tickets", "list"],
    ],
)
def test_model_free_commands_import_no_ml_library(
    decided: tuple[Path, str, list[str]], command: list[str]
) -> None:
    home, decision_id, _ = decided
    _, loaded = _run(home, *(part.format(id=decision_id) for part in command))
    assert loaded == []


def test_why_reads_the_log_without_the_decision_chain(
    decided: tuple[Path, str, list[str]],
) -> None:
    """`brain why` is a look-up: not even numpy or the decision chain is imported for it."""
    home, decision_id, _ = decided
    out, loaded = _run(home, "why", decision_id, "--json", heavy=("numpy", "brain.engine"))
    assert loaded == []
    assert json.loads(out)["decision_id"] == decision_id


def test_help_reads_no_configuration(decided: tuple[Path, str, list[str]]) -> None:
    """`brain --help` lists the commands without validating any settings: no pydantic, whose
    import and model building were three quarters of its time."""
    home = decided[0]
    out, loaded = _run(home, "--help", heavy=("pydantic", "numpy", "yaml"))
    assert loaded == []
    assert "why" in out and "ask" in out
