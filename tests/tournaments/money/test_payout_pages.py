"""The payout pages: everyone on the floor reads the pool and the table, the director alone
works it out, types it, locks it and records the overlay (422 with the errors for amounts that
are not amounts or do not add up, 409 once locked), the cashier or the director pays (the
staff may not), the slip prints the prize in figures and words, a bust in the money says so at
once, and the results carry the prize."""

import csv
import io
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.core.roles import Role
from tests.factories import make_user
from tests.tournaments.factories import bust, lose_chips
from tests.tournaments.money.test_payouts_service import at_table, priced, seated
from tournaments.models import Tournament
from tournaments.money import payouts
from tournaments.money.models import MoneyMove, MoveKind, PayoutTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def cashier(db: None) -> Any:
    return make_user(username="cage", role=Role.CASHIER)


def client_of(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


def edit_url(tournament: Tournament) -> str:
    return reverse("tournaments:payouts_edit", args=[tournament.pk])


def page_url(tournament: Tournament) -> str:
    return reverse("tournaments:payouts", args=[tournament.pk])


def finished_four(director: Any) -> tuple[Tournament, list[Any]]:
    """Four players, two paid ($250 and $150), played to the winner."""
    tournament = priced(director, entrants=4, tables=1, places_fixed=2)
    payouts.save_table(tournament=tournament, by=director, prizes=[25_000, 15_000], note="Typed")
    players = seated(tournament)
    for out in players[:3]:
        bust(entrant=out, by=director)
    return tournament, players


def test_readers_see_the_pool_and_the_table_and_others_are_refused(
    director: Any, persona_client: Any
) -> None:
    tournament = priced(director, entrants=4, tables=1, seat=False, guarantee=50_000)
    page = persona_client("staff").get(page_url(tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Prize pool: $400.00" in html and "overlay of <strong>$100.00</strong>" in html
    # The count of entries goes with the places it pays, not beside the entries' money.
    assert "<dt>Places paid, of 4 entries (re-entries included)</dt>" in html
    assert "record the overlay" not in html  # the director's button only
    assert persona_client("no_role_user").get(page_url(tournament)).status_code == 403
    html = persona_client("director").get(page_url(tournament)).content.decode()
    assert "record the overlay of $100.00" in html and "Change the payouts" in html


def test_the_director_works_out_types_locks_and_records_the_overlay(
    director: Any, persona_client: Any
) -> None:
    tournament = priced(director, entrants=4, tables=1, seat=False, guarantee=50_000,
                        places_fixed=2)  # fmt: skip
    client = persona_client("director")
    answer = client.post(edit_url(tournament), {"action": "work_out", "note": "First go"})
    assert answer.status_code == 302
    assert PayoutTable.objects.get(tournament=tournament).pool == 50_000
    answer = client.post(edit_url(tournament), {"action": "overlay"})
    assert answer.status_code == 302
    assert MoneyMove.objects.get(tournament=tournament, kind=MoveKind.OVERLAY).room_in == 10_000
    answer = client.post(
        edit_url(tournament), {"action": "typed", "prizes": "300\n200.00", "note": "Split agreed"}
    )
    assert answer.status_code == 302
    assert payouts.current_table(tournament).prizes == [30_000, 20_000]
    answer = client.post(edit_url(tournament), {"action": "lock", "reason": "Posted at 9"})
    assert answer.status_code == 302
    html = client.get(page_url(tournament)).content.decode()
    assert "Locked" in html and "Posted at 9" in html and "Change the payouts" not in html
    answer = client.post(edit_url(tournament), {"action": "work_out"})
    assert answer.status_code == 409
    assert "The payouts were locked" in answer.content.decode()
    assert PayoutTable.objects.filter(tournament=tournament).count() == 3


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("300\n1²", "use the digits 0 to 9"),
        ("500\n-100", "never below zero"),
        ("300\n50", "add up to $350.00; the pool is $400.00 (short by $50.00)"),
        ("100\n300", "paid more"),
        ("", "This field is required"),
    ],
)
def test_typed_amounts_that_are_not_amounts_or_do_not_add_up_are_422(
    director: Any, persona_client: Any, typed: str, says: str
) -> None:
    tournament = priced(director, entrants=4, tables=1, seat=False)
    answer = persona_client("director").post(
        edit_url(tournament), {"action": "typed", "prizes": typed, "note": "Typed"}
    )
    assert answer.status_code == 422
    assert says in answer.content.decode()
    assert not PayoutTable.objects.filter(tournament=tournament).exists()


def test_a_cashier_may_not_edit_the_table_and_staff_may_not_pay(
    director: Any, cashier: Any, client: Any, persona_client: Any
) -> None:
    tournament, players = finished_four(director)
    cage = client_of(client, cashier)
    assert cage.post(edit_url(tournament), {"action": "work_out"}).status_code == 403
    pay = reverse("tournaments:payout_pay", args=[tournament.pk, players[2].number])
    assert persona_client("staff").post(pay, {"method": "cash"}).status_code == 403
    assert persona_client("floor_manager").post(pay, {"method": "cash"}).status_code == 403
    assert not MoneyMove.objects.filter(kind=MoveKind.PAYOUT).exists()


def test_the_cashier_pays_and_the_slip_says_who_and_when(
    director: Any, cashier: Any, client: Any
) -> None:
    tournament, players = finished_four(director)
    second = players[2]
    cage = client_of(client, cashier)
    slip = reverse("tournaments:payout_slip", args=[tournament.pk, second.number])
    html = cage.get(slip).content.decode()
    assert "2nd" in html and "$150.00" in html and "not paid yet" in html
    assert "One hundred fifty and 00/100 USD" in html
    page = cage.get(page_url(tournament)).content.decode()
    assert "Pay $150.00" in page and "Change the payouts" not in page
    pay = reverse("tournaments:payout_pay", args=[tournament.pk, second.number])
    answer = cage.post(pay, {"method": "cash"})
    assert answer.status_code == 302 and answer["Location"] == slip
    line = MoneyMove.objects.get(kind=MoveKind.PAYOUT)
    assert (line.entrant_id, line.player_out, line.by) == (second.pk, 15_000, cashier)
    html = cage.get(slip).content.decode()
    assert "by cage" in html and "not paid yet" not in html
    again = cage.post(pay, {"method": "cash"})
    assert again.status_code == 409 and "Already paid by cage" in again.content.decode()
    out = reverse("tournaments:payout_pay", args=[tournament.pk, players[0].number])
    assert cage.post(out, {"method": "cash"}).status_code == 409  # 4th: out of the money
    assert cage.post(pay, {"method": "room"}).status_code == 422
    assert MoneyMove.objects.filter(kind=MoveKind.PAYOUT).count() == 1


@pytest.mark.parametrize(
    ("lock", "said"),
    [
        ("bubble", "reached the places paid. These are what the finishers are paid."),
        ("director", "Posted at 9. These are what the finishers are paid."),
    ],
)
def test_the_lock_note_ends_its_sentence_once_whether_or_not_the_reason_did(
    director: Any, persona_client: Any, lock: str, said: str
) -> None:
    """The bubble's note ends with a full stop, a director's typed reason may not: the page
    says each as one sentence ("paid. These are", never "paid.. These are")."""
    if lock == "bubble":
        tournament, _ = finished_four(director)
    else:
        tournament = priced(director, entrants=4, tables=1, places_fixed=2)
        payouts.lock_table(tournament=tournament, by=director, reason="Posted at 9")
    html = persona_client("director").get(page_url(tournament)).content.decode()
    assert said in html and ".. These are" not in html


def test_a_bust_in_the_money_shows_the_prize_and_the_slip_at_once(
    director: Any, persona_client: Any
) -> None:
    tournament = priced(director, entrants=4, tables=1, places_fixed=3)
    payouts.save_table(
        tournament=tournament, by=director, prizes=[20_000, 12_000, 8_000], note="Typed"
    )
    players = seated(tournament)
    bust(entrant=players[0], by=director)
    third = lose_chips(players[1])
    client = persona_client("director")
    url = reverse("tournaments:entrant_eliminate", args=[tournament.pk, third.number])
    answer = client.post(url, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    slip = reverse("tournaments:payout_slip", args=[tournament.pk, third.number])
    assert "In the money: 3rd, $80.00" in html and slip in html
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "In the money: 3rd, $80.00" in detail
    assert "In the money" not in detail.split(f"elimination-{players[0].number}")[1][:400]


def test_the_results_and_their_csv_carry_the_prize_and_when_it_was_paid(
    director: Any, persona_client: Any
) -> None:
    tournament, players = finished_four(director)
    payouts.pay_prize(entrant=players[3], method="cash", by=director)
    client = persona_client("staff")
    html = client.get(reverse("tournaments:results", args=[tournament.pk])).content.decode()
    assert '<th scope="col">Prize</th>' in html and "$250.00" in html and "$150.00" in html
    answer = client.get(reverse("tournaments:results_csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [(r["place"], r["prize"]) for r in rows] == [
        ("1", "250.00"), ("2", "150.00"), ("3", ""), ("4", ""),
    ]  # fmt: skip
    assert rows[0]["paid"] and not rows[1]["paid"]
    assert [r["place_note"] for r in rows] == ["winner", "", "", ""]


def test_the_results_csvs_place_is_a_number_and_its_words_a_column_of_their_own(
    director: Any, persona_client: Any
) -> None:
    """Two out on the bubble hand share 5th (TDA RP-8-A): both "5", the words beside."""
    tournament = priced(director, entrants=8, tables=2, places_fixed=5)
    payouts.save_table(
        tournament=tournament, by=director, prizes=[35_001, 20_000, 12_000, 7_000, 5_999],
        note="Typed",
    )  # fmt: skip
    one, two = at_table(tournament, 1), at_table(tournament, 2)
    for out in (one[0], two[0], one[1], two[1]):  # the last two on one hand-for-hand hand
        bust(entrant=out, by=director)
    answer = persona_client("staff").get(reverse("tournaments:results_csv", args=[tournament.pk]))
    header, *rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert header[:3] == ["place", "place_note", "name"]
    places = [(row[0], row[1]) for row in rows]
    assert places == [("", "still in")] * 4 + [
        ("5", "shared 5th–6th, same hand"), ("5", "shared 5th–6th, same hand"),
        ("7", ""), ("8", ""),
    ]  # fmt: skip
    assert all(place == "" or place.isdigit() for place, _ in places)


def test_a_typed_table_needs_its_reason_and_none_follows_a_paid_prize(
    director: Any, client: Any
) -> None:
    fresh = priced(director, entrants=4, tables=1, places_fixed=2)
    page = client_of(client, director)
    answer = page.post(edit_url(fresh), {"action": "typed", "prizes": "250\n150", "note": ""})
    html = answer.content.decode()
    assert answer.status_code == 422 and "Say why this table" in html
    assert 'aria-describedby="note-errors"' in html and "Why this table</label>" in html
    assert not PayoutTable.objects.filter(tournament=fresh).exists()


def test_the_page_refuses_a_new_version_after_a_prize_is_paid(director: Any, client: Any) -> None:
    tournament, players = finished_four(director)
    page = client_of(client, director)
    payouts.pay_prize(entrant=players[2], method="cash", by=director)  # 2nd, $150.00
    again = page.post(edit_url(tournament), {"action": "typed", "prizes": "300\n100", "note": "x"})
    assert again.status_code == 409 and "2nd place was paid $150.00" in again.content.decode()


def test_the_slip_and_the_page_say_the_place_waits_for_registration_to_close(
    director: Any, persona_client: Any
) -> None:
    tournament = priced(director, entrants=4, tables=1, seat=False, places_fixed=2)
    from tournaments import draw_services, eliminations

    draw_services.draw_initial_seating(tournament=tournament, by=director)
    players = seated(tournament)
    out = bust(entrant=players[0], by=director)
    client = persona_client("director")
    slip = reverse("tournaments:payout_slip", args=[tournament.pk, players[0].number])
    html = client.get(slip).content.decode()
    at = f"{timezone.localtime(out.at):%H:%M}"
    assert f"Out at {at}; the place is set when registration closes (TDA 8)" in html
    assert "nothing is owed" not in html and "not finished" not in html
    page = client.get(page_url(tournament)).content.decode()
    assert "1 player out while registration is open" in page and "Close registration" in page
    eliminations.close_registration(tournament=tournament, by=director)
    html = client.get(slip).content.decode()
    assert "4th: out of the money" in html and ">4: out" not in html
    assert 'class="slip-amount"' not in html  # no prize: no amount to sign for
    assert "places-wait" not in client.get(page_url(tournament)).content.decode()


def test_the_versions_say_what_they_share_out_and_the_prizes_line_names_the_overlay(
    director: Any, persona_client: Any
) -> None:
    tournament = priced(director, entrants=4, tables=1, guarantee=50_000, places_fixed=2)
    payouts.save_table(tournament=tournament, by=director, note="First table")
    html = persona_client("director").get(page_url(tournament)).content.decode()
    assert '<th scope="col" class="num">Shares out</th>' in html
    assert '<th scope="col" class="num">Pool</th>' not in html
    assert "$500.00 in all: the pool $400.00 + the guarantee" in html and "overlay $100.00" in html
    assert "Why this table (optional)" in html and "Why lock them now" in html
    assert '<td>1st <span class="muted">' in html or "<td>1st</td>" in html


def test_the_slip_shows_the_amount_large_for_the_signature(director: Any, client: Any) -> None:
    tournament, players = finished_four(director)
    slip = reverse("tournaments:payout_slip", args=[tournament.pk, players[2].number])
    html = client_of(client, director).get(slip).content.decode()
    assert 'id="slip-amount" class="slip-amount"><strong>$150.00</strong>' in html
    assert "css/payout-slip.css" in html
