"""Settings come from the environment; bad values stop start-up naming the variable."""

import io
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardroom.core.environment import (
    ImproperlyConfiguredEnv,
    database_from_url,
    env_bool,
    env_int,
    env_list,
)

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k8$Zq!v2@LmN9#pR4^tY7&wX1*cB6(eD3)fG5_hJ0+aS-dF=gH[jK]lQ;zX,cV.bN"
AK = "room-2026:" + "q" * 40  # an audit key (cardroom/core/audit_keys.py)


def run_django(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_"))
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_booleans_accept_the_usual_spellings(monkeypatch: pytest.MonkeyPatch) -> None:
    for raw, expected in [("true", True), ("0", False), ("YES", True), ("off", False)]:
        monkeypatch.setenv("X_FLAG", raw)
        assert env_bool("X_FLAG", not expected) is expected
    monkeypatch.delenv("X_FLAG")
    assert env_bool("X_FLAG", True) is True


def test_a_bad_boolean_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_DEBUG", "maybe")
    with pytest.raises(ImproperlyConfiguredEnv, match="DJANGO_DEBUG"):
        env_bool("DJANGO_DEBUG", True)


def test_integers_and_lists_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_INT", "twelve")
    with pytest.raises(ImproperlyConfiguredEnv, match="X_INT"):
        env_int("X_INT", 1)
    monkeypatch.setenv("X_INT", "-3")
    with pytest.raises(ImproperlyConfiguredEnv, match="at least 0"):
        env_int("X_INT", 1)
    monkeypatch.setenv("X_LIST", "a.example, b.example")
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    monkeypatch.setenv("X_LIST", " , ")
    with pytest.raises(ImproperlyConfiguredEnv, match="X_LIST"):
        env_list("X_LIST", [])


def test_database_urls(tmp_path: Path) -> None:
    sqlite = database_from_url("DATABASE_URL", "sqlite:///var/x.sqlite3", base_dir=tmp_path)
    assert sqlite["NAME"] == tmp_path / "var" / "x.sqlite3"
    absolute = database_from_url("DATABASE_URL", "sqlite:////tmp/abs.sqlite3", base_dir=tmp_path)
    assert absolute["NAME"] == Path("/tmp/abs.sqlite3")
    pg = database_from_url(
        "DATABASE_URL", "postgres://postgres:s%40cret@127.0.0.1:5432/cardroom", base_dir=tmp_path
    )
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "cardroom",
        "postgres",
        "s@cret",
        "127.0.0.1",
        "5432",
    )
    assert (pg["CONN_MAX_AGE"], pg["CONN_HEALTH_CHECKS"], pg["OPTIONS"]) == (
        60,
        True,
        {"connect_timeout": 5},
    )
    tuned = database_from_url(
        "DATABASE_URL", "postgres://h/db?conn_max_age=0&sslmode=require", base_dir=tmp_path
    )
    assert tuned["CONN_MAX_AGE"] == 0
    assert tuned["OPTIONS"] == {"sslmode": "require", "connect_timeout": 5}
    assert sqlite["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    for bad in [
        "mysql://x/y",
        "sqlite:///",
        "postgres://127.0.0.1:5432/",
        "postgres://h:notaport/db",
        "postgres://h/db?conn_max_age=soon",
    ]:
        with pytest.raises(ImproperlyConfiguredEnv, match="DATABASE_URL"):
            database_from_url("DATABASE_URL", bad, base_dir=tmp_path)


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DJANGO_DEBUG": "perhaps"}, "DJANGO_DEBUG"),
        ({"DATABASE_URL": "oracle://db/x"}, "DATABASE_URL"),
        (
            {"DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "cardroom.example"},
            "DJANGO_SECRET_KEY",
        ),
        (
            {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": STRONG_KEY, "CARDROOM_AUDIT_KEY": AK},
            "DJANGO_ALLOWED_HOSTS",
        ),
        (
            {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": STRONG_KEY, "DJANGO_ALLOWED_HOSTS": "x"},
            "CARDROOM_AUDIT_KEY",
        ),
        (
            {
                "DJANGO_DEBUG": "false",
                "DJANGO_SECRET_KEY": STRONG_KEY,
                "DJANGO_ALLOWED_HOSTS": "x",
                "CARDROOM_AUDIT_KEY": "dev-insecure:" + "d" * 40,
            },
            "development key",
        ),
        ({"CARDROOM_AUDIT_KEY": "room:short"}, "shorter than 32"),
        ({"CARDROOM_AUDIT_KEY": "a key with spaces:" + "s" * 40}, "CARDROOM_AUDIT_KEY"),
        ({"CARDROOM_AUDIT_KEY_FILE": "/nonexistent/audit.key"}, "CARDROOM_AUDIT_KEY_FILE"),
        ({"CELERY_BROKER_URL": ""}, "CELERY_BROKER_URL"),
        ({"CELERY_BROKER_URL": "notaurl"}, "CELERY_BROKER_URL"),
        ({"CELERY_BROKER_URL": "http://127.0.0.1:6379/0"}, "CELERY_BROKER_URL"),
        ({"CELERY_BROKER_URL": "redis://"}, "CELERY_BROKER_URL"),
        (
            {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0", "CELERY_RESULT_BACKEND": "x"},
            "CELERY_RESULT_BACKEND",
        ),
        ({"DJANGO_TIME_ZONE": "Mars/Base"}, "DJANGO_TIME_ZONE"),
        ({"DJANGO_LOG_LEVEL": "bogus"}, "DJANGO_LOG_LEVEL"),
        ({"CELERY_VISIBILITY_TIMEOUT": "soon"}, "CELERY_VISIBILITY_TIMEOUT"),
    ],
)
def test_bad_environment_stops_start_up_with_the_variable_named(
    env: dict[str, str], named: str
) -> None:
    result = run_django(env, "check")
    assert result.returncode != 0
    assert named in result.stderr


def test_production_settings_pass_the_deploy_check() -> None:
    result = run_django(
        {
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": STRONG_KEY,
            "DJANGO_ALLOWED_HOSTS": "cardroom.example",
            "CARDROOM_AUDIT_KEY": AK,
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_debug_settings_do_not_pass_the_deploy_check() -> None:
    """The deploy check really checks: the development defaults fail it."""
    result = run_django({}, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0


@pytest.mark.django_db
def test_a_403_is_logged_as_one_line_without_a_traceback(client: Any, staff: Any) -> None:
    """The server's log: a refusal for want of a role is the app working, one line, not
    eight tracebacks in gunicorn's log for eight 403s. A 5xx keeps its traceback."""
    console = next(
        h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler and h.filters
    )
    written = io.StringIO()
    original = console.setStream(written)
    try:
        client.force_login(staff)
        assert client.post("/tables/new/").status_code == 403
        broken = logging.LogRecord("django.request", logging.ERROR, "", 0, "boom", (), None)
        try:
            raise ValueError("the app failed")
        except ValueError:
            broken.exc_info = sys.exc_info()
        broken.status_code = 500
        console.handle(broken)
    finally:
        console.setStream(original)
    log = written.getvalue()
    assert "Forbidden" in log and "/tables/new/" in log
    assert log.count("Traceback") == 1 and "the app failed" in log  # the 500's only


def test_a_403_is_one_line_under_debug_too() -> None:
    """``make run`` (DEBUG): Django's own console handler on the ``django`` logger printed
    each refusal's traceback, then the root handler the line again."""
    code = (
        "from django.core.exceptions import PermissionDenied\n"
        "from django.http import HttpResponse\n"
        "from django.test import RequestFactory\n"
        "from django.utils.log import log_response\n"
        "try:\n"
        "    raise PermissionDenied('This needs a floor manager.')\n"
        "except PermissionDenied as exc:\n"
        "    log_response('Forbidden (Permission denied): %s', '/tables/new/',\n"
        "        response=HttpResponse(status=403), request=RequestFactory().get('/tables/new/'),\n"
        "        exception=exc)\n"
    )
    result = run_django({"DJANGO_DEBUG": "true"}, "shell", "--no-imports", "-c", code)
    assert result.returncode == 0, result.stderr
    log = result.stdout + result.stderr
    assert log.count("Forbidden (Permission denied): /tables/new/") == 1, log
    assert "Traceback" not in log, log
