"""The production stack on loopback, as the README's production section runs it: gunicorn
(2 sync workers, static files by WhiteNoise after ``collectstatic``) and a Celery worker,
against PostgreSQL and Redis. Shared by the load test, the fault drills, the soak and the
browser shift test: start it, talk to it, measure its processes, stop it in bounded time.
"""

from __future__ import annotations

import atexit
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv" / "bin"


def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    import django

    django.setup()


def production_env(name: str, **changes: str) -> dict[str, str]:
    """This process's environment with the production settings on (``DJANGO_DEBUG=false``).

    Plain http on loopback: ``DJANGO_SECURE_SSL_REDIRECT=false`` (the documented switch for a
    server without TLS in front). The session and CSRF cookies stay ``Secure``: Chromium
    keeps Secure cookies for http://127.0.0.1 and localhost (potentially trustworthy origins).

    Each stack collects its static files into a folder of its own (``DJANGO_STATIC_ROOT``):
    the suite starts several stacks at once from one checkout, and collectstatic's
    post-processing of one would otherwise trip over another's half-written files.
    """
    static = Path(tempfile.gettempdir()) / f"cardroom-static-{name}-{os.getpid()}"
    return {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": f"{name}-" + "k" * 50,
        # The audit chains' key (cardroom/core/audit_keys.py): production refuses to start
        # without one of its own.
        "CARDROOM_AUDIT_KEY": "bench:" + "a" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_STATIC_ROOT": str(static),
        **changes,
    }


#: A migrated database to copy scratch databases from (``CREATE DATABASE … TEMPLATE``), so
#: that a quick run does not pay for the migrations each time (``tests/test_benchmarks.py``).
TEMPLATE_VARIABLE = "BENCH_POSTGRES_TEMPLATE"


def fresh_postgres_database(url: str) -> str | None:
    """Drop and create the scratch database ``url`` names (a copy of the database
    ``BENCH_POSTGRES_TEMPLATE`` names, when set); None when it worked, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    server = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(server, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            template = os.environ.get(TEMPLATE_VARIABLE)
            copy = f' TEMPLATE "{template}"' if template else ""
            conn.execute(f'CREATE DATABASE "{name}"{copy}')
    except psycopg.Error as exc:
        return f"PostgreSQL unreachable at {parts.hostname}:{parts.port}: {exc}".splitlines()[0]
    return None


def collectstatic(env: dict[str, str]) -> None:
    """What WhiteNoise serves in production (the manifest the templates' URLs come from), in
    the stack's own folder, removed when this process ends."""
    if folder := env.get("DJANGO_STATIC_ROOT"):
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
    subprocess.run(
        [str(VENV / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True, timeout=120,
    )  # fmt: skip


def start_gunicorn(env: dict[str, str], port: int, workers: int = 2) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(VENV / "gunicorn"), "cardroom.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A worker with its beat (``-B``: the clock sweep every 5 s and the heartbeat), as in
    production (README, Production)."""
    schedule = Path("/tmp") / f"cardroom-bench-beat-{os.getpid()}"  # noqa: S108 - scratch file
    return subprocess.Popen(
        [str(VENV / "celery"), "-A", "cardroom", "worker", "-B", f"--schedule={schedule}",
         "-l", "warning", "-c", "1"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip


def stop(procs: list[subprocess.Popen[bytes]], seconds: float = 20) -> None:
    """SIGTERM each process group (a warm shutdown), SIGKILL whatever is left after ``seconds``."""
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


class Client:
    """One keep-alive HTTP connection to the stack, as a token or session client."""

    def __init__(self, port: int, token: str | None = None, session: str | None = None) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        if session:
            self.headers.update({"Cookie": f"sessionid={session}", "HX-Request": "true"})

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        payload = json.dumps(body) if body is not None else None
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, payload, {**self.headers, **(headers or {})})
                response = self.conn.getresponse()
                return response.status, response.read()
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                if attempt == 2:
                    return 599, b""
        return 599, b""


def wait_healthy(client: Client, seconds: float = 30) -> float:
    """Seconds until ``/healthz`` answers 200; SystemExit when it does not within ``seconds``."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        status, _ = client.request("GET", "/healthz")
        if status == 200:
            return time.perf_counter() - start
        time.sleep(0.2)
    raise SystemExit("the app did not answer /healthz with 200")


@contextmanager
def running(
    env: dict[str, str], port: int, *, worker: bool = True
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """gunicorn (and a Celery worker) up and healthy for the block, stopped after it."""
    procs = [start_gunicorn(env, port)] + ([start_worker(env)] if worker else [])
    try:
        # A minute: gunicorn's workers import the whole project, slowly on a busy machine.
        wait_healthy(Client(port), 60)
        yield procs
    finally:
        stop(procs)


def children(pid: int) -> list[int]:
    """Direct child processes of ``pid`` (gunicorn's workers under its master)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: fields follow the last ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return sorted(found)


def rss_mb(pid: int) -> float | None:
    """Resident memory of a live process in MB (from /proc), None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None
