"""Slack message links on PostgreSQL, with look-ups for the replica that did not post them.

A reaction or a click can reach any replica; the one that posted the message remembers its
link in memory, the others ask the database (`LinkLookup`).
"""

from __future__ import annotations

from core.stores.kinds import MessageLinkRecords, link_key
from core.stores.postgres.collection import PgCollection, Pool, loaded
from core.stores.records import MessageLink

COLLECTION = "slack/messages"


class PgMessageLinks(MessageLinkRecords):
    """`MessageLinkStore` plus `lookup` by message or thread."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        super().__init__(PgCollection(pool, COLLECTION, key=link_key))

    def lookup(self, channel: str, ts: str, *, thread: bool) -> MessageLink | None:
        """The link of message (channel, ts); with `thread`, else the latest link of the
        thread rooted at ts."""
        exact = self._collection.get(link_key({"channel": channel, "ts": ts}))
        if exact is not None:
            return MessageLink.from_dict(exact)
        if not thread:
            return None
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT doc FROM records WHERE collection = %s AND doc ->> 'channel' = %s "
                "AND doc ->> 'thread_ts' = %s ORDER BY (doc ->> 'ts')::numeric DESC LIMIT 1",
                (COLLECTION, channel, ts),
            ).fetchone()
        return None if row is None else MessageLink.from_dict(loaded(row[0]))
