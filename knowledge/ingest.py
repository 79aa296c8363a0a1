"""`brain ingest`: files and folders into the store, idempotently.

A manifest records each file's content digest and chunk ids. Unchanged files are skipped
without re-embedding; a changed file's chunks are replaced; a file that is gone from an
ingested folder has its chunks removed. Files that cannot be used are skipped with a reason
and everything else is still ingested; a skipped file keeps whatever it had stored before.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.limits import MAX_FILE_CHUNKS
from knowledge.chunk import Chunk
from knowledge.manifest import DocManifest, ManifestEntry
from knowledge.parsing import (
    CHUNKER_VERSION,
    MAX_FILE_BYTES,
    SUPPORTED,
    Document,
    SkipFile,
    decode,
    parse,
)

if TYPE_CHECKING:
    from knowledge.store import KnowledgeStore

#: Chunks embedded and written together (the most an ingest holds at once).
FLUSH_CHUNKS = 256


def content_digest(data: bytes) -> str:
    """The manifest's digest of a file's bytes (with the chunker's version: a new chunker
    re-ingests every file). The console compares it with the file on disk now."""
    return hashlib.sha256(CHUNKER_VERSION.encode() + b"\0" + data).hexdigest()


@dataclass(frozen=True, slots=True)
class Skipped:
    """A path that was not ingested, and why; `error` is False for ignorable ones."""

    path: str
    reason: str
    error: bool = True


@dataclass(slots=True)
class IngestReport:
    """What one ingest run did."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    chunks_written: int = 0
    chunks_removed: int = 0
    seconds: float = 0.0

    @property
    def errors(self) -> list[Skipped]:
        """Skips that the exit code reports."""
        return [item for item in self.skipped if item.error]

    @property
    def exit_code(self) -> int:
        """0 when every given path was usable, 1 when something was skipped for an error."""
        return 1 if self.errors else 0

    @property
    def chunks_per_second(self) -> float:
        """Write throughput of this run."""
        return self.chunks_written / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary."""
        return {
            "added": self.added,
            "updated": self.updated,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "skipped": [
                {"path": item.path, "reason": item.reason, "error": item.error}
                for item in self.skipped
            ],
            "chunks_written": self.chunks_written,
            "chunks_removed": self.chunks_removed,
            "seconds": round(self.seconds, 3),
            "exit_code": self.exit_code,
        }


@dataclass(slots=True)
class _Pending:
    """A file being written: its chunks' ids so far (its manifest entry once all are in)."""

    source: str
    digest: str
    document: Document
    previous: ManifestEntry | None
    chunk_ids: list[str] = field(default_factory=list)


class Ingestor:
    """Ingests paths into one store, keeping the manifest in step.

    Chunks stream from parsing to embedding to the store in batches of FLUSH_CHUNKS (small
    files share a batch), so memory is bounded by a batch, not by a file. A file's manifest
    entry is written only after its last chunk is: an ingest stopped halfway leaves the file
    unrecorded (or recorded with its earlier state), so the next ingest redoes it. A file that
    would yield more than `max_file_chunks` chunks is skipped before anything of it is embedded.
    """

    def __init__(
        self,
        store: KnowledgeStore,
        manifest: DocManifest,
        *,
        max_file_chunks: int = MAX_FILE_CHUNKS,
    ) -> None:
        self.store = store
        self.manifest = manifest
        self.max_file_chunks = max_file_chunks
        self._batch: list[Chunk] = []
        self._done: list[_Pending] = []
        if len(manifest) and store.count() == 0:
            manifest.clear()  # the store was wiped: the manifest describes nothing any more

    def ingest(self, paths: Sequence[Path], *, progress: bool | None = None) -> IngestReport:
        """Ingest files and folders; see the module docstring."""
        started = time.perf_counter()
        self._batch, self._done = [], []  # nothing of an earlier, failed run is recorded
        work = plan(paths, self.manifest)
        report = work.report
        for entry in work.stale:
            self._remove(entry, report)
        show = progress if progress is not None else sys.stderr.isatty()
        bar = _chunk_bar() if show and work.files else None
        for path in work.files:
            item = self._prepare(path, report)
            if item is None:
                continue
            for chunk in item.document:
                item.chunk_ids.append(chunk.chunk_id)
                self._batch.append(chunk)
                if len(self._batch) >= FLUSH_CHUNKS:
                    self._flush(report, bar)
            self._done.append(item)
        self._flush(report, bar)
        if bar is not None:
            bar.close()
        report.seconds = time.perf_counter() - started
        return report

    def _remove(self, entry: ManifestEntry, report: IngestReport) -> None:
        self.store.delete(list(entry.chunk_ids))
        self.manifest.remove(entry.source)
        report.removed.append(entry.source)
        report.chunks_removed += len(entry.chunk_ids)

    def _prepare(self, path: Path, report: IngestReport) -> _Pending | None:
        source = str(path)
        try:
            data = _read_regular_file(path)
        except SkipFile as exc:
            report.skipped.append(Skipped(source, str(exc)))
            return None
        except OSError as exc:
            reason = SYMLINK_REASON if exc.errno == errno.ELOOP else exc.strerror or str(exc)
            report.skipped.append(Skipped(source, f"cannot read: {reason}"))
            return None
        digest = content_digest(data)
        previous = self.manifest.get(source)
        if (
            previous is not None
            and previous.digest == digest
            and previous.dense == self.store.has_dense
        ):
            report.unchanged.append(source)
            return None
        try:
            document = parse(path, decode(path, data), source)
        except SkipFile as exc:
            report.skipped.append(Skipped(source, str(exc)))
            return None
        if len(document) > self.max_file_chunks:
            report.skipped.append(
                Skipped(source, too_many_chunks(len(document), self.max_file_chunks))
            )
            return None
        return _Pending(source, digest, document, previous)

    def _flush(self, report: IngestReport, bar: Any = None) -> None:
        """Write the batch, then record the files whose last chunk was in it."""
        if self._batch:
            self.store.upsert(self._batch)
            if bar is not None:
                bar.update(len(self._batch))
            report.chunks_written += len(self._batch)
            self._batch = []
        for item in self._done:
            if item.previous is not None:
                kept = set(item.chunk_ids)
                self.store.delete([old for old in item.previous.chunk_ids if old not in kept])
                report.updated.append(item.source)
            else:
                report.added.append(item.source)
            self.manifest.put(
                ManifestEntry(
                    item.source,
                    item.digest,
                    tuple(item.chunk_ids),
                    self.store.has_dense,
                    ingested_at=datetime.now(UTC).isoformat(timespec="seconds"),
                )
            )
        self._done = []


