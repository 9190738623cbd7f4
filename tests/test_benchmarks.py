"""Every benchmark runs, in its quick mode, and checks what it times (``bench/harness.py``), so
none can rot unnoticed: ``make bench`` stopped at a request the betting API had come to refuse,
and ``bench/load.py`` timed the log-in page's redirect instead of the floor for weeks.

Each runs as ``make bench`` runs it, in a process of its own, on a scratch database copied
from one migrated once for the module (SQLite in this run's folder; on PostgreSQL, a database
named after this run's test database, dropped afterwards). The in-process benchmarks run on
this run's database: both CI runs run them, one on each backend. The load test needs
PostgreSQL and Redis: the PostgreSQL run. The other production-stack benchmarks are too slow
for the suite (a board of 1,000 phones, cached and uncached; an hour's soak in the browser) or
must have the machine's services to themselves (the drills stop Redis and restart
PostgreSQL): ``.ci/run`` runs the board load's quick mode once both suites are done, and the
soak's scenario is ``tests/browser/test_shift.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench import harness, stack
from bench.run import POSTGRES, RUNS, SQLITE, run_benchmark

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def migrate(url: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, check=True,
        env={**os.environ, "DATABASE_URL": url}, timeout=300,
    )  # fmt: skip


@dataclass
class Scratch:
    """Scratch databases for the benchmarks, each a copy of one migrated template."""

    folder: Path
    postgres_base: str | None  # this run's PostgreSQL server and database name, when on it
    made: list[str] = field(default_factory=list)
    sqlite_template: Path | None = None

    def sqlite(self, name: str) -> str:
        if self.sqlite_template is None:
            self.sqlite_template = self.folder / "template.sqlite3"
            migrate(f"sqlite:///{self.sqlite_template}")
        copy = self.folder / f"{name}.sqlite3"
        shutil.copyfile(self.sqlite_template, copy)
        return f"sqlite:///{copy}"

    def template(self) -> str:
        """The migrated PostgreSQL template's name (made and migrated on first use)."""
        assert self.postgres_base is not None
        url = f"{self.postgres_base}_bench_template"
        if url not in self.made:
            assert stack.fresh_postgres_database(url) is None
            self.made.append(url)
            migrate(url)
        return url.rsplit("/", 1)[1]

    def postgres(self, name: str) -> str:
        """A fresh copy of the migrated template, dropped at the end."""
        template = self.template()
        url = f"{self.postgres_base}_bench_{name}"
        os.environ[stack.TEMPLATE_VARIABLE] = template
        try:
            assert stack.fresh_postgres_database(url) is None
        finally:
            os.environ.pop(stack.TEMPLATE_VARIABLE, None)
        self.made.append(url)
        return url

    def drop(self) -> None:
        import psycopg

        for url in reversed(self.made):
            server, name = url.rsplit("/", 1)
            with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scratch]:
    from django.db import connection

    db = connection.settings_dict
    base = None
    if connection.vendor == "postgresql":
        auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
        name = db["NAME"] if db["NAME"].startswith("test_") else f"test_{db['NAME']}"
        base = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
    made = Scratch(tmp_path_factory.mktemp("bench"), base)
    try:
        yield made
    finally:
        if made.made:
            made.drop()


def quick_environment(**changes: str | None) -> dict[str, str | None]:
    return {harness.QUICK_VARIABLE: "1", **changes}


def on_postgresql() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


#: Each of ``make bench``'s runs once per CI run: on PostgreSQL the ones meant for it and the
#: backend-neutral ones; the SQLite-only one (``bench_search`` on FTS5) runs in the SQLite run.
CASES = [
    pytest.param(
        label,
        name,
        changes,
        id=label,
        marks=[pytest.mark.postgres] if changes is POSTGRES else [],
    )
    for label, name, changes in RUNS
    if not (changes is SQLITE and on_postgresql())
]
#: The pure benchmarks (the engine, the draws) read no database.
NO_DATABASE = {"bench_engine", "bench_draws"}


@pytest.mark.parametrize(("label", "name", "changes"), CASES)
def test_each_benchmark_of_make_bench_runs_quick_and_checks_its_answers(
    scratch: Scratch, label: str, name: str, changes: dict[str, str | None]
) -> None:
    if name in NO_DATABASE:
        url = None
    elif changes is SQLITE or scratch.postgres_base is None:
        url = scratch.sqlite(label)
    else:
        url = scratch.postgres(label)
    figures, _ = run_benchmark(name, quick_environment(DATABASE_URL=url))
    assert figures, f"{label} gave no figures"
    numbers = [value for value in figures.values() if isinstance(value, int | float)]
    assert numbers and all(value >= 0 for value in numbers), figures


