"""The demo data ships a tournament under way: drawn, one player out, every draw verifiable."""

import pytest
from django.core.management import call_command

from tournaments.draw_services import verify_draw
from tournaments.models import EntrantStatus, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_tournament_is_seated_and_loads_twice_without_duplicates() -> None:
    call_command("demo_data", verbosity=0)
    call_command("demo_data", verbosity=0)
    tournament = Tournament.objects.get(name="Saturday Deepstack")
    assert tournament.entrants.filter(status=EntrantStatus.SEATED).count() == 21
    assert tournament.entrants.filter(status=EntrantStatus.ELIMINATED).count() == 1
    assert all(verify_draw(draw).ok for draw in tournament.draws.all())
    assert [t.table.kind for t in tournament.tables.all()] == ["tournament"] * 3
    # Its antes equal the big blind, a big-blind ante (CR-DM.2), not 600 from each player.
    assert tournament.ante_type == "big_blind"