def too_many_chunks(count: int, limit: int) -> str:
    """Why a file over the chunk limit is skipped, and what to do about it."""
    return (
        f"too many chunks ({count:,} > {limit:,} per file, [knowledge] max_file_chunks): "
        "split the file, or raise the limit if embedding it all is worth the time"
    )


#: Why a symbolic link (or a file reached through one) is not ingested.
SYMLINK_REASON = "symbolic link: not followed (ingest the file it points to by its own path)"


@dataclass(slots=True)
class IngestPlan:
    """Files to read and manifest entries to remove, found without touching the store."""

    files: list[Path]
    stale: list[ManifestEntry]
    report: IngestReport

    @property
    def empty(self) -> bool:
        """Nothing to read and nothing to remove: the store need not be opened."""
        return not self.files and not self.stale


def plan(paths: Sequence[Path], manifest: DocManifest) -> IngestPlan:
    """Expand paths into supported files; sources gone from the given paths become stale.

    Hidden files and folders are ignored; other unsupported files are reported as ignored
    (not an error); missing paths, explicit unsupported files and empty folders are errors.
    """
    work = IngestPlan([], [], IngestReport())
    stale: dict[str, ManifestEntry] = {}
    for raw in paths:
        path = Path(raw).expanduser().absolute()
        found = _expand(path, work.report)
        present = {str(item) for item in found or []}
        for entry in manifest.under(path):
            if entry.source not in present:
                stale[entry.source] = entry
        if found is None and not manifest.under(path):
            work.report.skipped.append(Skipped(str(path), "no such file or folder"))
        work.files.extend(found or [])
    work.files = list(dict.fromkeys(work.files))
    work.stale = list(stale.values())
    return work


def chunk_texts(paths: Sequence[Path]) -> list[str]:
    """The texts an ingest of `paths` embeds, in order (files that would be skipped give
    none): what the build step precomputes vectors for, and what benchmarks embed."""
    texts: list[str] = []
    for raw in paths:
        for path in _expand(Path(raw).expanduser().absolute(), IngestReport()) or []:
            try:
                data = _read_regular_file(path)
                texts += [chunk.text for chunk in parse(path, decode(path, data), str(path))]
            except (SkipFile, OSError):
                continue
    return texts


def _read_regular_file(path: Path) -> bytes:
    """The bytes of `path`, opened without following a symbolic link (it may have become one
    since the folder was listed) and read no further than the size limit."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(descriptor, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise SkipFile(f"too large ({size / 2**20:.1f} MiB > {MAX_FILE_BYTES / 2**20:.0f} MiB)")
        return handle.read(MAX_FILE_BYTES + 1)


def _linked(candidate: Path, real_root: Path, relative: tuple[str, ...]) -> bool:
    """Is `candidate` a symbolic link, or reached through one (its real path is not where
    its name says inside the ingested folder)?"""
    return candidate.is_symlink() or candidate.resolve() != real_root.joinpath(*relative)


def _expand(path: Path, report: IngestReport) -> list[Path] | None:
    """Supported files at `path` (None when it does not exist).

    Symbolic links are never followed: a link in a knowledge folder (`passwd.txt ->
    /etc/passwd`) would serve whatever it points to to every user of the bot.
    """
    if path.is_symlink():
        report.skipped.append(Skipped(str(path), SYMLINK_REASON))
        return []
    if not path.exists():
        return None
    if path.is_file():
        if path.suffix.lower() not in SUPPORTED:
            report.skipped.append(Skipped(str(path), _unsupported(path)))
            return []
        return [path]
    if not path.is_dir():
        report.skipped.append(Skipped(str(path), "not a regular file or folder"))
        return []
    found: list[Path] = []
    real_root = path.resolve()
    for candidate in sorted(path.rglob("*")):
        relative = candidate.relative_to(path).parts
        if any(part.startswith(".") for part in relative):
            continue
        if _linked(candidate, real_root, relative):
            if candidate.is_symlink() or candidate.is_file():
                report.skipped.append(Skipped(str(candidate), SYMLINK_REASON))
            continue
        if not candidate.is_file():
            continue
        if candidate.suffix.lower() in SUPPORTED:
            found.append(candidate)
        else:
            report.skipped.append(Skipped(str(candidate), _unsupported(candidate), False))
    if not found:
        report.skipped.append(
            Skipped(str(path), f"empty folder: no {', '.join(sorted(SUPPORTED))} files")
        )
    return found


def _unsupported(path: Path) -> str:
    return f"unsupported file type {path.suffix or '(none)'} (use {', '.join(sorted(SUPPORTED))})"


def _chunk_bar() -> Any:
    """A progress bar on stderr counting chunks embedded and written (the slow part; reading
    files is not)."""
    from tqdm import tqdm

    return tqdm(desc="ingest: chunks embedded", unit="chunk", file=sys.stderr)
