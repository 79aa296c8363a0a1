"""Markers for tests that need an optional extra: skipped, saying which, where it is absent."""

from __future__ import annotations

from importlib.util import find_spec

import pytest


def _installed(*modules: str) -> bool:
    try:
        return all(find_spec(module) is not None for module in modules)
    except (ImportError, ValueError):
        return False


#: Is the `tune` extra (PyTorch and its exporters) installed?
TORCH_INSTALLED = _installed("torch", "transformers", "sentence_transformers", "onnx")
#: Tuning the encoder, the torch engine and exporting MiniLM need PyTorch (the `tune` extra).
needs_torch = pytest.mark.skipif(
    not TORCH_INSTALLED,
    reason="needs PyTorch: the `tune` extra (pip install -e '.[tune]') is not installed",
)
