"""The money pages and API: the director's price list (422 on what is typed wrong, 409 once paid
at), the cashier's page (search, Rebuy and Add-on with the method, the ledger), the payments API,
the registration paid with a method, and who may do each (403 for the others)."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from cardroom.core.roles import Role
from tests.factories import make_user
from tests.tournaments.factories import make_tournament
from tests.tournaments.money.test_payments import PRICES, player, priced
from tournaments.money import payments
from tournaments.money.models import Method, MoneyMove, MoveKind, Prices
from tournaments.money.prices import prices_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def cashier() -> Any:
    return make_user(username="cage", role=Role.CASHIER)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def prices_url(tournament: Any) -> str:
    return f"/tournaments/{tournament.pk}/money/prices/"


def form_of(tournament: Any, **changes: str) -> dict[str, str]:
    """The price-list form as the page fills it in, with ``changes`` typed."""
    response = logged_in(tournament.created_by).get(prices_url(tournament))
    form = response.context["form"]
    data = {name: str(field.field.prepare_value(field.initial) or "") for name, field in
            ((n, form[n]) for n in form.fields)}  # fmt: skip
    data["template"] = ""
    return {**data, **changes}


# --- the price list ----------------------------------------------------------------------------


def test_the_director_prices_the_tournament_on_the_page(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    client = logged_in(director)
    page = client.get(prices_url(tournament))
    assert page.status_code == 200
    assert b"Prize pool" in page.content and b"Share of the field paid (%)" in page.content
    data = form_of(tournament, entry_prize="100", entry_fee="10.50", places_share="12.5",
                   curve_steepness="1.25", min_cash_tenths="2.5", rebuy_limit="2",
                   rebuy_chips="20000", rebuy_prize="100", rebuy_last_level="4")  # fmt: skip
    saved = client.post(prices_url(tournament), data)
    assert saved.status_code == 200, saved.context["form"].errors
    assert b"Prices saved." in saved.content
    prices = prices_for(tournament)
    assert (prices.entry_prize, prices.entry_fee, prices.places_share) == (10_000, 1_050, 1_250)
    assert (prices.curve_steepness, prices.min_cash_tenths, prices.rebuy_chips) == (
        125, 25, 20_000,
    )  # fmt: skip
    assert b"$110.50" in client.get(prices_url(tournament)).content


@pytest.mark.parametrize(
    ("field", "typed"),
    [
        ("entry_prize", "²"),
        ("entry_prize", "-5"),
        ("entry_prize", "9" * 30),
        ("entry_prize", "1.005"),
        ("rebuy_limit", "²"),
        ("rebuy_limit", "-1"),
        ("rebuy_limit", "9" * 30),
        ("rebuy_chips", "9" * 30),
        ("places_share", "101"),
        ("places_share", "١٢"),
    ],
)
def test_what_is_typed_wrong_is_a_422_on_its_field(director: Any, field: str, typed: str) -> None:
    tournament = make_tournament(by=director, tables=1)
    response = logged_in(director).post(
        prices_url(tournament), form_of(tournament, **{field: typed})
    )
    assert response.status_code == 422
    assert response.context["form"].errors[field]
    assert prices_for(tournament).entry_prize == 0


def test_prices_that_do_not_hold_together_are_a_422(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    response = logged_in(director).post(
        prices_url(tournament), form_of(tournament, rebuy_limit="2")
    )
    assert response.status_code == 422
    assert "rebuy_chips" in response.context["form"].errors


def test_once_paid_at_the_prices_are_read_only_and_the_payout_settings_still_open(
    director: Any,
) -> None:
    tournament = priced(director, entrants=1, draw=False)
    client = logged_in(director)
    page = client.get(prices_url(tournament))
    assert b'id="prices-locked"' in page.content and b"disabled" in page.content
    assert b"Save the payout settings" in page.content
    data = form_of(tournament, entry_prize="1", places_share="20")
    # A disabled box keeps the list's value whatever is posted: the price stays; the places
    # paid (a payout setting) change.
    response = client.post(prices_url(tournament), data)
    assert response.status_code == 200 and b"Payout settings saved." in response.content
    assert prices_for(tournament).entry_prize == PRICES["entry_prize"]
    assert prices_for(tournament).places_share == 2_000


def test_once_the_payout_table_is_locked_a_save_is_a_409(director: Any) -> None:
    from tournaments.money import payouts

    tournament = priced(director, entrants=1, draw=False)
    payouts.lock_table(tournament=tournament, by=director, reason="Registration closed")
    client = logged_in(director)
    page = client.get(prices_url(tournament))
    assert b"Save the" not in page.content and b"The payout table is locked" in page.content
    response = client.post(prices_url(tournament), form_of(tournament, places_share="20"))
    assert response.status_code == 409 and b"Payments have been taken" in response.content
    assert prices_for(tournament).places_share != 2_000


def test_the_price_list_is_the_directors_alone(
    staff: Any, floor_manager: Any, cashier: Any, director: Any
) -> None:
    tournament = make_tournament(by=director, tables=1)
    for user in (staff, floor_manager, cashier):
        client = logged_in(user)
        assert client.get(prices_url(tournament)).status_code == 403
        assert client.post(prices_url(tournament), {"entry_prize": "5"}).status_code == 403
    assert prices_for(tournament).entry_prize == 0


# --- the cashier's page --------------------------------------------------------------------------


def money_url(tournament: Any) -> str:
    return f"/tournaments/{tournament.pk}/money/"


def pay_url(tournament: Any, number: int) -> str:
    return f"/tournaments/{tournament.pk}/money/pay/{number}/"


def test_the_cashier_finds_a_player_and_takes_a_rebuy(cashier: Any, director: Any) -> None:
    tournament = priced(director)
    client = logged_in(cashier)
    page = client.get(money_url(tournament), {"q": "Player 2"})
    assert page.status_code == 200
    assert [row["entrant"].number for row in page.context["players"]] == [2]
    by_number = client.get(money_url(tournament), {"q": "#3"}, headers={"HX-Request": "true"})
    assert [row["entrant"].number for row in by_number.context["players"]] == [3]
    assert b'id="players"' in by_number.content and b"<h1>" not in by_number.content
    taken = client.post(pay_url(tournament, 2), {"kind": "rebuy", "method": "card"},
                        headers={"HX-Request": "true"})  # fmt: skip
    line = MoneyMove.objects.get(kind=MoveKind.REBUY)
    said = f"Rebuy for Player 2 #2 taken: ${line.player_in // 100:,}.{line.player_in % 100:02} card"
    assert taken.status_code == 200 and said.encode() in taken.content, taken.content.decode()
    assert f"{line.chips:,} chips.".encode() in taken.content
    assert (line.entrant.number, line.method, line.by) == (2, Method.CARD, cashier)
    assert b"1 of 2" in client.get(money_url(tournament), {"q": "2"}).content


def test_the_cashiers_list_is_read_in_as_many_queries_for_forty_players_as_for_six(
    cashier: Any, director: Any
) -> None:
    """Each player listed is offered a rebuy and an add-on: the offers are read for the whole
    list at once, never a few queries a player (fifty players were some five hundred)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.setup import register_entrants

    tournament = priced(director, entrants=6, draw=False)
    client = logged_in(cashier)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            page = client.get(money_url(tournament))
        assert page.status_code == 200
        return len(captured.captured_queries)

    six = queries()
    more = [f"Walk-in {n}" for n in range(1, 35)]
    register_entrants(tournament=tournament, names=more, by=director, method="card")
    forty = client.get(money_url(tournament))
    assert len(forty.context["players"]) == 40
    assert queries() == six


