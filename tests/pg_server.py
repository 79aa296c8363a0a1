"""A real PostgreSQL server for the tests, from the operating system's packages.

PostgreSQL refuses to run as root, so as root the data folder is given to the `postgres`
user and `initdb` / `pg_ctl` run as that user (`runuser`); as anyone else they run as that
user. The server listens on 127.0.0.1 at a free port, with a socket folder of its own, and
trusts local connections (a throwaway cluster). Tests run it with `fsync = off` because
nothing here survives a power cut anyway (commits still complete before a call returns);
the benchmark keeps fsync on.
"""

from __future__ import annotations

import glob
import os
import random
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

#: Where Debian's postgresql-NN packages put their binaries (not on PATH by default).
_PACKAGE_BINS = "/usr/lib/postgresql/*/bin"
MISSING = (
    "PostgreSQL is not installed (no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin): "
    "`apt-get install -y postgresql-15` (scripts/setup does it when run as root)"
)


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob(_PACKAGE_BINS), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


#: Ports for the servers tests start, below Linux's ephemeral range (32768-60999): a port the
#: kernel hands out and the probe releases can go to any outgoing connection before the
#: server binds it seconds later (a replica failed with "address already in use").
SERVER_PORTS = (20000, 32000)


def free_port() -> int:
    """A port nothing listens on, outside the ephemeral range, for a server started later."""
    pick = random.SystemRandom()
    for _ in range(500):
        port = pick.randrange(*SERVER_PORTS)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {SERVER_PORTS}")


@dataclass
class PostgresServer:
    """One running throwaway cluster."""

    bin: Path
    root: Path
    port: int
    as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://brain@127.0.0.1:{self.port}/brain"

    def _run(self, *command: str) -> None:
        subprocess.run(
            [*self.as_user, *command],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.root,
        )

    @classmethod
    def start(cls, *, fsync: bool = False) -> PostgresServer:
        """initdb, start and create the `brain` database; raises RuntimeError on failure.
        `fsync=True` (benchmarks) keeps PostgreSQL's durable default."""
        folder = binaries()
        if folder is None:
            raise RuntimeError(MISSING)
        root = Path(tempfile.mkdtemp(prefix="brain-pg-"))
        as_user: list[str] = []
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                raise RuntimeError("running as root, and no runuser to start PostgreSQL with")
            shutil.chown(root, user="postgres")
            as_user = [runuser, "-u", "postgres", "--"]
        server = cls(bin=folder, root=root, port=free_port(), as_user=as_user)
        data = root / "data"
        try:
            server._run(
                str(folder / "initdb"), "-D", str(data), "-A", "trust", "-U", "brain",
                "-E", "UTF8", "--locale=C", "--no-sync",
            )  # fmt: skip
            options = (
                f"-h 127.0.0.1 -p {server.port} -k {root} -c fsync={'on' if fsync else 'off'} "
                "-c max_connections=300 -c shared_buffers=32MB"
            )
            server._run(
                str(folder / "pg_ctl"), "-D", str(data), "-l", str(root / "log"),
                "-o", options, "-w", "-t", "60", "start",
            )  # fmt: skip
            server._run(
                str(folder / "createdb"), "-h", "127.0.0.1", "-p", str(server.port),
                "-U", "brain", "brain",
            )  # fmt: skip
        except subprocess.CalledProcessError as exc:
            log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
            server.stop()
            raise RuntimeError(
                f"starting PostgreSQL failed: {exc.stderr.decode(errors='replace')}\n{log}"
            ) from exc
        return server

    def stop(self) -> None:
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=self.root,
                check=False,
            )
        shutil.rmtree(self.root, ignore_errors=True)


def fresh_schema() -> str:
    """A schema name no other test uses."""
    return f"t_{uuid.uuid4().hex[:16]}"
