"""A write costs the same however many records the store holds ("creating a ticket
takes 1.5 ms on a fresh store and 97 ms at 1,218 tickets", because the whole `tickets.json`
was rewritten and fsynced each time).

Time is not measured (the machine is shared and noisy): what a write costs is the bytes it
rewrites on disk, and those must not grow with the store. `benchmarks/stores.py` times the
same up to 100k records.
"""

from __future__ import annotations

from pathlib import Path

from controllers.tickets import TicketStore
from core.config import load_settings

#: Tickets already in the store when the measured one is created (the old one-file store
#: rewrote about 120 KB for the next ticket at this size).
STORED = 300
#: Bytes one new ticket may rewrite: its bucket file and the id sequence.
ONE_WRITE_BYTES = 4096


def _contents(home: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in home.rglob("*") if path.is_file()}


def _written(before: bytes | None, after: bytes) -> int:
    """Bytes written to turn `before` into `after`: what was appended to an append-only file
    (a journal), else the whole file."""
    if before is not None and after.startswith(before):
        return len(after) - len(before)
    return len(after)


def _rewritten_bytes(home: Path, write: object) -> int:
    """Bytes `write()` wrote under `home`: new and rewritten files whole, journals' appends."""
    before = _contents(home)
    write()  # type: ignore[operator]
    after = _contents(home)
    changed = [(before.get(path), data) for path, data in after.items() if before.get(path) != data]
    return sum(_written(old, new) for old, new in changed)


def test_a_new_ticket_rewrites_the_same_few_bytes_at_300_tickets_as_at_1(
    isolated_env: Path,
) -> None:
    store = TicketStore.open(load_settings())
    try:

        def create(n: int) -> None:
            store.create(
                "incident",
                title=f"VPN error 691 on laptop LT-{n:04d}",
                requester=f"U{n:07d}",
                fields={"description": "the client says the password was refused " * 4},
            )

        create(0)
        first = _rewritten_bytes(isolated_env, lambda: create(1))
        for n in range(2, STORED):
            create(n)
        # Fold the journal into the buckets first, so a background fold (every 256 lines: the
        # acknowledged write's deferred work) does not land in the measured write.
        store.records.flush()
        stored = sum(len(data) for data in _contents(isolated_env).values())
        later = _rewritten_bytes(isolated_env, lambda: create(STORED))
    finally:
        store.release()
    assert stored > 25 * ONE_WRITE_BYTES  # the store is big enough for a rewrite to show
    assert first <= ONE_WRITE_BYTES
    assert later <= ONE_WRITE_BYTES, f"one ticket rewrote {later:,} of {stored:,} bytes"
