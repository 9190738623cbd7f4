"""A recorded deal where people read the prizes: the results page shows each dealt player's
share from the moment the deal is recorded (and that the amount left to play for goes to the
winner), and the payouts page shows the deal's amounts in place of the table's for the places
it covers, so the cashier pays what was agreed."""

import csv
import io
from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.factories import bust
from tests.tournaments.money.test_payouts_service import priced, seated
from tournaments.models import Entrant, Tournament
from tournaments.money import deals, payouts
from tournaments.money.models import MoneyMove, MoveKind

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
        assert f'{share}</span> <span class="muted">(the deal)</span>' in row, row
    assert "(the deal)" not in results_row(html, 1)  # out before the deal
    assert 'id="results-deal"' in html and "$20.00 left to play for, to the winner" in html
    note = html.split('id="results-deal-note">')[1].split("</p>")[0]
    assert "owed their share, whatever place they finish in" in note
    assert "the $20.00 left to play for goes to the winner" in note
    # Once the 3rd place is known, the share is the prize owed, marked as the deal's.
    bust(entrant=tournament.entrants.get(number=4), by=director)
    row = results_row(persona_client("staff").get(url).content.decode(), 4)
    assert "$76.00" in row and "(the deal)" in row and "$80.00" not in row
    assert "not yet" in row


def test_the_results_csv_says_deal_beside_the_place_and_carries_the_share(
    director: Any, persona_client: Any
) -> None:
    tournament = dealt(director)
    bust(entrant=tournament.entrants.get(number=4), by=director)
    answer = persona_client("staff").get(reverse("tournaments:results_csv", args=[tournament.pk]))
    rows = {r["entry"]: r for r in csv.DictReader(io.StringIO(answer.content.decode()))}
    assert {n: (r["place"], r["place_note"], r["prize"]) for n, r in rows.items()} == {
        "2": ("", "still in; deal", "190.00"),
        "3": ("", "still in; deal", "114.00"),
        "4": ("3", "deal", "76.00"),
        "1": ("4", "", ""),
    }


def payout_row(html: str, place: int) -> str:
    return html.split(f'id="payout-place-{place}"')[1].split("</tr>")[0]


def test_the_places_the_deal_covers_show_its_amounts_never_the_tables_to_pay(
    director: Any, persona_client: Any
) -> None:
    tournament = dealt(director)
    cage = persona_client("cashier")
    url = reverse("tournaments:payouts", args=[tournament.pk])
    html = cage.get(url).content.decode()
    assert "1st to 3rd place are paid by the deal" in html
    for place, amount in zip((1, 2, 3), TABLE, strict=True):
        row = payout_row(html, place)
        table_amount = f"{amount // 100}.00"
        # The table's amount is there only struck through, named as not paid.
        assert f"not paid: </span>${table_amount}</s>" in row
        assert row.count(f"${table_amount}") == 1, row
        assert "by the deal, see above" in row
    # The 3rd finishes: the row shows the deal's $76.00 and the button pays it.
    third = tournament.entrants.get(number=4)
    bust(entrant=third, by=director)
    row = payout_row(cage.get(url).content.decode(), 3)
    assert "<div>$76.00</div>" in row and "Pay $76.00" in row and "Pay $80.00" not in row
    answer = cage.post(
        reverse("tournaments:payout_pay", args=[tournament.pk, third.number]), {"method": "cash"}
    )
    assert answer.status_code == 302
    line = MoneyMove.objects.get(kind=MoveKind.PAYOUT)
    assert (line.entrant_id, line.player_out, line.place) == (third.pk, SHARES[4], 3)
    assert line.deal is not None


def test_pay_prize_pays_each_dealt_player_their_share_and_the_winner_the_amount_left(
    director: Any,
) -> None:
    tournament = dealt(director)
    for number in (4, 3):  # 3rd, then 2nd
        bust(entrant=tournament.entrants.get(number=number), by=director)
    paid = {
        number: payouts.pay_prize(
            entrant=tournament.entrants.get(number=number), method="cash", by=director
        ).player_out
        for number in (2, 3, 4)
    }
    assert paid == {2: SHARES[2] + 2_000, 3: SHARES[3], 4: SHARES[4]}
    assert sum(paid.values()) == sum(TABLE)
