"""The demo data the README's first command loads: a log-in per role and a floor of tables."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from cardroom.tables.models import Table

pytestmark = pytest.mark.django_db


def test_demo_data_is_complete_and_safe_to_load_twice() -> None:
    call_command("demo_data", verbosity=0)
    call_command("demo_data", verbosity=0)
    for username in ("manager", "director", "staff", "admin"):
        assert authenticate(username=username, password=f"{username}-demo") is not None
    assert Table.objects.filter(kind="cash").count() == 6  # plus the demo tournament's tables
    assert Table.objects.get(number=3).straddle == 10