def run_script(script: str, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, f"bench/{script}", "--quick", *args], cwd=ROOT, capture_output=True,
        text=True, timeout=300, env={**os.environ, **env},
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    return output


def broker(db: int) -> str:
    """A Redis database of its own on this run's broker, emptied."""
    import redis

    url = re.sub(r"/\d*$", f"/{db}", os.environ["CELERY_BROKER_URL"])
    redis.Redis.from_url(url, socket_connect_timeout=2).flushdb()
    return url


@pytest.mark.postgres
@pytest.mark.redis
def test_the_load_test_measures_the_dashboard_and_every_kind_of_request(scratch: Scratch) -> None:
    url = scratch.postgres("load")
    output = run_script(
        "load.py",
        "--port",
        str(free_port()),
        env={"DATABASE_URL": url, "CELERY_BROKER_URL": broker(12)},
    )
    # A row per kind with a count: the floor page and its polls were answered and timed.
    for kind in ("floor_page", "dashboard", "hand_action", "evaluate", "search", "ruling"):
        assert re.search(rf"^{kind} +[1-9]\d* ", output, re.M), output[-3000:]
    assert "'floor_page': {200:" in output and "!!" not in output


@pytest.mark.postgres
@pytest.mark.redis
def test_make_day_builds_its_day_censuses_every_family_and_drives_the_stack(
    scratch: Scratch,
) -> None:
    url = scratch.postgres("day")
    output = run_script(
        "day.py", "--port", str(free_port()),
        env={"BENCH_DAY_URL": url, "CELERY_BROKER_URL": broker(12)},
    )  # fmt: skip
    # The census's row per family with its cores, the mix's total, and the load's count per
    # family (run_script asserts the exit status: 0 only with no error and every family timed).
    for family in ("desk action (early)", "award", "deal", "proposal", "board poll", "floor poll"):
        assert re.search(rf"^{re.escape(family)} +[\d.]+ +[1-9]", output, re.M), output[-3000:]
    assert "WSOP mix total" in output
    for family in ("desk action", "award", "deal", "floor poll", "room display"):
        assert re.search(rf"^{family} +[1-9]\d* ", output, re.M), output[-3000:]
    assert "!!" not in output


def test_a_redirect_to_the_log_in_page_is_a_wrong_answer_naming_the_request() -> None:
    with pytest.raises(harness.WrongAnswer, match=r"^GET /floor/ answered 302, not 200"):
        harness.expect("GET /floor/", 302, b"", contains='id="poller"')


def test_an_answer_without_the_content_timed_is_a_wrong_answer() -> None:
    login = b'<form method="post"><input name="password"></form>'
    with pytest.raises(harness.WrongAnswer, match=r"answered 200 without 'id=\"poller\"'"):
        harness.expect("GET /floor/", 200, login, contains=('id="poller"', "table-card"))
    assert harness.expect("POST /x", 409, b'{"code":"stale"}', statuses=(201, 409)) != ""


@pytest.mark.django_db
def test_the_benchmarks_read_the_floor_poll_from_the_page_as_it_is_rendered(
    persona_client: Any,
) -> None:
    """The load test's dashboards poll what the page's #poller says: read from the real page,
    not from a pattern of an older template."""
    client = persona_client("staff")
    page = harness.expect_response("GET /floor/", client.get("/floor/"), contains='id="poller"')
    poll = harness.floor_poll_url(page)
    assert poll.startswith("/floor/updates/?") and "v=" in poll
    answer = client.get(poll, headers={"HX-Request": "true"})
    assert harness.floor_poll_url(harness.expect_response(f"GET {poll}", answer)).startswith(
        "/floor/updates/?"
    )


def test_quick_mode_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(harness.QUICK_VARIABLE, "1")
    assert harness.quick() and harness.sized(10_000, 199) == 199
    monkeypatch.setenv(harness.QUICK_VARIABLE, "0")
    assert not harness.quick() and harness.sized(10_000, 199) == 10_000
    monkeypatch.setenv(harness.QUICK_VARIABLE, "yes")
    with pytest.raises(harness.WrongAnswer, match="BENCH_QUICK"):
        harness.quick()