def test_a_refused_rebuy_is_a_409_with_the_reason(director: Any) -> None:
    tournament = priced(director)
    client = logged_in(director)
    payments.take_rebuy(entrant=player(tournament, 2), method="cash", by=director)
    refused = client.post(pay_url(tournament, 2), {"kind": "rebuy", "method": "cash"})
    assert refused.status_code == 409
    assert b"20,000 or fewer" in refused.content
    addon = client.post(pay_url(tournament, 3), {"kind": "addon", "method": "cash"})
    assert addon.status_code == 409 and b"levels 2 to 3" in addon.content
    bad = client.post(pay_url(tournament, 3), {"kind": "rebuy", "method": "room"})
    assert bad.status_code == 422
    assert MoneyMove.objects.filter(kind=MoveKind.REBUY).count() == 1


def test_the_ledger_shows_who_how_and_when_a_page_at_a_time(cashier: Any, director: Any) -> None:
    tournament = priced(director, entrants=6, draw=False)
    for n in range(50):
        payments.add_room_money(tournament=tournament, amount=100 + n, by=director, note=f"n{n}")
    client = logged_in(cashier)
    first = client.get(money_url(tournament))
    lines = first.context["lines"]
    assert len(lines) == 50 and lines.paginator.count == 56
    assert b"n49" in first.content and b"Older" in first.content
    older = client.get(money_url(tournament), {"page": 2}, headers={"HX-Request": "true"})
    assert [line.kind for line in older.context["lines"]] == [MoveKind.ENTRY] * 6
    assert b'id="ledger"' in older.content and b"td" in older.content


