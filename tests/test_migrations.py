"""The migrations describe the models: a model change (a default, a field) without its
migration fails here, as ``makemigrations --check --dry-run`` in ``.ci/run`` fails CI."""

import io

import pytest
from django.core.management import call_command

from cardroom.tables.models import Table

pytestmark = pytest.mark.django_db


def makemigrations_check() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:  # --check exits 1 when a migration is missing
        return int(exit_.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_every_model_change_has_its_migration() -> None:
    code, output = makemigrations_check()
    assert code == 0, output


def test_the_check_sees_a_default_changed_without_a_migration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seats = Table._meta.get_field("seats")
    monkeypatch.setattr(seats, "default", seats.default + 1)
    code, output = makemigrations_check()
    assert code == 1
    assert "Alter field seats on table" in output
