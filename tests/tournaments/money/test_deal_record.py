"""Recording a deal: the shares from the desk's counts (the worked ICM check), the payout
table's remaining places, every player's consent, the room's least share left to play for, one
deal a tournament, none while a player is in a hand; the pages: record, the printable sheet,
403 for the roles that may not, 422 for bad input."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.core.roles import Role
from tests.factories import make_user
from tests.tournaments.factories import make_tournament
from tests.tournaments.test_table_hands import one_table, room
from tournaments import table_hands
from tournaments.draw_services import draw_initial_seating
from tournaments.draws.errors import DrawError
from tournaments.models import ClockEvent, Entrant, Tournament
from tournaments.money import deals
from tournaments.money.models import Deal, MoneyMove, MoveKind, PayoutTable, Prices

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_three(director: Any) -> Tournament:
    tournament = make_tournament(by=director, tables=1, entrants=3, name="Deal Night")
    draw_initial_seating(tournament=tournament, by=director)
    for number, chips in ((1, 3_000), (2, 5_000), (3, 2_000)):
        Entrant.objects.filter(tournament=tournament, number=number).update(chips=chips)
    return tournament


def everyone(tournament: Tournament) -> list[int]:
    return list(tournament.entrants.values_list("pk", flat=True))


def record(tournament: Tournament, by: Any, **given: Any) -> Deal:
    given.setdefault("method", "icm")
    given.setdefault("prizes", [500, 300, 200])
    given.setdefault("play_for", 0)
    given.setdefault("agreed", everyone(tournament))
    return deals.record_deal(tournament=tournament, by=by, **given)


def test_the_worked_icm_check_is_recorded_with_a_ledger_line(
    director: Any, final_three: Tournament
) -> None:
    events = ClockEvent.objects.filter(tournament=final_three).count()
    deal = record(final_three, director)
    # Biggest stack first: 5,000 (#2), 3,000 (#1), 2,000 (#3): ICM 384 / 327 / 289.
    assert [(p["number"], p["chips"], p["share"]) for p in deal.players] == [
        (2, 5_000, 384),
        (1, 3_000, 327),
        (3, 2_000, 289),
    ]
    assert all(p["consented"] and p["asked_by"] == "td" for p in deal.players)
    assert {p["entrant"] for p in deal.players} == set(everyone(final_three))
    assert (deal.method, deal.prizes, deal.play_for, deal.by) == (
        "icm",
        [500, 300, 200],
        0,
        director,
    )
    line = MoneyMove.objects.get(tournament=final_three, kind=MoveKind.DEAL)
    assert line.deal == deal
    assert (line.player_in, line.player_out, line.pool, line.bounty, line.owed) == (0, 0, 0, 0, 0)
    # The clock keeps running: recording a deal writes nothing to it.
    assert ClockEvent.objects.filter(tournament=final_three).count() == events


def test_the_payout_tables_remaining_places_are_the_prizes(
    director: Any, final_three: Tournament
) -> None:
    PayoutTable.objects.create(
        tournament=final_three, version=1, pool=1_600, prizes=[500, 300, 200, 100, 100, 100],
        by=director,
    )  # fmt: skip
    PayoutTable.objects.create(
        tournament=final_three, version=2, pool=1_500, prizes=[700, 400, 300, 100], by=director
    )
    deal = record(final_three, director, method="chip_chop", prizes=[1, 1, 1])
    assert deal.prizes == [700, 400, 300]  # the newest version, places 1 to 3
    assert [p["share"] for p in deal.players] == [700, 420, 280]


def test_every_player_left_agrees(director: Any, final_three: Tournament) -> None:
    holdout = final_three.entrants.get(number=3)
    agreed = [pk for pk in everyone(final_three) if pk != holdout.pk]
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, agreed=agreed)
    assert "Player 3 #3" in refused.value.message_dict["consent"][0]
    assert deals.DEAL_UNANIMOUS in refused.value.citations
    assert not Deal.objects.exists() and not MoneyMove.objects.exists()


def test_the_rooms_least_share_left_to_play_for(director: Any, final_three: Tournament) -> None:
    Prices.objects.create(tournament=final_three, deal_min_play_for=1_000)  # 10%
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, play_for=99)
    assert "10%" in refused.value.message_dict["play_for"][0]
    assert "$1.00 or more" in refused.value.message_dict["play_for"][0]
    deal = record(final_three, director, play_for=100)
    assert deal.play_for == 100 and sum(p["share"] for p in deal.players) == 900


def test_a_second_deal_is_a_conflict(director: Any, final_three: Tournament) -> None:
    record(final_three, director)
    with pytest.raises(Conflict) as conflict:
        record(final_three, director, method="equal")
    assert conflict.value.code == "deal_recorded"
    assert Deal.objects.count() == 1


def test_bad_input_is_refused_on_its_field(director: Any, final_three: Tournament) -> None:
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, method="coin_flip")
    assert "method" in refused.value.message_dict
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, prizes=[])
    assert "prizes" in refused.value.message_dict
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, play_for=600)
    assert "play_for" in refused.value.message_dict


@pytest.mark.parametrize(
    ("given", "field", "says"),
    [
        ({"play_for": 600}, "play_for", "($6.00) is above the first prize ($5.00)"),
        ({"unit": 3}, "prizes", "The prizes' total ($10.00) is not a multiple of the unit ($0.03)"),
        ({"unit": 4, "play_for": 6}, "play_for", "($0.06) is not a multiple of the unit ($0.04)"),
    ],
)
def test_a_refusal_writes_its_amounts_in_the_tournaments_currency(
    director: Any, final_three: Tournament, given: dict[str, int], field: str, says: str
) -> None:
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, **given)
    assert says in refused.value.message_dict[field][0]


def test_a_refusal_in_won_writes_won(director: Any, final_three: Tournament) -> None:
    Prices.objects.create(
        tournament=final_three, currency="KRW", minor_units=0, deal_min_play_for=1_000
    )
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, prizes=[130_436, 80_000, 50_000], unit=1_000, play_for=27_000)
    says = refused.value.message_dict["prizes"][0]
    assert "(₩260,436) is not a multiple of the unit (₩1,000)" in says and "260436" not in says
    with pytest.raises(deals.DealRefused) as refused:
        record(final_three, director, prizes=[130_000, 80_000, 50_000], play_for=1_000)
    assert "₩26,000 or more" in refused.value.message_dict["play_for"][0]


def test_no_deal_while_a_player_is_in_a_hand_at_the_desk(director: Any) -> None:
    tournament = one_table(director, players=3, button=1)
    table_hands.deal_tournament_hand(table=room(tournament), by=director)
    with pytest.raises(DrawError) as refused:
        record(tournament, director)
    assert refused.value.code == "in_hand"


# --- the pages --------------------------------------------------------------------------------


def record_url(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.pk}/deal/record/"


def sheet_url(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.pk}/deal/sheet/"


def posted(tournament: Tournament, **fields: Any) -> dict[str, Any]:
    body = {"method": "icm", "prizes": "500\n300\n200", "unit": "1", "play_for": "0"}
    body["agreed"] = [str(pk) for pk in everyone(tournament)]
    body.update(fields)
    return body


def test_the_director_records_the_deal_and_prints_its_sheet(
    persona_client: Any, final_three: Tournament
) -> None:
    client = persona_client("director")
    page = client.get(f"/tournaments/{final_three.pk}/deal/").content.decode()
    assert "Record this deal" in page and 'name="agreed"' in page
    response = client.post(record_url(final_three), posted(final_three, play_for="100"))
    assert response.status_code == 302 and response["Location"] == sheet_url(final_three)
    sheet = client.get(sheet_url(final_three))
    assert sheet.status_code == 200
    text = sheet.content.decode()
    for expected in ("Deal Night", "ICM", "Player 2", "5,000", "Left to play for", "Director: td"):
        assert expected in text
    deal = Deal.objects.get()
    # Typed in dollars, kept in cents, written in dollars: $100.00 left to play for.
    assert deal.prizes == [50000, 30000, 20000] and deal.play_for == 10000
    assert "$100.00" in text and "$900.00" in text and "$500.00 / $300.00 / $200.00" in text
    for player in deal.players:
        assert f"${player['share'] // 100:,}.{player['share'] % 100:02}" in text
    # The date as every other page writes it (2026-11-28 03:29), not Django's default.
    assert deal.at.astimezone(timezone.get_current_timezone()).strftime("%Y-%m-%d %H:%M") in text
    assert text.count("______________________") == 3 + 1  # a line a player, the director's
    assert (
        "A deal is on record" in client.get(f"/tournaments/{final_three.pk}/deal/").content.decode()
    )


def test_a_second_deal_on_the_page_is_a_409(persona_client: Any, final_three: Tournament) -> None:
    client = persona_client("director")
    assert client.post(record_url(final_three), posted(final_three)).status_code == 302
    response = client.post(record_url(final_three), posted(final_three, method="equal"))
    assert response.status_code == 409
    assert "already has a deal on record" in response.content.decode()


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"play_for": "²"}, "use the digits 0 to 9"),
        ({"prizes": "500\n300\n1.234"}, "2 decimals at most"),
        ({"method": "coin_flip"}, "Select a valid choice"),
        ({"agreed": []}, "Every player left agrees"),
        ({"prizes": "500\n300\n200\n100"}, "one prize a player at most"),
        ({"unit": "0"}, "Round to $0.01 or more"),
        ({"unit": "3"}, "The prizes&#x27; total ($1,000.00) is not a multiple of the unit ($3.00)"),
        ({"play_for": "600"}, "($600.00) is above the first prize ($500.00)"),
    ],
)
def test_bad_input_or_a_refusal_is_a_422_on_the_form(
    persona_client: Any, final_three: Tournament, fields: dict[str, Any], says: str
) -> None:
    response = persona_client("director").post(
        record_url(final_three), posted(final_three, **fields)
    )
    assert response.status_code == 422
    assert says in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.parametrize("persona", ["staff", "floor_manager"])
def test_only_the_director_records_or_reads_a_deal(
    client: Any, director: Any, final_three: Tournament, persona: str
) -> None:
    user = make_user(username=persona, role={"staff": Role.STAFF, "cashier": Role.CASHIER,
                                            "floor_manager": Role.FLOOR_MANAGER}[persona])  # fmt: skip
    client.force_login(user)
    assert client.post(record_url(final_three), posted(final_three)).status_code == 403
    record(final_three, director)
    assert client.get(sheet_url(final_three)).status_code == 403


def test_the_cashier_reads_the_sheet_the_shares_are_paid_from(
    client: Any, director: Any, final_three: Tournament
) -> None:
    client.force_login(make_user(username="cage", role=Role.CASHIER))
    assert client.post(record_url(final_three), posted(final_three)).status_code == 403
    record(final_three, director, prizes=[50000, 30000, 20000], unit=100)
    sheet = client.get(sheet_url(final_three))
    assert sheet.status_code == 200
    assert "$384.00" in sheet.content.decode()  # the worked ICM check, in dollars
    assert f'/tournaments/{final_three.pk}/deal/"' not in sheet.content.decode()


def test_the_record_form_is_prefilled_from_the_payout_table(
    persona_client: Any, director: Any, final_three: Tournament
) -> None:
    Prices.objects.create(tournament=final_three, rounding=500)
    PayoutTable.objects.create(
        tournament=final_three, version=1, pool=272_730, prizes=[136_365, 68_181, 40_000, 28_184],
        by=director,
    )  # fmt: skip
    page = persona_client("director").get(f"/tournaments/{final_three.pk}/deal/")
    text = page.content.decode()
    assert page.context["form"]["prizes"].value() == "$1,363.65\n$681.81\n$400.00"
    assert page.context["form"]["unit"].value() == "$5.00"
    assert "$1,363.65 / $681.81 / $400.00" in text and "136,365" not in text


def test_no_sheet_before_a_deal(persona_client: Any, final_three: Tournament) -> None:
    assert persona_client("director").get(sheet_url(final_three)).status_code == 404


def test_the_payouts_page_shows_the_deal(
    persona_client: Any, director: Any, final_three: Tournament
) -> None:
    record(final_three, director, prizes=[50000, 30000, 20000], unit=100, play_for=0)
    text = persona_client("director").get(f"/tournaments/{final_three.pk}/money/payouts/").content
    page = text.decode()
    assert "Deal agreed" in page and "$384.00" in page and sheet_url(final_three) in page
