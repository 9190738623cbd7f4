"""Entrants and eliminations done right: free tables only, one name per player, re-entries by
the player chosen, finishing places only once registration closes, and a mistaken "Out" undone
by an audited correction (a new row; the elimination stays)."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.factories import LEVELS, bust, make_room_tables, make_tournament
from tournaments import balance_checks, director_seats, draw_services, eliminations, setup
from tournaments.draws.errors import DrawError
from tournaments.forms import EntrantForm, TournamentForm
from tournaments.models import (
    Elimination,
    Entrant,
    EntrantStatus,
    MoveReason,
    Reinstatement,
    SeatAssignment,
    Tournament,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db


def entrant(tournament: Tournament, number: int) -> Entrant:
    return tournament.entrants.get(number=number)


def seat_of(player: Entrant) -> tuple[int, int] | None:
    live = SeatAssignment.objects.filter(entrant=player, ended_at__isnull=True).first()
    return (live.table.number, live.seat) if live else None


def places(tournament: Tournament) -> dict[int, int | None]:
    return dict(tournament.entrants.values_list("number", "place"))


# --- tables: only the free ones, refusals in plain words -------------------------------------


def test_the_form_offers_only_tables_not_in_a_tournament_in_play(director: Any) -> None:
    busy = make_room_tables(count=2, first=21)
    free = make_room_tables(count=1, first=23)
    setup.create_tournament(by=director, name="Sunday Deepstack", tables=busy, levels=LEVELS)
    offered = [value for value, _ in TournamentForm().fields["tables"].widget.choices]
    assert offered == [free[0].pk]


def test_a_table_taken_meanwhile_is_refused_in_words_naming_the_tournament(
    director: Any,
) -> None:
    rooms = make_room_tables(count=4, first=21)
    setup.create_tournament(by=director, name="Sunday Deepstack", tables=rooms[:2], levels=LEVELS)
    setup.create_tournament(by=director, name="The Big One", tables=rooms[2:3], levels=LEVELS)
    with pytest.raises(ValidationError) as caught:
        setup.create_tournament(by=director, name="Late", tables=rooms[:1], levels=LEVELS)
    assert caught.value.message_dict["tables"] == ["Table 21 is already in the Sunday Deepstack."]
    with pytest.raises(ValidationError) as caught:
        setup.create_tournament(by=director, name="Late", tables=rooms, levels=LEVELS)
    assert caught.value.message_dict["tables"] == [
        "Tables 21 and 22 are already in the Sunday Deepstack. Table 23 is already in The Big One."
    ]
    # The form still takes a table shown as free a moment ago, so the service can say why.
    data = {"name": "Late", "variant": "holdem", "structure": "no_limit", "seats_per_table": 9,
            "starting_stack": 20000, "balancing_policy": "tda", "levels": "100/200 20",
            "tables": [rooms[0].pk]}  # fmt: skip
    assert TournamentForm(data).is_valid()


def test_a_finished_tournament_gives_its_tables_back(director: Any) -> None:
    rooms = make_room_tables(count=1, first=21)
    done = setup.create_tournament(by=director, name="Done", tables=rooms, levels=LEVELS)
    setup.register_entrants(tournament=done, names=["A", "B"], by=director)
    draw_services.draw_initial_seating(tournament=done, by=director)
    bust(entrant=entrant(done, 1), by=director)
    offered = [value for value, _ in TournamentForm().fields["tables"].widget.choices]
    assert offered == [rooms[0].pk]


# --- one name per player --------------------------------------------------------------------


def test_a_name_already_entered_is_refused_trimmed_and_in_any_case(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    setup.register_entrant(tournament=tournament, name="Ann Lee", by=director)
    for again in ("Ann Lee", "  ann   LEE ", "ANN LEE"):
        with pytest.raises(ValidationError) as caught:
            setup.register_entrant(tournament=tournament, name=again, by=director)
        assert caught.value.message_dict["name"][0].startswith("Ann Lee is already entered (#1).")
    with pytest.raises(ValidationError) as caught:
        setup.register_entrants(tournament=tournament, names=["Bo", "bo "], by=director)
    assert "twice" in caught.value.message_dict["name"][0]
    assert tournament.entrants.count() == 1
    other = make_tournament(by=director, tables=1, first_table=201, name="Other")
    assert setup.register_entrant(tournament=other, name="Ann Lee", by=director).number == 1


def test_names_are_stored_trimmed(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    player = setup.register_entrant(tournament=tournament, name="  Cy   Young ", by=director)
    assert player.name == "Cy Young"


# --- re-entry: the player chosen is the source of truth --------------------------------------


def test_a_re_entry_takes_the_players_name_and_is_not_a_duplicate(
    seated: Tournament, director: Any
) -> None:
    out = entrant(seated, 4)
    bust(entrant=out, by=director)
    again = setup.register_entrant(tournament=seated, name="", by=director, reentry_of=out)
    assert again.name == out.name and again.reentry_of_id == out.pk
    # The same player may bust and re-enter again: the name typed in any case is theirs.
    draw_services.draw_late_entries(tournament=seated, by=director)
    bust(entrant=again, by=director)
    third = setup.register_entrant(
        tournament=seated, name=out.name.upper(), by=director, reentry_of=again
    )
    assert third.name == out.name


def test_a_re_entry_with_another_players_name_is_refused(seated: Tournament, director: Any) -> None:
    out = entrant(seated, 4)
    bust(entrant=out, by=director)
    with pytest.raises(ValidationError) as caught:
        setup.register_entrant(tournament=seated, name="Player 5", by=director, reentry_of=out)
    assert caught.value.message_dict["name"] == [
        "This is a re-entry of Player 4 (#4), not Player 5: leave the name blank or type Player 4."
    ]
    assert seated.entrants.count() == 20


def test_an_entry_re_enters_once_and_only_its_latest_entry_is_offered(
    seated: Tournament, director: Any
) -> None:
    out = entrant(seated, 4)
    bust(entrant=out, by=director)
    again = setup.register_entrant(tournament=seated, name="", by=director, reentry_of=out)
    with pytest.raises(ValidationError) as caught:
        setup.register_entrant(tournament=seated, name="", by=director, reentry_of=out)
    assert caught.value.message_dict["reentry_of"] == [
        f"Player 4 (#4) has already re-entered as #{again.number}."
    ]
    assert list(EntrantForm(tournament=seated).fields["reentry_of"].queryset) == []


def test_the_entrant_form_refuses_a_blank_name_for_a_new_player(seated: Tournament) -> None:
    form = EntrantForm({"name": "  "}, tournament=seated)
    assert not form.is_valid()
    assert form.errors["name"] == ["Give the player's name, or choose who re-enters."]
    still_in = EntrantForm({"reentry_of": entrant(seated, 3).pk}, tournament=seated)
    assert not still_in.is_valid()
    assert still_in.errors["reentry_of"][0].startswith("That entry cannot re-enter now")


# --- finishing places wait for registration to close (TDA 8) ---------------------------------


def test_a_bust_during_late_registration_gets_no_place_until_it_closes(
    seated: Tournament, director: Any
) -> None:
    first = entrant(seated, 1)
    elimination = bust(entrant=first, by=director)
    assert elimination.place is None and places(seated)[1] is None
    again = setup.register_entrant(tournament=seated, name="", by=director, reentry_of=first)
    draw_services.draw_late_entries(tournament=seated, by=director)
    bust(entrant=entrant(seated, 2), by=director)
    eliminations.close_registration(tournament=seated, by=director)
    # 21 entries, 20 players: the first entry re-entered, so that player is still in.
    found = places(seated)
    assert found[1] is None and found[again.number] is None
    assert found[2] == 20  # out first of the 20 players
    late = bust(entrant=entrant(seated, 3), by=director)
    assert late.place == 19 and places(seated)[3] == 19
    with pytest.raises(ValidationError):
        setup.register_entrant(tournament=seated, name="Too Late", by=director)
    with pytest.raises(DrawError) as caught:
        eliminations.close_registration(tournament=seated, by=director)
    assert caught.value.code == "registration_closed"


def test_the_final_table_redraw_closes_registration(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=8, seats_per_table=6)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    for number in (1, 2):
        bust(entrant=entrant(tournament, number), by=director)
    draw_services.redraw_final_table(tournament=tournament, by=director)
    tournament.refresh_from_db()
    assert not tournament.registration_open and tournament.registration_closed_at
    assert places(tournament)[1] == 8 and places(tournament)[2] == 7


# --- undoing an elimination: a new row, the player back in the seat -------------------------


def test_an_elimination_undone_puts_the_player_back_and_keeps_the_record(
    seated: Tournament, director: Any
) -> None:
    eliminations.close_registration(tournament=seated, by=director)
    wrong, right = entrant(seated, 5), entrant(seated, 6)
    seat = seat_of(wrong)
    first = bust(entrant=wrong, by=director)
    bust(entrant=right, by=director)
    assert places(seated)[5] == 20 and places(seated)[6] == 19
    fixed = eliminations.reinstate_player(
        entrant=wrong, by=director, reason="  Out clicked on the wrong player "
    )
    assert isinstance(fixed, Reinstatement)
    assert (fixed.table_number, fixed.seat, fixed.reason) == (
        *seat,
        "Out clicked on the wrong player",
    )
    assert fixed.elimination_id == first.pk and fixed.by == director
    wrong.refresh_from_db()
    assert wrong.status == EntrantStatus.SEATED and seat_of(wrong) == seat
    # The elimination row stays as it was; places are worked out again without it.
    assert Elimination.objects.filter(pk=first.pk, place=20).exists()
    assert list(seated.eliminations.standing().values_list("entrant__number", flat=True)) == [6]
    assert places(seated)[5] is None and places(seated)[6] == 20
    move = seated.moves.get(entrant=wrong, reason=MoveReason.REINSTATED)
    assert (move.to_table, move.to_seat) == seat and move.note == "Out clicked on the wrong player"
    assert move.citations == [{"rule": "TDA-1", "edition": "TDA 2024"}]
    # Back in, the player can bust again: a second elimination row for the same entrant.
    bust(entrant=wrong, by=director)
    assert wrong.eliminations.count() == 2 and places(seated)[5] == 19
    with pytest.raises(ValidationError):
        fixed.save()


def test_undoing_is_refused_without_a_reason_or_a_free_seat(
    seated: Tournament, director: Any
) -> None:
    out = entrant(seated, 5)
    table, seat = seat_of(out)  # type: ignore[misc]
    bust(entrant=out, by=director)
    with pytest.raises(ValidationError) as caught:
        eliminations.reinstate_player(entrant=out, by=director, reason="   ")
    assert "reason" in caught.value.message_dict
    with pytest.raises(DrawError) as caught_draw:
        eliminations.reinstate_player(entrant=entrant(seated, 6), by=director, reason="oops")
    assert caught_draw.value.code == "not_eliminated"
    late = setup.register_entrant(tournament=seated, name="Late", by=director)
    draw_services.draw_late_entries(tournament=seated, by=director, entrants=[late])
    taken = seat_of(Entrant.objects.get(pk=late.pk))
    if taken != (table, seat):  # move the late entry into the freed seat, as a draw might
        director_seats.reserve_seat(entrant=late, table=seated.tables.get(number=table), seat=seat,
                              reason="wheelchair", by=director)  # fmt: skip
    with pytest.raises(DrawError) as caught_draw:
        eliminations.reinstate_player(entrant=out, by=director, reason="oops")
    assert caught_draw.value.code == "seat_not_free"
    assert caught_draw.value.message == (
        f"Player 5 cannot go back to table {100 + table} seat {seat}: it is taken by Late "
        f"(#{late.number}). The elimination stands."
    )
    assert not Reinstatement.objects.exists()


def test_a_re_entered_player_is_not_reinstated(seated: Tournament, director: Any) -> None:
    out = entrant(seated, 5)
    bust(entrant=out, by=director)
    setup.register_entrant(tournament=seated, name="", by=director, reentry_of=out)
    with pytest.raises(DrawError) as caught:
        eliminations.reinstate_player(entrant=out, by=director, reason="oops")
    assert caught.value.code == "reentered"


def test_undoing_the_last_bust_reopens_a_finished_tournament(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust(entrant=entrant(tournament, 1), by=director)
    bust(entrant=entrant(tournament, 2), by=director)
    assert places(tournament) == {1: 3, 2: 2, 3: 1}
    eliminations.reinstate_player(entrant=entrant(tournament, 2), by=director, reason="Wrong one")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and not tournament.registration_open
    assert places(tournament) == {1: 3, 2: None, 3: None}
    bust(entrant=entrant(tournament, 3), by=director)
    assert places(tournament) == {1: 3, 2: 1, 3: 2}


# --- the API: the same rules, directors only, bad input 4xx ----------------------------------

API = "/api/v1/tournaments/"


def test_the_api_undoes_an_elimination_for_directors_only(
    api_client_for: Any, seated: Tournament, director: Any
) -> None:
    out = entrant(seated, 5)
    seat = seat_of(out)
    bust(entrant=out, by=director)
    url = f"{API}{seated.pk}/entrants/5/reinstate/"
    staff = api_client_for("staff").post(url, {"reason": "oops"}, format="json")
    assert staff.status_code == 403
    client = api_client_for("director")
    blank = client.post(url, {"reason": "  "}, format="json")
    assert blank.status_code == 400 and "reason" in blank.json()["error"]["fields"]
    assert client.post(url, {}, format="json").status_code == 400
    assert (
        client.post(f"{API}{seated.pk}/entrants/999/reinstate/", {"reason": "x"}).status_code == 404
    )
    done = client.post(url, {"reason": "Wrong player"}, format="json")
    assert done.status_code == 201, done.json()
    body = done.json()
    assert (body["entrant"], body["table_number"], body["seat"]) == (5, *seat)
    assert body["reason"] == "Wrong player" and body["by"] == "td"
    again = client.post(url, {"reason": "Wrong player"}, format="json")
    assert again.status_code == 422 and again.json()["error"]["code"] == "not_eliminated"
    listed = client.get(f"{API}{seated.pk}/reinstatements/").json()
    assert [row["entrant"] for row in listed] == [5]
    assert client.get(f"{API}{seated.pk}/eliminations/").json() == []


def test_the_api_refuses_a_duplicate_name_and_a_mismatched_re_entry(
    api_client_for: Any, seated: Tournament, director: Any
) -> None:
    client = api_client_for("director")
    url = f"{API}{seated.pk}/entrants/"
    dup = client.post(url, {"name": " PLAYER 2"}, format="json")
    assert dup.status_code == 422 and dup.json()["error"]["code"] == "entry_refused"
    assert dup.json()["error"]["fields"]["name"][0].startswith("Player 2 is already entered")
    assert client.post(url, {}, format="json").status_code == 400
    bust(entrant=entrant(seated, 2), by=director)
    wrong = client.post(url, {"name": "Someone", "reentry_of": 2}, format="json")
    assert wrong.status_code == 400 and "re-entry of Player 2" in wrong.json()["error"]["message"]
    right = client.post(url, {"reentry_of": 2}, format="json")
    assert right.status_code == 201
    assert right.json()["name"] == "Player 2" and right.json()["reentry_of"] == 2
    assert client.post(url, {"reentry_of": 2}, format="json").status_code == 400


# --- the pages --------------------------------------------------------------------------------


def test_a_duplicate_name_comes_back_as_the_results_with_its_error(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    url = f"/tournaments/{seated.pk}/entrants/"
    fragment = client.post(url, {"name": "player 7"}, headers={"HX-Request": "true"})
    assert fragment.status_code == 422
    text = fragment.content.decode()
    # Only the results under the box: the box itself is never swapped.
    assert text.lstrip().startswith('<div id="registration-results"')
    assert 'id="entrant-names"' not in text
    assert "Player 7 is already entered (#7)." in text and 'data-refused="player 7"' in text
    page = client.post(url, {"name": "player 7"})
    html = page.content.decode()
    assert page.status_code == 422 and "Player 7 is already entered (#7)." in html
    assert 'aria-invalid="true"' in html
    assert seated.entrants.count() == 20


def test_undoing_without_a_reason_is_refused_on_the_page(
    persona_client: Any, seated: Tournament, director: Any
) -> None:
    bust(entrant=entrant(seated, 5), by=director)
    client = persona_client("director")
    response = client.post(f"/tournaments/{seated.pk}/entrants/5/reinstate/", {}, follow=True)
    assert "Say why the elimination is undone." in response.content.decode()
    assert not Reinstatement.objects.exists()
    response = client.post(
        f"/tournaments/{seated.pk}/entrants/5/reinstate/", {"reason": "Misclick"}, follow=True
    )
    assert "Player 5 is back in the tournament" in response.content.decode()
    assert (
        persona_client("staff")
        .post(f"/tournaments/{seated.pk}/entrants/5/reinstate/", {"reason": "x"})
        .status_code
        == 403
    )


def test_applying_two_balancing_moves_says_two_moves_made(
    persona_client: Any, director: Any
) -> None:
    tournament = make_tournament(by=director, tables=3, entrants=27)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    for assignment in SeatAssignment.objects.filter(
        tournament=tournament, table__number=1, ended_at__isnull=True
    ).select_related("entrant")[:4]:
        bust(entrant=assignment.entrant, by=director)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert len(check.moves) == 2
    response = persona_client("director").post(
        f"/tournaments/{tournament.pk}/balance/{check.pk}/apply/", follow=True
    )
    text = response.content.decode()
    assert "2 moves made." in text and "(s)" not in text


def test_the_page_offers_no_undo_for_an_entry_that_re_entered(
    persona_client: Any, seated: Tournament, director: Any
) -> None:
    for number in (5, 6):
        bust(entrant=entrant(seated, number), by=director)
    setup.register_entrant(tournament=seated, name="", by=director, reentry_of=entrant(seated, 5))
    text = persona_client("director").get(f"/tournaments/{seated.pk}/").content.decode()
    assert 'id="undo-reason-6"' in text and 'id="undo-reason-5"' not in text
    staff = persona_client("staff").get(f"/tournaments/{seated.pk}/").content.decode()
    assert "undo-reason-" not in staff
