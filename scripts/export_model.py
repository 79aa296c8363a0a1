"""Install step (`scripts/setup`): export MiniLM to ONNX once, for every home.

The graphs go to the installation's cache (`<venv>/share/brain/encoder`, or
BRAIN_INSTALL_CACHE), checked against PyTorch and named by the model files' hash, where every
home finds them. PyTorch is not installed in the environment: the export runs in a throwaway
build environment that has it (`core.text.install`). Idempotent and quiet: when the export is
there, it prints nothing; when it cannot be made, it says why on one line and exits 1.

Run: .venv/bin/python scripts/export_model.py (the same as `python -m core.text.install`)
"""

from __future__ import annotations

import sys

from core.text.install import main

if __name__ == "__main__":
    sys.exit(main())
