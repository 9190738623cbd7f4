"""``make day --nginx``: the production stack as ``docs/scale-out.md`` runs it, on loopback:
two gunicorn instances behind Debian's nginx, with the site ``deploy/nginx-cardroom.conf``
(its upstream ports, listening port, static files, cache and proxy parameters pointed at this
run's), and a Celery worker.

nginx runs as this user with a configuration generated in a scratch folder (its pid file, logs,
cache and temporary files there too; ``/etc/nginx`` is only read for ``mime.types``) on a free
port, and is stopped with the rest. Its access log names the instance that answered each
request (``$upstream_addr``), to show that both served.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench import stack

NGINX = Path("/usr/sbin/nginx")
SITE = stack.ROOT / "deploy" / "nginx-cardroom.conf"
PARAMS = stack.ROOT / "deploy" / "cardroom_proxy_params"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def site(port: int, upstreams: list[int], folder: Path, static: str) -> str:
    """The deployed site with this run's ports and paths."""
    text = SITE.read_text()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=0;\n" for p in upstreams)
    text, found = re.subn(r"(?m)^    server 127\.0\.0\.1:\d+ max_fails=0;\n", "", text)
    if found == 0:
        raise SystemExit(f"{SITE}: no upstream servers to replace")
    text = text.replace("upstream cardroom_app {\n", "upstream cardroom_app {\n" + servers, 1)
    changes = {
        "listen 80;": f"listen 127.0.0.1:{port};",
        "/var/cache/nginx/cardroom": str(folder / "cache"),
        "/srv/cardroom/staticfiles/": f"{static.rstrip('/')}/",
        "/etc/nginx/cardroom_proxy_params": str(PARAMS),
    }
    for old, new in changes.items():
        if old not in text:
            raise SystemExit(f"{SITE}: no {old!r} to replace")
        text = text.replace(old, new)
    return text


def configuration(port: int, upstreams: list[int], folder: Path, static: str) -> Path:
    """nginx.conf in ``folder``: everything nginx writes stays there."""
    user = f"user {getpass.getuser()};\n" if os.getuid() == 0 else ""
    temp = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        "events { worker_connections 1024; }\n"
        "http {\n    include /etc/nginx/mime.types;\n"
        "    log_format upstream '$upstream_addr $status $request_uri';\n"
        f"    access_log {folder / 'access.log'} upstream;\n{temp}"
        + site(port, upstreams, folder, static)
        + "}\n"
    )
    return conf


@contextmanager
def running(env: dict[str, str], port: int) -> Iterator[tuple[dict[str, list[int]], Path]]:
    """Two gunicorn instances, a Celery worker and nginx on ``port`` up and healthy for the
    block, stopped after it: the processes by group, and nginx's access log."""
    folder = Path(tempfile.mkdtemp(prefix="cardroom-day-nginx-"))
    upstreams = [free_port(), free_port()]
    behind = {**env, "CARDROOM_TRUSTED_PROXIES": "1"}
    procs = [stack.start_gunicorn(behind, p) for p in upstreams] + [stack.start_worker(behind)]
    try:
        conf = configuration(port, upstreams, folder, env["DJANGO_STATIC_ROOT"])
        subprocess.run([str(NGINX), "-t", "-q", "-c", str(conf), "-p", str(folder)], check=True)
        procs.append(
            subprocess.Popen(
                [str(NGINX), "-c", str(conf), "-p", str(folder), "-g", "daemon off;"],
                start_new_session=True,
            )
        )
        for p in (*upstreams, port):
            stack.wait_healthy(stack.Client(p), 60)
        yield (
            {
                "gunicorn": [procs[0].pid, procs[1].pid],
                "celery": [procs[2].pid],
                "nginx": [procs[3].pid],
            },
            folder / "access.log",
        )
    finally:
        stack.stop(procs)
        shutil.rmtree(folder, ignore_errors=True)


def answered_by(log: Path) -> Counter[str]:
    """Requests per upstream instance (``-`` for those nginx answered itself: its cache and
    static files)."""
    counts: Counter[str] = Counter()
    for line in log.read_text().splitlines():
        # A request retried on the next instance lists both: the last one answered.
        counts[line.split(" ", 1)[0].split(",")[-1].strip()] += 1
    return counts
