"""A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a temporary folder,
a random loopback port, a random password, torn down by ``stop()``.

Uses Debian's server packages (``/usr/lib/postgresql/<version>/bin``). initdb refuses to
run as root, so as root the cluster runs as the ``postgres`` system user (the Debian
package creates it) in a folder handed to that user.

    python -m tests.pg_cluster      # start one, print its URL, stop it on Enter
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


class ClusterUnavailable(Exception):
    """No PostgreSQL server binaries here, or the cluster would not start (the reason says which)."""


def find_bin_dir() -> Path | None:
    """The newest ``/usr/lib/postgresql/<n>/bin`` that has initdb, or ``$EKKO_PG_BIN``."""
    env = os.environ.get("EKKO_PG_BIN")
    if env:
        return Path(env) if (Path(env) / "initdb").exists() else None
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running cluster; ``url`` is a SQLAlchemy URL for its superuser's ``postgres`` database."""

    folder: Path
    bin_dir: Path
    port: int
    password: str
    run_as: str | None
    user: str = "ekko"
    autovacuum: bool = False

    @property
    def url(self) -> str:
        """``postgresql+psycopg://ekko:…@127.0.0.1:<port>/postgres``."""
        return f"postgresql+psycopg://{self.user}:{self.password}@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin_dir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            user=self.run_as,
            env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
            cwd=self.folder,
        )

    def start(self) -> None:
        """initdb, then pg_ctl start; raises ClusterUnavailable with the server's words."""
        data = self.folder / "data"
        pwfile = self.folder / "pw"
        pwfile.write_text(self.password + "\n")
        if self.run_as:
            info = pwd.getpwnam(self.run_as)
            for p in (self.folder, pwfile):
                os.chown(p, info.pw_uid, info.pw_gid)
        # en_US.UTF-8 may be missing on a fresh machine; C.UTF-8 always exists. The store
        # does not rely on the cluster's locale (its text columns use the "C" collation).
        init = self._run(
            "initdb",
            "-D",
            str(data),
            "-U",
            self.user,
            f"--pwfile={pwfile}",
            "--auth=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        pwfile.unlink()
        if init.returncode != 0:
            raise ClusterUnavailable(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        # A test cluster: durability off (it is thrown away), loopback only, our own socket
        # dir; no autovacuum (the tests VACUUM where they mean to, and hundreds of test
        # schemas would keep its workers busy, slowing the tests that run after them).
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.folder} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200 "
            f"-c shared_buffers=128MB -c autovacuum={'on' if self.autovacuum else 'off'}"
        )
        started = self._run(
            "pg_ctl", "-D", str(data), "-l", str(self.folder / "log"), "-o", opts, "-w", "start"
        )
        if started.returncode != 0:
            log = (
                (self.folder / "log").read_text(errors="replace")
                if (self.folder / "log").exists()
                else ""
            )
            raise ClusterUnavailable(f"pg_ctl start failed: {started.stderr.strip()} {log[-2000:]}")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        if (self.folder / "data" / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(*, autovacuum: bool = False) -> Cluster:
    """Start a throwaway cluster on 127.0.0.1 at a free port (raises ClusterUnavailable).

    Autovacuum is off unless asked for (benchmarks want a server as it runs in production).
    """
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise ClusterUnavailable(
            "no PostgreSQL server binaries (apt-get install postgresql postgresql-contrib, "
            "or set EKKO_TEST_PG_URL to a server you can create schemas on)"
        )
    run_as: str | None = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError as e:
            raise ClusterUnavailable("running as root and there is no 'postgres' user") from e
        run_as = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="ekko-pg-"))
    folder.chmod(0o700)
    last: ClusterUnavailable | None = None
    for _ in range(3):  # a port taken between probing and binding: try another
        cluster = Cluster(
            folder, bin_dir, _free_port(), secrets.token_hex(16), run_as, autovacuum=autovacuum
        )
        try:
            cluster.start()
            return cluster
        except (ClusterUnavailable, subprocess.TimeoutExpired) as e:
            last = e if isinstance(e, ClusterUnavailable) else ClusterUnavailable(str(e))
            cluster.stop()
            folder = Path(tempfile.mkdtemp(prefix="ekko-pg-"))
            folder.chmod(0o700)
            time.sleep(0.2)
    shutil.rmtree(folder, ignore_errors=True)
    assert last is not None
    raise last


if __name__ == "__main__":
    c = start_cluster()
    print(c.url, flush=True)
    try:
        input("PostgreSQL is running; press Enter to stop it\n")
    finally:
        c.stop()
