"""Production's entry points load in a fresh process with nothing but the README's variables:
``gunicorn cardroom.wsgi`` and ``celery -A cardroom`` import the ``cardroom`` package (and its
Celery app) before anything has set ``DJANGO_SETTINGS_MODULE``, which pytest, ``manage.py`` and
the benchmarks' stack all set first, so only a process without it shows a module that reads
Django's settings on import too early."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "code",
    [
        "import cardroom.wsgi",
        "from cardroom.celery import app; app.loader.import_default_modules()",
    ],
    ids=["gunicorn", "celery"],
)
def test_the_entry_points_load_without_django_settings_module_set(code: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
