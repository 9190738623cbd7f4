"""A recorded deal where people read the prizes: the results page shows each dealt player's
share from the moment the deal is recorded (and that the amount left to play for goes to the
winner), and the payouts page shows the deal's amounts in place of the table's for the places
it covers, so the cashier pays what was agreed."""

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.factories import bust
from tests.tournaments.money.test_payouts_service import priced, seated
from tournaments.models import Entrant, Tournament
from tournaments.money import deals, payouts

pytestmark = pytest.mark.django_db

#: The table pays $200, $120 and $80; the deal, a chip chop of the $400 less the $20 left to play
#: for, over 5,000, 3,000 and 2,000 chips: $190, $114 and $76.
TABLE = [20_000, 12_000, 8_000]
SHARES = {2: 19_000, 3: 11_400, 4: 7_600}


def dealt(director: Any) -> Tournament:
    """Four players, three paid; the 4th out, the three left agree a chip chop with $20.00 left
    to play for."""
    tournament = priced(director, entrants=4, tables=1, places_fixed=3)
    payouts.save_table(tournament=tournament, by=director, prizes=TABLE, note="Typed")
    players = seated(tournament)
    bust(entrant=players[0], by=director)
    for number, chips in ((2, 5_000), (3, 3_000), (4, 2_000)):
        Entrant.objects.filter(tournament=tournament, number=number).update(chips=chips)
    deals.record_deal(
        tournament=tournament, method="chip_chop", prizes=None, play_for=2_000,
        agreed=[p.pk for p in players[1:]], by=director,
    )  # fmt: skip
    return tournament


def results_row(html: str, number: int) -> str:
    return html.split(f'id="place-{number}"')[1].split("</tr>")[0]


def test_the_results_show_each_dealt_players_share_before_they_finish(
    director: Any, persona_client: Any
) -> None:
    tournament = dealt(director)
    url = reverse("tournaments:results", args=[tournament.pk])
    html = persona_client("staff").get(url).content.decode()
    for number, share in ((2, "$190.00"), (3, "$114.00"), (4, "$76.00")):
        row = results_row(html, number)
        assert share in row and "agreed in the deal" in row, row
        assert "$20.00 left to play for if they win" in row
        assert "when they finish" in row
    assert "agreed in the deal" not in results_row(html, 1)  # out before the deal
    assert 'id="results-deal"' in html and "$20.00 left to play for, to the winner" in html
    # Once the 3rd place is known, the share is the prize owed, marked as the deal's.
    bust(entrant=tournament.entrants.get(number=4), by=director)
    row = results_row(persona_client("staff").get(url).content.decode(), 4)
    assert "$76.00" in row and "(the deal)" in row and "$80.00" not in row
    assert "not yet" in row
