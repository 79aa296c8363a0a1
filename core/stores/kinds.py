"""The per-kind stores, written once over any backend's `Collection`.

Each class turns the kind's typed calls into keyed documents; what makes them durable, atomic
and safe across processes is the backend's collection.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from core.stores.lesson import Lesson
from core.stores.protocols import Collection, Document, LessonDocuments
from core.stores.records import Alert, ManifestEntry, MessageLink, Ticket

#: The document holding the ticket id sequence in the tickets' counter collection.
SEQUENCE_KEY = "sequence"


def field_key(name: str) -> Callable[[Mapping[str, Any]], str]:
    """A key function reading one field of the document."""

    def key(document: Mapping[str, Any]) -> str:
        return str(document[name])

    return key


def link_key(document: Mapping[str, Any]) -> str:
    """A Slack message is identified by its channel and ts."""
    return f"{document['channel']}\x1f{document['ts']}"


def names(row: Mapping[str, Any], value: str) -> bool:
    """Does a ticket's document name `value`: a text field equal to it, or a title that
    contains it (case and surrounding spaces aside)?"""
    wanted = value.strip().lower()
    fields = row.get("fields") or {}
    if any(isinstance(v, str) and v.strip().lower() == wanted for v in fields.values()):
        return True
    return wanted in str(row.get("title") or "").lower()


class TicketCollection:
    """Tickets keyed by id, and a counter collection for local id numbers; a ticket is a
    document only here."""

    def __init__(self, tickets: Collection, counters: Collection) -> None:
        self._tickets = tickets
        self._counters = counters
        #: (the collection's view it was built from, requester -> their documents).
        self._by_requester: tuple[Sequence[Mapping[str, Any]], dict[str, list[Any]]] | None = None

    def get(self, ticket_id: str) -> Ticket | None:
        row = self._tickets.get(ticket_id)
        return None if row is None else Ticket.from_dict(row)

    def all(self) -> list[Ticket]:
        return [Ticket.from_dict(row) for row in self._tickets.all()]

    def by_requester(self, requester: str) -> list[Ticket]:
        """The requester's tickets, from an index by requester over the collection's view,
        built again only when the view changed (a write by any process): the ticket look-ups
        of every message read and copied every ticket."""
        rows = self._tickets.view()
        index = self._by_requester
        if index is None or index[0] is not rows:
            by: dict[str, list[Any]] = {}
            for row in rows:
                by.setdefault(str(row.get("requester")), []).append(row)
            self._by_requester = index = (rows, by)
        return [Ticket.from_dict(copy.deepcopy(row)) for row in index[1].get(requester, [])]

    def mentioning(self, value: str) -> list[Ticket]:
        """The tickets with a text field equal to `value` or a title containing it (case
        aside), read over the collection's view: only the matches are copied, where a look-up
        of an asset tag made a Ticket of every ticket on each message."""
        return [
            Ticket.from_dict(copy.deepcopy(row))
            for row in self._tickets.view()
            if names(row, value)
        ]

    def insert(self, ticket: Ticket) -> bool:
        return self._tickets.insert(ticket.to_dict())

    def modify(self, ticket_id: str, change: Callable[[Ticket], None]) -> Ticket | None:
        row = self._tickets.modify(ticket_id, typed_change(Ticket.from_dict, change))
        return None if row is None else Ticket.from_dict(row)

    def flush(self) -> None:
        """Flush the collection and let go of the index over its last view (a forget
        flushes: no earlier version of a ticket stays in memory)."""
        self._tickets.flush()
        self._by_requester = None

    def next_number(self) -> int:
        """Atomic increment of the stored sequence (created at 1 on first use)."""

        def bump(document: Document) -> None:
            document["value"] = int(document.get("value", 0)) + 1

        self._counters.insert({"key": SEQUENCE_KEY, "value": 0})
        counter = self._counters.modify(SEQUENCE_KEY, bump)
        assert counter is not None  # inserted just above if it was missing
        return int(counter["value"])


class _Record(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=_Record)


def typed_change(
    read: Callable[[Mapping[str, Any]], R], change: Callable[[R], None]
) -> Callable[[Document], None]:
    """A document-level change that applies `change` to the typed record and writes the
    record back whole (the collection's read-modify-write stays atomic)."""

    def apply(document: Document) -> None:
        record = read(document)
        change(record)
        document.clear()
        document.update(record.to_dict())

    return apply


#: Lesson changes remembered by the lessons' change feed; a reader further behind reloads all.
LESSON_FEED_KEEP = 512


class LessonRecords:
    """Routing lessons keyed by "memory_id", with a change feed every process can follow.

    Every write also bumps one small counter document that lists the keys of the latest
    changes, so a running process sees lessons written by another one (`brain feedback` while
    the bot runs) by reading one small document per decision instead of every lesson.
    """

    def __init__(self, lessons: Collection, feed: Collection) -> None:
        self._lessons = lessons
        self._feed = feed

    def get(self, key: str) -> Document | None:
        return self._lessons.get(key)

    def all(self) -> list[Document]:
        return self._lessons.all()

    def count(self) -> int:
        return self._lessons.count()

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        rows = [dict(document) for document in documents]
        if rows:
            self._lessons.put_many(rows)
            self._note(str(row["memory_id"]) for row in rows)

    def remove(self, keys: Iterable[str]) -> None:
        wanted = list(keys)
        if wanted:
            self._lessons.remove(wanted)
            self._note(wanted)

    def version(self) -> int:
        """How many changes were ever made (0 for a new store)."""
        row = self._feed.get(SEQUENCE_KEY)
        return 0 if row is None else int(row.get("value", 0))

    def changed_since(self, version: int) -> tuple[int, list[str] | None]:
        """(current version, keys changed after `version`), or None for the keys when the
        feed no longer reaches back that far (the reader then reads `all()`)."""
        row = self._feed.get(SEQUENCE_KEY) or {}
        current = int(row.get("value", 0))
        if current == version:
            return current, []
        recent = [(int(seq), str(key)) for seq, key in row.get("recent", [])]
        if current < version or not recent or recent[0][0] > version + 1:
            return current, None
        return current, sorted({key for seq, key in recent if seq > version})

    def _note(self, keys: Iterable[str]) -> None:
        changed = list(keys)

        def bump(document: Document) -> None:
            value = int(document.get("value", 0))
            recent = list(document.get("recent", []))
            for offset, key in enumerate(changed, start=1):
                recent.append([value + offset, key])
            document["value"] = value + len(changed)
            document["recent"] = recent[-LESSON_FEED_KEEP:]

        self._feed.insert({"key": SEQUENCE_KEY, "value": 0, "recent": []})
        self._feed.modify(SEQUENCE_KEY, bump)


class Lessons:
    """The typed `LessonStore` over a backend's `LessonDocuments`: a lesson is a document only
    below this class."""

    def __init__(self, documents: LessonDocuments) -> None:
        #: The backend's own store (e.g. TinyDB's journal in front of `LessonRecords`).
        self.documents = documents

    def get(self, key: str) -> Lesson | None:
        row = self.documents.get(key)
        return None if row is None else Lesson.from_doc(row)

    def all(self) -> list[Lesson]:
        return [Lesson.from_doc(row) for row in self.documents.all()]

    def count(self) -> int:
        return self.documents.count()

    def put_many(self, lessons: Iterable[Lesson]) -> None:
        self.documents.put_many(lesson.to_doc() for lesson in lessons)

    def remove(self, keys: Iterable[str]) -> None:
        self.documents.remove(keys)

    def version(self) -> int:
        return self.documents.version()

    def changed_since(self, version: int) -> tuple[int, list[str] | None]:
        return self.documents.changed_since(version)


class EventLedgerRecords:
    """Claimed Slack event keys with their claim time."""

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def recent(self, limit: int) -> list[tuple[str, float]]:
        rows = sorted(self._collection.all(), key=lambda row: float(row.get("at", 0.0)))
        return [(str(row["key"]), float(row.get("at", 0.0))) for row in rows[-limit:]]

    def record(self, claimed: Iterable[tuple[str, float]], *, keep: int) -> None:
        rows = [{"key": key, "at": at} for key, at in claimed]
        if not rows:
            return
        self._collection.put_many(rows)
        if self._collection.count() > keep * 1.2:
            stale = sorted(self._collection.all(), key=lambda row: float(row.get("at", 0.0)))
            self._collection.remove(str(row["key"]) for row in stale[:-keep])


class MessageLinkRecords:
    """Slack message -> decision links."""

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def all(self) -> list[MessageLink]:
        return [MessageLink.from_dict(row) for row in self._collection.all()]

    def add_many(self, links: Iterable[MessageLink]) -> None:
        self._collection.put_many(link.to_dict() for link in links)


class AlertRecords:
    """On-call alerts keyed by alert id; an alert is a document only here."""

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def get(self, alert_id: str) -> Alert | None:
        row = self._collection.get(alert_id)
        return None if row is None else Alert.from_dict(row)

    def save(self, alert: Alert) -> None:
        self._collection.put_many([alert.to_dict()])

    def modify(self, alert_id: str, change: Callable[[Alert], None]) -> Alert | None:
        row = self._collection.modify(alert_id, typed_change(Alert.from_dict, change))
        return None if row is None else Alert.from_dict(row)

    def pending(self) -> list[Alert]:
        return [alert for alert in self.all() if alert.acknowledged_by is None]

    def all(self) -> list[Alert]:
        return [Alert.from_dict(row) for row in self._collection.all()]


class ManifestRecords:
    """Ingested source files keyed by absolute path."""

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def get(self, source: str) -> ManifestEntry | None:
        row = self._collection.get(source)
        return None if row is None else ManifestEntry.from_dict(row)

    def put(self, entry: ManifestEntry) -> None:
        self._collection.put_many([entry.to_dict()])

    def remove(self, source: str) -> None:
        self._collection.remove([source])

    def all(self) -> list[ManifestEntry]:
        return [ManifestEntry.from_dict(row) for row in self._collection.all()]

    def clear(self) -> None:
        self._collection.clear()

    def count(self) -> int:
        return self._collection.count()
