"""Shared fixtures: role personas, an API client per role, browser set-up, service markers."""

import contextlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.browser.shift import CHROMIUM_ARGS

# Django-dependent imports live inside the fixtures: the pure engine and draw tests also run
# with ``-p no:django`` (no settings at all).

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run
# there unless told it is safe (the live server runs in its own thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

#: This process's audit checkpoint files (``checkpoint_file_per_test``).
CHECKPOINTS = tempfile.mkdtemp(prefix="cardroom-checkpoints-")

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
)

# Hypothesis profiles. Local runs keep the random profile ("default": new examples every run,
# failures replayed from .hypothesis/); CI (``.ci/run`` exports CI=true) runs "ci": the same
# examples on every run, so a red build is the code's fault and re-running it gives the same
# answer. "mutation" (``make mutation``) is "ci" with at most 10 examples per property, since
# every surviving mutant re-runs every property that reaches it. HYPOTHESIS_PROFILE (or
# pytest's --hypothesis-profile) overrides.
# Timing is the machine's, not the code's: CI runs on a shared 2-core machine, where a 200 ms
# deadline or the "too slow" health check fail by load alone (seen: a table-break property
# producing 6 examples in 1 s under load). Derandomized, a red build is then always the code.
hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    print_blob=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile(
    "mutation",
    derandomize=True,
    database=None,
    max_examples=10,
    deadline=None,
    # Under mutmut's trampolines on a shared machine generation is slow; speed is not the test.
    suppress_health_check=list(HealthCheck),
)
# On a developer's machine: random as ever, but never failed by the machine's load alone.
hypothesis_settings.register_profile(
    "local", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI") else "local"
)
hypothesis_settings.load_profile(HYPOTHESIS_PROFILE)


def cap_hypothesis_examples(items: list[pytest.Item]) -> None:
    """Under "mutation" a property's own ``@settings(max_examples=600)`` would outrank the
    profile: cap each property at the profile's count (Hypothesis reads a test's settings
    when it runs, so replacing them after collection takes effect)."""
    mutation = hypothesis_settings.get_profile("mutation")
    if hypothesis_settings.default is not mutation:  # loaded by HYPOTHESIS_PROFILE or the flag
        return
    cap = mutation.max_examples
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > cap:
            test._hypothesis_internal_use_settings = hypothesis_settings(own, max_examples=cap)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (``make test``): a worker more than the cores. The browser and live-server
    tests spend much of their time waiting on a page's poll or a server's answer; with one
    worker a core, the cores stood idle for a third of the run."""
    return (os.cpu_count() or 1) + 1


def pytest_configure(config: pytest.Config) -> None:
    try:
        from django.conf import settings
    except ImportError:
        return
    if settings.configured:
        # Test users log in thousands of times; the production hasher costs ~0.3 s each.
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # The suite posts to the public endpoints far faster than any client may: the rate
        # limits themselves are tested with low rates (tests/test_public_bounds.py).
        settings.CARDROOM_THROTTLE_RATES = {"betting": None, "rulebook": None}
        # They count in the database cache (emptied with the test database) even when
        # CELERY_BROKER_URL names a Redis; tests/cardroom/test_throttle_cache.py opts in.
        settings.CACHES.pop("throttle", None)
        # Transactional tests empty every table between tests: the append-only audit logs
        # let that flush through (their one deliberate exception, cardroom/core/audit.py).
        from cardroom.core.audit import allow_flush

        allow_flush()
        if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            serialize_the_live_server()
        queue_of_this_worker(settings)
        # The audit checkpoints (cardroom/core/checkpoints.py) go to a directory of this
        # process's, never the checkout's var/: processes a test starts read it from the
        # environment; each test gets a file of its own there (``checkpoint_file_per_test``).
        os.environ["CARDROOM_AUDIT_CHECKPOINT_FILE"] = str(
            Path(CHECKPOINTS) / "started-processes.jsonl"
        )


def queue_of_this_worker(settings: Any) -> None:
    """Under pytest-xdist each worker process has its own test database, so each publishes
    its tasks to a queue of its own on the shared broker: a Celery worker started by one
    process's test (``start_worker``) must never take a task another process queued for rows
    that exist only in that process's database."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not settings.CELERY_BROKER_URL:
        return
    from cardroom.celery import app as celery_app

    queue = f"cardroom-tests-{worker}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    celery_app.conf.task_default_queue = queue
    # Processes a test starts (celery beat, the production stack's gunicorn and worker) use
    # the same queue: they read it from the environment (cardroom/settings.py).
    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = queue


