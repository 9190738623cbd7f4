"""Typed readers for settings that come from the environment.

Each reader rejects a bad value with a message naming the variable, so a typo in a deploy
stops start-up instead of running with a surprising default.
"""

import os
import zoneinfo
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url


class ImproperlyConfiguredEnv(Exception):
    """An environment variable holds a value the settings cannot use."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip()
    if not value:
        raise ImproperlyConfiguredEnv(f"{name} is set but empty; unset it or give a value.")
    return value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfiguredEnv(
        f"{name}={value!r} is not a boolean; use one of true/false, 1/0, yes/no, on/off."
    )


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name}={value!r} is not a whole number.") from None
    if number < minimum:
        raise ImproperlyConfiguredEnv(f"{name}={number} must be at least {minimum}.")
    return number


def env_choice(name: str, default: str, choices: Iterable[str]) -> str:
    """One of ``choices``, compared without regard to case (given back as listed)."""
    value = env_str(name)
    if value is None:
        return default
    allowed = {choice.casefold(): choice for choice in choices}
    if value.casefold() not in allowed:
        raise ImproperlyConfiguredEnv(
            f"{name}={value!r} is not one of {', '.join(allowed.values())}."
        )
    return allowed[value.casefold()]


def env_url(name: str, default: str | None, schemes: Iterable[str]) -> str | None:
    """A URL whose scheme is one of ``schemes`` and which names a host (or a path)."""
    value = env_str(name, default)
    if value is None or value == default:
        return value
    parts = urlsplit(value)
    if parts.scheme not in schemes or not (parts.netloc or parts.path.strip("/")):
        raise ImproperlyConfiguredEnv(
            f"{name}={value!r} is not a URL of the kind it needs:"
            f" {' or '.join(s + '://' for s in schemes)}host[:port][/db]."
        )
    return value


def env_time_zone(name: str, default: str) -> str:
    value = env_str(name, default) or default
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfiguredEnv(
            f"{name}={value!r} is not a time zone; use an IANA name such as Europe/London."
        ) from None
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfiguredEnv(f"{name} is set but lists nothing; use a,b,c.")
    return items


_SQLITE_SCHEMES = {"sqlite"}
_POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql"}


def database_from_url(name: str, url: str, *, base_dir: Path) -> dict[str, Any]:
    """Turn ``sqlite:///path`` or ``postgres://user:pass@host:port/db`` into DATABASES['default'].

    dj-database-url parses the URL; this adds what Cardroom needs on top: only SQLite and
    PostgreSQL, a relative SQLite path taken from the project folder (``sqlite:////abs`` is
    absolute), SQLite's lock timeout and IMMEDIATE transactions, and PostgreSQL connections
    kept 60 s (``?conn_max_age=`` overrides) with health checks and a 5 s connect timeout.
    """
    scheme = urlsplit(url).scheme
    if scheme not in _SQLITE_SCHEMES | _POSTGRES_SCHEMES:
        raise ImproperlyConfiguredEnv(
            f"{name}={url!r}: unsupported scheme {scheme!r}; use sqlite:/// or postgres://"
        )
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url))
    except ValueError:
        raise ImproperlyConfiguredEnv(
            f"{name}={url!r} is not a valid URL (a bad port, or a part not %-quoted)."
        ) from None
    options: dict[str, Any] = config.pop("OPTIONS", {})
    if scheme in _SQLITE_SCHEMES:
        if config["NAME"] in {"", ":memory:"}:
            raise ImproperlyConfiguredEnv(
                f"{name}={url!r}: give a file, e.g. sqlite:///var/db.sqlite3"
            )
        return {
            "ENGINE": config["ENGINE"],
            "NAME": base_dir / config["NAME"],
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    if not config["NAME"]:
        raise ImproperlyConfiguredEnv(f"{name}={url!r} names no database (…/dbname).")
    options.setdefault("connect_timeout", 5)
    conn_max_age = options.pop("conn_max_age", 60)
    if not isinstance(conn_max_age, int) or isinstance(conn_max_age, bool):
        raise ImproperlyConfiguredEnv(f"{name}={url!r}: conn_max_age must be whole seconds.")
    return {
        **config,
        "PORT": str(config["PORT"]),
        "CONN_MAX_AGE": conn_max_age,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
    }
