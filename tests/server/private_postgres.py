"""A PostgreSQL cluster of the test's own (initdb, pg_ctl), to stop and start under a running
server; the machine's shared PostgreSQL is never touched. As root, the cluster runs as the
`postgres` user (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from .daphne import free_port

BIN = Path("/usr/lib/postgresql")


def pg_bin(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(BIN.glob(f"*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise FileNotFoundError(f"{name} (PostgreSQL's server package) is not installed")
    return str(found)


class PrivatePostgres:
    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="stratego-pg-"))
        self.data = self.dir / "data"
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")

    def run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        subprocess.run([*prefix, *command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.STDOUT)  # fmt: skip

    def url(self, database: str = "stratego") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def init(self) -> PrivatePostgres:
        self.run(pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                 "-E", "UTF8", "--no-sync")  # fmt: skip
        self.start()
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE stratego")
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run(pg_bin("pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.dir / "server.log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        self.run(pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.dir, ignore_errors=True)