def between_requests() -> Any:
    """A context in which the test thread may write while the browser polls: on SQLite the
    live server's lock (``serialize_the_live_server``: the test thread shares the one
    in-memory connection, and a write during a request is "database table is locked");
    elsewhere nothing to wait for."""
    import contextlib

    from django.test.testcases import LiveServerThread

    return getattr(LiveServerThread.server_class, "application_lock", contextlib.nullcontext())


def serialize_the_live_server() -> None:
    """On SQLite the live server's request threads all share the test thread's in-memory
    connection (Django passes it over: an in-memory database exists only in that connection),
    and two requests at once on one connection corrupt each other's cursors (an IndexError deep
    in the ORM, a 500 the page never deserved). Browser pages poll, so two requests at once are
    normal: the live server still takes every connection in its own thread, but runs the
    application for one request at a time. PostgreSQL gives each thread its own connection, so
    there (where the race tests run) requests stay truly concurrent."""
    import threading

    from django.core.servers.basehttp import ThreadedWSGIServer
    from django.test.testcases import LiveServerThread

    class OneRequestAtATime(ThreadedWSGIServer):
        application_lock = threading.Lock()

        def set_app(self, application: Any) -> None:
            lock = self.application_lock

            def serialized(environ: Any, start_response: Any) -> Any:
                # The whole request, its end included: closing the response sends
                # request_finished, whose close_old_connections() reads the shared
                # connection's state; outside the lock it raced the next request's
                # transaction ("Exception occurred during processing of request").
                with lock:
                    response = application(environ, start_response)
                    try:
                        return [b"".join(response)]
                    finally:
                        if hasattr(response, "close"):
                            response.close()

            super().set_app(serialized)

    LiveServerThread.server_class = OneRequestAtATime


#: Tests that share something outside their own database run on one pytest-xdist worker, one
#: after another (``--dist loadgroup``): the benchmarks' processes empty Redis databases of
#: their own and start servers on the run's broker, the production-stack shift runs gunicorn
#: and a Celery worker on the broker's default queue, the throttle tests use fixed Redis databases.
SHARED_OUTSIDE_THE_DATABASE = (
    "tests/test_benchmarks.py", "tests/browser/test_shift.py", "tests/cardroom/test_throttle_cache.py",
)  # fmt: skip


#: What makes a test read or write the database (pytest-django's fixtures and marker).
DATABASE_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
    "live_server",
})  # fmt: skip


def uses_the_database(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & DATABASE_FIXTURES)


