"""Tournament fixtures."""

from typing import Any

import pytest


@pytest.fixture
def seated(director: Any) -> Any:
    """20 players drawn onto three 9-handed tables (7, 7, 6)."""
    from tests.tournaments.factories import make_tournament
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(by=director, tables=3, entrants=20)
    draw_initial_seating(tournament=tournament, by=director)
    tournament.refresh_from_db()
    return tournament
