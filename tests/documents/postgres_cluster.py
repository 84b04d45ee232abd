"""A PostgreSQL cluster of a test's own, so the test may stop and restart the server under a writer.

It runs from Debian's server binaries (``/usr/lib/postgresql/*/bin``) in a fresh folder,
on a unix socket only (no TCP port to collide with), as the ``postgres`` user when the
tests run as root (the server refuses root).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from tests.postgres_support import in_ci

PORT = 5432  # the socket file's name only: nothing listens on TCP


def server_binaries() -> str | None:
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2]))
    for folder in reversed(folders):
        if os.path.exists(os.path.join(folder, "pg_ctl")):
            return folder
    found = shutil.which("pg_ctl")
    return os.path.dirname(found) if found else None


class OwnCluster:
    def __init__(self, binaries: str) -> None:
        self._binaries = binaries
        self.folder = tempfile.mkdtemp(prefix="writing-rules-pg-")
        self._as_postgres: list[str] = []
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self._as_postgres = ["runuser", "-u", "postgres", "--"]
        self.data = os.path.join(self.folder, "data")
        self._run("initdb", "-D", self.data, "-U", "postgres", "-E", "UTF8", "--no-locale", "--auth=trust", "--no-sync")
        self.start()
        self.dsn = f"host={self.folder} port={PORT} user=postgres dbname=postgres"

    def _run(self, program: str, *arguments: str) -> None:
        command = [*self._as_postgres, os.path.join(self._binaries, program), *arguments]
        # Not a pipe: a server started by pg_ctl would hold it open, and run() would wait for ever.
        with open(os.path.join(self.folder, "commands.log"), "ab") as log:
            subprocess.run(command, check=True, stdin=subprocess.DEVNULL, stdout=log, stderr=log, timeout=120)

    def _pg_ctl(self, action: str, *options: str) -> None:
        self._run("pg_ctl", "-D", self.data, "-w", "-t", "60", *options, action)

    def _server_options(self) -> tuple[str, ...]:
        server = f"-p {PORT} -k {self.folder} -c listen_addresses='' -c fsync=off"
        return ("-l", os.path.join(self.folder, "server.log"), "-o", server)

    def start(self) -> None:
        self._pg_ctl("start", *self._server_options())

    def stop(self) -> None:
        self._pg_ctl("stop", "-m", "fast")

    def restart(self) -> None:
        """Stop (ending every session at once, as a crash or failover would) and start again."""
        self._pg_ctl("restart", "-m", "fast", *self._server_options())

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def own_cluster() -> Iterator[OwnCluster]:
    binaries = server_binaries()
    if binaries is None:
        message = "no PostgreSQL server binaries (apt-get install postgresql) for the restart tests"
        if in_ci():
            pytest.fail(f"CI=true: {message}", pytrace=False)
        pytest.skip(message)
    cluster = OwnCluster(binaries)
    try:
        yield cluster
    finally:
        cluster.remove()