def keep_only_what_the_database_changes(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``CARDROOM_DATABASE_TESTS_ONLY=1`` (CI's second run, on the other database): deselect
    the tests whose outcome the database cannot change, which CI's PostgreSQL run already ran:
    those that touch no database (the pure engine, the draws, their properties) and the browser
    tests (the pages are the same HTML whatever the database; the PostgreSQL run drives them on
    the production database, with concurrent requests)."""
    if not os.environ.get("CARDROOM_DATABASE_TESTS_ONLY"):
        return
    keep, drop = [], []
    for item in items:
        once = "browser" in item.keywords or not uses_the_database(item)
        (drop if once else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cap_hypothesis_examples(items)
    keep_only_what_the_database_changes(config, items)
    for item in items:
        if item.nodeid.startswith(SHARED_OUTSIDE_THE_DATABASE):
            item.add_marker(pytest.mark.xdist_group("outside-the-database"))
    from django.conf import settings

    if not settings.configured:
        return
    from django.db import connection

    vendor = connection.vendor
    broker = os.environ.get("CELERY_BROKER_URL")
    for item in items:
        if "postgres" in item.keywords and vendor != "postgresql":
            item.add_marker(
                pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://…")
            )
        if "redis" in item.keywords and not broker:
            item.add_marker(
                pytest.mark.skip(reason="needs a broker: set CELERY_BROKER_URL=redis://…")
            )
        if "browser" in item.keywords and not CHROMIUM:
            item.add_marker(
                pytest.mark.skip(reason="needs Debian's chromium (apt-get install chromium)")
            )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI's service run a skipped test is a failure: it would hide an untested feature."""
    if not os.environ.get("CARDROOM_FORBID_SKIPS"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reporter.write_line(
            f"CARDROOM_FORBID_SKIPS: {len(skipped)} test(s) skipped; failing the run.", red=True
        )
        for report in skipped:
            reporter.write_line(f"  skipped: {report.nodeid}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# --- personas -------------------------------------------------------------------------------


@pytest.fixture
def floor_manager(db: None) -> Any:
    from cardroom.core.roles import Role
    from tests.factories import make_user

    return make_user(username="fm", role=Role.FLOOR_MANAGER)


@pytest.fixture
def director(db: None) -> Any:
    from cardroom.core.roles import Role
    from tests.factories import make_user

    return make_user(username="td", role=Role.DIRECTOR)


@pytest.fixture
def staff(db: None) -> Any:
    from cardroom.core.roles import Role
    from tests.factories import make_user

    return make_user(username="staffer", role=Role.STAFF)


@pytest.fixture
def cashier(db: None) -> Any:
    from cardroom.core.roles import Role
    from tests.factories import make_user

    return make_user(username="cashier", role=Role.CASHIER)


@pytest.fixture
def no_role_user(db: None) -> Any:
    from tests.factories import make_user

    return make_user(username="nobody", role=None)


@pytest.fixture
def superuser(db: None) -> Any:
    from tests.factories import make_user

    return make_user(username="root", role=None, superuser=True)


PERSONAS = (
    "anonymous", "no_role_user", "staff", "director", "floor_manager", "cashier", "superuser",
)  # fmt: skip


@pytest.fixture
def persona_client(request: pytest.FixtureRequest) -> Callable[[str], Any]:
    """``persona_client("staff")``: a logged-in Django test client for that persona."""
    from django.test import Client

    def build(name: str) -> Client:
        client = Client()
        if name != "anonymous":
            client.force_login(request.getfixturevalue(name))
        return client

    return build


@pytest.fixture
def api_client_for(request: pytest.FixtureRequest) -> Callable[[str], Any]:
    """``api_client_for("director")``: a DRF test client authenticated as that persona."""
    from rest_framework.test import APIClient

    def build(name: str) -> APIClient:
        client = APIClient()
        if name != "anonymous":
            client.force_authenticate(request.getfixturevalue(name))
        return client

    return build


# --- browser --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, never a downloaded browser; flags keep it off the closed network."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(autouse=True)
def checkpoint_file_per_test() -> Iterator[None]:
    """Each test writes and reads its own checkpoint file: one left by an earlier test would
    hold streams that test's database had (and verify_audit would name them as vanished)."""
    try:
        from django.conf import settings
    except ImportError:
        yield
        return
    if not settings.configured:
        yield
        return
    before = settings.CARDROOM_AUDIT_CHECKPOINT_FILE
    settings.CARDROOM_AUDIT_CHECKPOINT_FILE = str(Path(CHECKPOINTS) / f"{uuid.uuid4().hex}.jsonl")
    try:
        yield
    finally:
        settings.CARDROOM_AUDIT_CHECKPOINT_FILE = before


@pytest.fixture(autouse=True)
def close_leftover_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a browser test, close the contexts it opened itself (a second device, the
    kiosk, the board): a page left open keeps polling the session's live server through the
    next tests, where on SQLite its requests share the test thread's connection."""
    if "browser" not in request.fixturenames:
        yield
        return
    from playwright.sync_api import Error as PlaywrightError

    browser = request.getfixturevalue("browser")
    yield
    for context in list(browser.contexts):
        with contextlib.suppress(PlaywrightError):  # closed meanwhile: nothing left to stop
            context.close()


@pytest.fixture
def login_page(live_server: Any, page: Any) -> Iterator[Callable[[str, str], Any]]:
    """Log a user in through the real form in Chromium; returns the page."""

    def do_login(username: str, password: str = "pw-for-tests-123") -> Any:
        page.goto(f"{live_server.url}/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        return page

    yield do_login


@pytest.fixture
def shared_memory_cache(settings: Any) -> Iterator[None]:
    """A shared cache outside the database, as the broker's Redis is in production (the
    suite's own is the database cache): what a poll reads there is no query."""
    from django.core.cache import caches

    settings.CACHES = {
        **settings.CACHES,
        "throttle": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "shared",
        },
    }
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()
