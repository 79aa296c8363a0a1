"""Suite-wide isolation: every test gets its own BRAIN_HOME and no ambient credentials; one
fitted brain home is built for the whole run and copied by the tests that need one."""

from __future__ import annotations

import gc
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock

from core.config import Settings
from core.native_threads import prefer_one_blas_thread
from tests.memory_report import MemoryReport
from tests.no_sync import preload as preload_no_sync

# One torch thread and one BLAS thread per test process, as the command line runs: `pytest -n 2`
# on two cores with two spinning threads each makes a fit many times slower. Nothing has loaded
# numpy yet here, so the BLAS variables still apply (core.native_threads).
os.environ.setdefault("BRAIN_TORCH_THREADS", "1")
prefer_one_blas_thread()
# Two malloc arenas per process instead of glibc's eight per core: the test processes run many
# short-lived threads (Slack apps, Qdrant Edge, ONNX Runtime, background refits), and each new
# arena keeps its freed memory. The evolution story through the Slack app peaked at 803 MB in
# one process with the default, 543 MB with two. Read by glibc when a process starts: this
# process is already running, but the xdist workers and every subprocess start after it.
os.environ.setdefault("MALLOC_ARENA_MAX", "2")
# The disk's flushes (fsync, msync) return at once in the processes the run starts from here
# on, the xdist workers among them: no test can observe what they buy (tests/no_sync.py).
DISK_FLUSHES = preload_no_sync()

_AMBIENT = (
    "BRAIN_CONFIG",
    "BRAIN_QDRANT_URL",
    "BRAIN_QDRANT_API_KEY",
    "BRAIN_VECTOR_STORE",
    "BRAIN_EMBEDDER",
    "BRAIN_TUNE_ENCODER",
    "BRAIN_STORE_BACKEND",
    "BRAIN_DATABASE_URL",
    "BRAIN_DATABASE_SCHEMA",
    "BRAIN_CHANNELS",
    "BRAIN_ONCALL_CHANNEL",
    "BRAIN_ONCALL_MENTION",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
    "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
    "BRAIN_TOKEN_KEY",
)


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, one test at a time per worker unless told otherwise: by default each worker
    is first sent a quarter of the suite in collection order, so all the slow tests sorted to
    the front (below) would go to the first worker. Set here, not in `addopts`, so that a run
    with `-p no:xdist` still starts. Every run reports its memory per test process
    (tests.memory_report)."""
    if config.pluginmanager.hasplugin("xdist") and config.getoption("maxschedchunk") is None:
        config.option.maxschedchunk = 1
    config.pluginmanager.register(MemoryReport(config), "memory_report")


def pytest_report_header() -> str:
    """Whether the run's processes flush to the disk (tests/no_sync.py)."""
    return f"disk flushes: {DISK_FLUSHES}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The `slow` tests first (a stable sort): xdist hands tests out in this order, so the
    longest ones start at once on both workers instead of one of them ending the run alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session", autouse=True)
def shared_encoder_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ONNX export of MiniLM for the whole run (all workers; the export takes a file
    lock), instead of one per fresh BRAIN_HOME. Subprocesses inherit it. Without PyTorch
    (no `tune` extra) nothing can be exported: the run reads the install step's export."""
    from core.text.embedder import install_cache_dir
    from tests.extras import TORCH_INSTALLED

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    cache = root / "encoder-cache"
    if not TORCH_INSTALLED:
        cache = install_cache_dir(Settings()) / "encoder"
    os.environ["BRAIN_ENCODER_CACHE"] = str(cache)
    return cache


def isolate(monkeypatch: pytest.MonkeyPatch, home: Path) -> Path:
    """BRAIN_HOME set to `home`, offline, and nothing from the developer's shell."""
    for name in _AMBIENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BRAIN_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    return home


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh BRAIN_HOME per test; nothing from the developer's shell leaks in."""
    yield isolate(monkeypatch, tmp_path / "brain-home")


@pytest.fixture(autouse=True)
def collectable_after_the_test() -> Iterator[None]:
    """Let the garbage collector have a test's served apps and their brains when it ends.

    Two things kept every bot a test process started, with its whole warm brain, for the rest
    of the run (a worker grew about 12 MB a bot start, the evolution story's fitted models
    several hundred, past 2 GB in all), both right in a bot's own process, where one app and
    its brain live as long as the process:
    - aiohttp caches each app's handler with its middlewares (`web_app._build_middlewares`,
      an lru_cache of 1,024 entries), and the bot's handler holds the bot;
    - the bot's warm-up moves every object then alive into the collector's permanent
      generation (`bot.app.warm_up`, `gc.freeze`), which is never collected."""
    yield
    web_app = sys.modules.get("aiohttp.web_app")
    cached = getattr(web_app, "_cached_build_middleware", None)
    if cached is not None:
        cached.cache_clear()
    if gc.get_freeze_count():
        gc.unfreeze()


@pytest.fixture(scope="session")
def fitted_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A brain home with the sample knowledge base ingested and the built-in controllers'
    semantic model fitted (its encoder tuned), and no decisions, memory or tickets. Built once
    per run by the first test process that asks, shared read-only by all: copy it."""
    from brain.engine import Brain
    from core.config import Settings
    from core.records import Message

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's own directory, shared by its workers
    home = root / "fitted-home"
    with FileLock(str(root / "fitted-home.lock")):
        if not home.is_dir():
            building = root / "fitted-home.partial"
            shutil.rmtree(building, ignore_errors=True)
            with Brain(Settings(home=building)) as brain:
                brain.decide(Message("warm up: VPN error 691"))
            for state in ("decisions", "memory", "tickets", "ticket_sequence.json"):
                path = building / state
                if path.is_dir():
                    shutil.rmtree(path)
                elif path.exists():
                    path.unlink()
            building.rename(home)
    return home


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL for the run (one per test process), as its URL; the tests that ask
    are skipped, saying why, where PostgreSQL is not installed."""
    from tests.pg_server import PostgresServer

    try:
        server = PostgresServer.start()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def postgres_settings(postgres_server: str, tmp_path: Path) -> Iterator[Settings]:
    """Settings of a fresh home on PostgreSQL: a schema of its own, dropped afterwards."""
    from pydantic import SecretStr

    from core.config import StorageConfig
    from core.stores.postgres.database import close_pool, drop_schema
    from tests.pg_server import fresh_schema

    schema = fresh_schema()
    storage = StorageConfig(
        backend="postgres", database_url=SecretStr(postgres_server), database_schema=schema
    )
    yield Settings(home=tmp_path / "home", storage=storage)
    close_pool(postgres_server, schema)
    drop_schema(postgres_server, schema)