def test_the_cashiers_page_is_refused_to_staff_and_floor_managers(
    staff: Any, floor_manager: Any, director: Any
) -> None:
    tournament = priced(director)
    for user in (staff, floor_manager):
        client = logged_in(user)
        assert client.get(money_url(tournament)).status_code == 403
        refused = client.post(pay_url(tournament, 2), {"kind": "rebuy", "method": "cash"})
        assert refused.status_code == 403
    assert not MoneyMove.objects.filter(kind=MoveKind.REBUY).exists()


def test_the_tournament_page_links_the_money(director: Any, staff: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    link = f'href="{money_url(tournament)}"'.encode()  # not the payouts page's, under it
    assert link in logged_in(director).get(f"/tournaments/{tournament.pk}/").content
    assert link not in logged_in(staff).get(f"/tournaments/{tournament.pk}/").content


# --- registration paid with a method, and the API ---------------------------------------------


def test_a_registration_on_the_page_is_paid_with_the_method_chosen(director: Any) -> None:
    tournament = priced(director, entrants=0, draw=False)
    response = logged_in(director).post(
        f"/tournaments/{tournament.pk}/entrants/", {"name": "Ana Ruiz", "method": "voucher"}
    )
    assert response.status_code == 302
    line = MoneyMove.objects.get()
    assert (line.kind, line.method, line.player_in) == (MoveKind.ENTRY, Method.VOUCHER, 11_500)


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_payments_api_takes_a_rebuy_and_refuses_with_the_rule(
    cashier: Any, director: Any
) -> None:
    tournament = priced(director)
    url = f"/api/v1/tournaments/{tournament.pk}/payments/"
    taken = api(cashier).post(url, {"kind": "rebuy", "entry": 2, "method": "card"}, format="json")
    assert taken.status_code == 201
    assert (taken.json()["kind"], taken.json()["entry"], taken.json()["chips"]) == (
        "rebuy", 2, 20_000,
    )  # fmt: skip
    again = api(cashier).post(url, {"kind": "rebuy", "entry": 2}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "rebuy_stack"
    for body in (
        {"kind": "rebuy", "entry": "²"},
        {"kind": "rebuy", "entry": "٣"},
        {"kind": "rebuy", "entry": True},
        {"kind": "rebuy", "entry": -1},
        {"kind": "rebuy", "entry": "9" * 30},
        {"kind": "bonus", "entry": 2},
        {"kind": "rebuy", "entry": 2, "method": "room"},
    ):
        assert api(cashier).post(url, body, format="json").status_code == 400, body
    assert api(cashier).post(url, {"kind": "addon", "entry": 99}, format="json").status_code == 404


def test_the_payments_api_is_the_money_takers_alone(
    staff: Any, floor_manager: Any, director: Any
) -> None:
    tournament = priced(director)
    url = f"/api/v1/tournaments/{tournament.pk}/payments/"
    for user in (staff, floor_manager):
        refused = api(user).post(url, {"kind": "rebuy", "entry": 2}, format="json")
        assert refused.status_code == 403
    assert api(director).post(url, {"kind": "rebuy", "entry": 2}, format="json").status_code == 201


def test_a_refusal_every_player_shares_is_said_once_and_a_freezeout_has_no_rebuy(
    director: Any,
) -> None:
    """Add-ons not open yet for anyone: said once above the list, not on each of its rows; an
    event with no rebuys shows no Rebuy column or button at all."""
    tournament = priced(director)
    Prices.objects.filter(tournament=tournament).update(
        rebuy_limit=0, addon_limit=1, addon_chips=5_000, addon_prize=2_000,
        addon_first_level=2, addon_last_level=2,
    )  # fmt: skip
    page = logged_in(director).get(money_url(tournament)).content.decode()
    assert page.count("Add-ons are taken in levels 2 to 2") == 1, page
    assert 'id="addon-note"' in page
    assert 'value="rebuy"' not in page and ">Rebuys</th>" not in page
    assert page.count('value="addon"') >= 2
