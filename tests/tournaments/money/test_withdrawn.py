"""A withdrawn entry (refunded before the initial draw): its status is the one mark of the
refund. Every count leaves it out by that status alone, every write that needs a live entry
refuses it with a clear answer (a seat held, a count, chips moved, a draw, a bust), the public
board's field leaves it out, and the director's list and the API say what was paid back."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from cardroom.screens import board
from tests.tournaments.money.test_payments import bust, player, priced
from tournaments import chip_counts, eliminations
from tournaments.chip_forms import chips_out
from tournaments.director_seats import reserve_seat
from tournaments.draw_services import draw_initial_seating, draw_late_entries
from tournaments.draws.errors import DrawError
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.money import payments
from tournaments.money.models import MoveKind
from tournaments.money.payouts import entry_count
from tournaments.setup import register_entrant

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def withdrawn_after_the_draw(director: Any, *, entrants: int = 4) -> tuple[Tournament, Entrant]:
    """A priced tournament whose entry #2 was refunded before the initial draw, then drawn:
    the others seated, #2 withdrawn."""
    tournament = priced(director, entrants=entrants, draw=False)
    ana = player(tournament, 2)
    payments.refund_entry(entrant=ana, by=director, reason="Called away")
    draw_initial_seating(tournament=tournament, by=director)
    tournament.refresh_from_db()
    ana.refresh_from_db()
    assert ana.status == EntrantStatus.WITHDRAWN
    return tournament, ana


def marked_withdrawn(entrant: Entrant) -> Entrant:
    """An entry withdrawn by its status alone, no refund line behind it: what every reader
    must go by (the status), not the ledger."""
    Entrant.objects.filter(pk=entrant.pk).update(status=EntrantStatus.WITHDRAWN, chips=0)
    entrant.refresh_from_db()
    return entrant


# --- 1. the status, not the ledger ---------------------------------------------------------


def test_the_withdrawn_status_alone_leaves_an_entry_out_of_the_entries_and_the_chips_bought(
    director: Any,
) -> None:
    tournament = priced(director, entrants=4, draw=False)
    marked_withdrawn(player(tournament, 3))
    assert not tournament.money.filter(kind=MoveKind.REFUND).exists()
    assert entry_count(tournament) == 3
    assert chip_counts.bought_in(tournament) == (("3 entries × 20,000", 60_000),)
    draw_initial_seating(tournament=tournament, by=director)
    assert tournament.assignments.filter(ended_at__isnull=True).count() == 3
    assert chip_counts.reconcile(tournament).balanced


def test_the_withdrawn_status_alone_refuses_chips_bought(director: Any) -> None:
    tournament = priced(director, entrants=4)
    sam = marked_withdrawn(player(tournament, 4))
    assert "refunded" in payments.offer(sam, MoveKind.REBUY).refusal
    with pytest.raises(payments.PaymentRefused) as refused:
        payments.take_rebuy(entrant=sam, method="cash", by=director)
    assert refused.value.code == "refunded"


def test_the_withdrawn_status_alone_leaves_an_entry_out_of_the_places(director: Any) -> None:
    """#2 refunded, #5 withdrawn by its status alone: a field of three, so the first out
    finishes 3rd once registration closes."""
    tournament = priced(director, entrants=5, draw=False)
    payments.refund_entry(entrant=player(tournament, 2), by=director, reason="Called away")
    marked_withdrawn(player(tournament, 5))
    draw_initial_seating(tournament=tournament, by=director)
    first_out = player(tournament, 1)
    bust(tournament, first_out, director)
    eliminations.close_registration(tournament=tournament, by=director)
    first_out.refresh_from_db()
    assert first_out.place == 3


# --- 2. writes that need a live entry ------------------------------------------------------


def test_a_withdrawn_entry_is_never_given_a_reserved_seat(director: Any) -> None:
    tournament = priced(director, entrants=4, draw=False)
    ana = player(tournament, 2)
    payments.refund_entry(entrant=ana, by=director, reason="Called away")
    table = tournament.tables.get()
    with pytest.raises(DrawError) as refused:
        reserve_seat(entrant=ana, table=table, seat=1, reason="Wheelchair", by=director)
    assert refused.value.code == "withdrawn" and "refunded" in str(refused.value)
    assert not tournament.reservations.exists()
    draw_initial_seating(tournament=tournament, by=director)
    ana.refresh_from_db()
    assert ana.status == EntrantStatus.WITHDRAWN


