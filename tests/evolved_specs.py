"""An evolved controller waiting for approval, as the dynamic tier writes one: what the tests
of approving (the console, a running brain, `brain controllers approve`) start from."""

from __future__ import annotations

from pathlib import Path

from controllers.evolved import EvolvedSpec, write_spec

#: The pending controller's name.
PENDING = "printer_toner"


def write_pending(home: Path) -> str:
    """Write the pending evolved controller `PENDING` into `home`; returns its name."""
    write_spec(
        home,
        EvolvedSpec(
            name=PENDING,
            description="Printer toner replacement",
            keywords=["toner"],
            examples=["the printer on floor 2 needs toner", "toner empty on floor 3"],
            status="pending",
        ),
    )
    return PENDING
