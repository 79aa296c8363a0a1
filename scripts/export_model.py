"""Install step (`scripts/setup`): export MiniLM to ONNX once, for every home.

Without it each fresh `BRAIN_HOME` exports its own copy on first use (about 10 s of PyTorch).
Here the export goes to the installation's cache (`core.text.embedder.install_cache_dir`:
`<venv>/share/brain/encoder`, or BRAIN_INSTALL_CACHE), checked against PyTorch and named by the
model files' hash, where every home finds it. Idempotent and quiet: when the export is there,
it prints nothing; when it cannot be made, the homes export on first use as before.

Run: .venv/bin/python scripts/export_model.py
"""

from __future__ import annotations

import logging
import sys

from core.progress import PROGRESS_LOGGER
from core.text.embedder import export_for_install


def main() -> int:
    """Export if missing; never fails the setup (a home can still export on first use)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    for name in (PROGRESS_LOGGER, "core.text.embedder"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    try:
        export_for_install()
    except Exception as exc:  # the setup goes on: homes export on first use
        print(f"MiniLM not exported at install time: {exc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