def test_the_reserve_seat_page_says_why_a_withdrawn_entry_gets_no_seat(
    director: Any, client: Client
) -> None:
    tournament = priced(director, entrants=3, draw=False)
    ana = player(tournament, 2)
    payments.refund_entry(entrant=ana, by=director, reason="Called away")
    client.force_login(director)
    room = tournament.tables.select_related("table").get().table.number
    answer = client.post(
        f"/tournaments/{tournament.pk}/reserve-seat/",
        {"entrant": ana.number, "table": room, "seat": 1, "reason": "Wheelchair"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 422
    assert "withdrew (the entry was refunded)" in answer.content.decode()
    assert not tournament.reservations.exists()


def test_a_withdrawn_entry_gets_no_chip_count(director: Any, api_client_for: Any) -> None:
    tournament, ana = withdrawn_after_the_draw(director)
    with pytest.raises(DrawError) as refused:
        chip_counts.correct_count(entrant=ana, chips=10_000, reason="Recount", by=director)
    assert refused.value.code == "withdrawn"
    answer = api_client_for("director").post(
        f"{API}{tournament.pk}/entrants/{ana.number}/count/",
        {"chips": 10_000, "reason": "Recount"},
        format="json",
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "withdrawn"
    ana.refresh_from_db()
    assert ana.chips == 0 and not tournament.chip_counts.exists()


def test_no_chips_move_to_or_from_a_withdrawn_entry(director: Any, api_client_for: Any) -> None:
    tournament, ana = withdrawn_after_the_draw(director)
    lee = player(tournament, 1)
    with pytest.raises(chip_counts.ChipsRefused) as to_her:
        chip_counts.move_chips(
            from_entrant=lee, to_entrant=ana, chips=100, reason="Found", by=director
        )
    assert "to" in to_her.value.message_dict and "refunded" in to_her.value.messages[0]
    with pytest.raises(DrawError) as from_her:
        chip_counts.move_chips(
            from_entrant=ana, to_entrant=lee, chips=100, reason="Found", by=director
        )
    assert from_her.value.code == "withdrawn"
    answer = api_client_for("director").post(
        f"{API}{tournament.pk}/entrants/{lee.number}/chips/move/",
        {"to": ana.number, "chips": 100, "reason": "Found"},
        format="json",
    )
    assert answer.status_code == 422
    assert "to" in answer.json()["error"]["fields"]
    assert not tournament.chip_counts.exists()
    ana.refresh_from_db()
    assert ana.chips == 0


def test_the_chip_move_form_neither_offers_nor_takes_a_withdrawn_entry(
    director: Any, client: Client
) -> None:
    tournament, ana = withdrawn_after_the_draw(director)
    lee = player(tournament, 1)
    offered = chips_out(lee)
    assert ana not in offered["table"] and ana not in offered["rest"]
    assert {e.number for e in offered["table"] + offered["rest"]} == {3, 4}
    client.force_login(director)
    answer = client.post(
        f"/tournaments/{tournament.pk}/entrants/{lee.number}/chips/move/",
        {"to": str(ana.number), "chips": "100", "reason": "Found"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 422
    html = answer.content.decode()
    errors = html.split('id="move-to"', 1)[1].split('<label for="move-reason">', 1)[0]
    assert "withdrew (the entry was refunded)" in errors
    assert f'<option value="{ana.number}"' not in html
    assert not tournament.chip_counts.exists()


def test_a_withdrawn_entry_is_neither_drawn_late_nor_put_out(director: Any) -> None:
    tournament, ana = withdrawn_after_the_draw(director)
    register_entrant(tournament=tournament, name="Late Lee", by=director)
    with pytest.raises(DrawError) as drawn:
        draw_late_entries(tournament=tournament, by=director, entrants=[ana])
    assert drawn.value.code == "withdrawn" and "draw them a seat" in str(drawn.value)
    with pytest.raises(DrawError) as out:
        eliminations.eliminate_player(entrant=ana, by=director)
    assert out.value.code == "withdrawn" and "put them out" in str(out.value)
    assert not tournament.eliminations.exists()
    assert not tournament.assignments.filter(entrant=ana).exists()


def test_the_eliminate_api_refuses_a_withdrawn_entry_with_422(
    director: Any, api_client_for: Any
) -> None:
    tournament, ana = withdrawn_after_the_draw(director)
    answer = api_client_for("director").post(
        f"{API}{tournament.pk}/entrants/{ana.number}/eliminate/", format="json"
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "withdrawn"


def test_a_withdrawn_entry_is_not_re_entered_the_player_enters_anew(director: Any) -> None:
    tournament, ana = withdrawn_after_the_draw(director)
    with pytest.raises(ValidationError) as refused:
        register_entrant(tournament=tournament, name="", reentry_of=ana, by=director)
    assert "new entry" in refused.value.message_dict["reentry_of"][0]
    again = register_entrant(tournament=tournament, name=ana.name, by=director)
    assert again.player_id == ana.player_id and again.reentry_of_id is None


# --- 3. the public board -------------------------------------------------------------------


def test_the_public_board_counts_no_withdrawn_entry_in_a_finished_field(director: Any) -> None:
    tournament, _ana = withdrawn_after_the_draw(director, entrants=3)
    bust(tournament, player(tournament, 3), director)
    tournament.refresh_from_db()
    assert tournament.status == "complete"
    board.forget()
    html = board.build(timezone.now()).live.decode()
    card = html.split(tournament.name, 1)[1]
    assert "2 entries" in card and "3 entries" not in card
    board.forget()


# --- 4. the director's list ----------------------------------------------------------------


def test_the_directors_row_says_what_a_withdrawn_entry_was_paid_back(
    director: Any, client: Client
) -> None:
    tournament = priced(director, entrants=3, draw=False)
    ana = player(tournament, 2)
    payments.refund_entry(entrant=ana, by=director, reason="Called away")
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    row = page.split(f'id="entrant-{ana.number}"', 1)[1].split("</tr>", 1)[0]
    assert "<td>Withdrawn — refunded $115.00</td>" in row
    other = page.split('id="entrant-1"', 1)[1].split("</tr>", 1)[0]
    assert "<td>Registered</td>" in other


# --- 5. the API ----------------------------------------------------------------------------


def test_the_entrant_api_gives_when_and_what_a_withdrawn_entry_was_refunded(
    director: Any, api_client_for: Any, django_assert_max_num_queries: Any
) -> None:
    tournament = priced(director, entrants=3, draw=False)
    before = timezone.now()
    line = payments.refund_entry(entrant=player(tournament, 2), by=director, reason="Left")
    api = api_client_for("director")
    rows = {row["number"]: row for row in api.get(f"{API}{tournament.pk}/entrants/").json()}
    assert rows[2]["status"] == "withdrawn" and rows[2]["refunded"] == 11_500
    assert rows[2]["withdrawn_at"] is not None and line.at >= before
    assert (rows[1]["refunded"], rows[1]["withdrawn_at"]) == (0, None)
    # One query for the entrants and their refunds, whatever their number.
    names = [f"More {i}" for i in range(20)]
    more = [register_entrant(tournament=tournament, name=n, by=director) for n in names]
    for entrant in more[:10]:
        payments.refund_entry(entrant=entrant, by=director, reason="Left")
    with django_assert_max_num_queries(8):
        many = api.get(f"{API}{tournament.pk}/entrants/").json()
    assert sum(1 for row in many if row["refunded"] == 11_500) == 11
    created = api.post(f"{API}{tournament.pk}/entrants/", {"name": "New Nia"}, format="json")
    assert created.status_code == 201
    assert (created.json()["refunded"], created.json()["withdrawn_at"]) == (0, None)


def test_the_schema_marks_the_refund_fields_read_only(api_client_for: Any) -> None:
    schema = api_client_for("staff").get("/api/schema/", {"format": "json"}).json()
    entrant = schema["components"]["schemas"]["Entrant"]["properties"]
    assert entrant["refunded"]["readOnly"] and entrant["refunded"]["type"] == "integer"
    assert entrant["withdrawn_at"]["readOnly"] and entrant["withdrawn_at"]["nullable"]
