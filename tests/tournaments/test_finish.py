"""The finish: the heads-up bust completes the tournament, names the winner, stops the clock
for good, and the pages follow: the room display's final standings, the public board's winner
by alias or initials, the results page (printable, CSV) with each place's time out and the
hand that busted them, and the director's controls that no longer apply gone."""

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from cardroom.screens import board
from cardroom.seats import services as players
from cardroom.tables.models import Hand
from tests.tournaments.factories import bust, make_tournament
from tests.tournaments.test_table_hands import at, chips, play, room, set_chips, settle
from tournaments import eliminations, results, table_hands
from tournaments.clock import services as clock
from tournaments.clock.display import room_state
from tournaments.clock.reading import read_clock
from tournaments.draw_services import draw_initial_seating
from tournaments.draws.errors import DrawError
from tournaments.models import (
    ClockEvent,
    ClockState,
    Elimination,
    Entrant,
    TournamentStatus,
    TournamentTable,
)
from tournaments.setup import register_entrants

pytestmark = pytest.mark.django_db

# A name a spreadsheet would run as a formula; a room's player name has initials ("J.").
NAMES = ["Ana Ruiz", "=HYPERLINK(1) Jo", "Cy Moss"]


def played_to_the_winner(director: Any, names: list[str] = NAMES) -> dict[str, Any]:
    """Three players at one table, the clock running, two hands at the desk: the first busts
    the short stack (3rd), the second ends heads-up (2nd) and leaves the winner."""
    tournament = make_tournament(by=director, tables=1, seats_per_table=6, name="Sunday Turbo")
    register_entrants(tournament=tournament, names=names, by=director)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    clock.start_clock(tournament=tournament, by=director)
    a, b, c = sorted(chips(tournament))
    TournamentTable.objects.filter(tournament=tournament).update(button=a)
    set_chips(tournament, {b: 2_000})
    table = room(tournament)
    third = at(tournament, b)
    first = table_hands.deal_tournament_hand(table=table, by=director)
    settle(play(first, director, {b: "all_in", c: "call"}), director, [[c], [b]])
    set_chips(tournament, {c: 5_000, a: 20_000 + 17_000})
    second_out, winner = at(tournament, c), at(tournament, a)
    last = table_hands.deal_tournament_hand(table=table, by=director)
    settle(play(last, director, {c: "all_in", a: "call"}), director, [[a], [c]])
    tournament.refresh_from_db()
    return {
        "tournament": tournament, "winner": winner, "second": second_out, "third": third,
        "first_hand": first, "last_hand": last,
    }  # fmt: skip


def test_the_heads_up_bust_names_the_winner_and_the_hand_that_busted_each_player(
    director: Any,
) -> None:
    done = played_to_the_winner(director)
    tournament = done["tournament"]
    assert tournament.status == TournamentStatus.COMPLETE
    assert results.winner(tournament) == done["winner"]
    rows = results.standings(tournament)
    assert [(row.place, row.entrant) for row in rows] == [
        (1, done["winner"]),
        (2, done["second"]),
        (3, done["third"]),
    ]
    winner, second, third = rows
    assert winner.elimination is None and winner.label == "1" and winner.hand_label == ""
    assert second.elimination is not None and second.elimination.hand == done["last_hand"]
    assert third.elimination is not None and third.elimination.hand == done["first_hand"]
    assert third.hand_label == f"Table 101 hand #{done['first_hand'].number}"
    assert second.where == f"Table 101 seat {second.elimination.seat}"
    assert second.out_at is not None and third.out_at is not None


def test_the_clock_stops_at_the_finish_and_counts_no_more(director: Any) -> None:
    done = played_to_the_winner(director)
    tournament = done["tournament"]
    assert tournament.clock_state == ClockState.ENDED
    assert tournament.level_started_at is None
    assert ClockEvent.objects.filter(tournament=tournament, action="end").count() == 1
    levels = list(tournament.levels.all())
    now = timezone.now()
    # Read an hour later, the clock stands where it stopped: nothing counts down or moves on.
    later = read_clock(tournament, levels, now + timedelta(hours=1))
    assert later.state == ClockState.ENDED and later.level == read_clock(tournament, levels).level
    assert later.remaining == read_clock(tournament, levels, now).remaining
    with pytest.raises(DrawError) as refused:
        clock.advance_level(tournament=tournament, by=director)
    assert refused.value.code == "clock_ended"


def test_the_room_display_shows_the_final_standings_by_public_names(director: Any) -> None:
    done = played_to_the_winner(director)
    tournament = done["tournament"]
    state = room_state(tournament, list(tournament.levels.all()), timezone.now())
    assert state["state"] == "ended" and state["state_label"] == "Tournament over"
    assert state["complete"] is True
    assert state["ends_at"] is None and state["next_break_at"] is None
    assert state["remaining_ms"] == 0 and state["players_left"] == 1
    # The TV link is public: initials (or the entry number), never a full name.
    shown = {"Ana Ruiz": "A.R.", "Cy Moss": "C.M.", "=HYPERLINK(1) Jo": "J."}
    names = [
        shown.get(done[who].name, f"#{done[who].number}") for who in ("winner", "second", "third")
    ]
    assert state["winner"] == names[0]
    assert state["standings"] == [
        {"place": str(place), "name": name} for place, name in enumerate(names, start=1)
    ]
    assert not any(name in str(state) for name in NAMES)


def test_a_running_tournament_shows_no_finish(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3)
    draw_initial_seating(tournament=tournament, by=director)
    state = room_state(tournament, list(tournament.levels.all()), timezone.now())
    assert state["complete"] is False and state["winner"] == "" and state["standings"] == []


def test_the_board_shows_the_tournament_finished_with_the_winners_alias(
    director: Any, floor_manager: Any
) -> None:
    names = ["Ana Ruiz", "Bo Lind", "Cy Moss"]  # each a name the room's players may have
    done = played_to_the_winner(director, names)
    # The room knows the winner by an alias: the board shows it, never the name.
    known = players.find_or_create_player(name=done["winner"].name.upper(), by=floor_manager)
    type(known).objects.filter(pk=known.pk).update(alias="Queen A")
    board.forget()
    live = board.build(timezone.now()).live.decode()
    assert "Sunday Turbo" in live and "Finished" in live
    assert 'class="board-winner-name">Queen A<' in live
    assert not any(name in live for name in names)
    assert "data-ends-at" not in live  # nothing counts down
    (shown,) = board.snapshot()["tournaments"]
    assert shown["finished"] and shown["winner"] == "Queen A" and shown["entries"] == 3
    assert done["tournament"].pk == shown["id"]


def test_undoing_the_last_bust_reopens_the_clock_paused(director: Any) -> None:
    done = played_to_the_winner(director)
    eliminations.reinstate_player(
        entrant=done["second"], by=director, reason="The pot went to the wrong seat"
    )
    tournament = done["tournament"]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.clock_state == ClockState.PAUSED
    assert results.winner(tournament) is None
    clock.resume_clock(tournament=tournament, by=director)


def test_a_director_put_out_says_so_where_the_hand_would_be(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    out = Entrant.objects.filter(tournament=tournament).first()
    assert out is not None
    Entrant.objects.filter(pk=out.pk).update(chips=0)
    bust(entrant=out, by=director)
    row = next(row for row in results.standings(tournament) if row.entrant == out)
    assert row.elimination is not None and row.elimination.hand is None
    assert row.label == "3" and row.hand_label == "put out by the director"


def test_the_elimination_keeps_its_hand_in_its_audit_chain(director: Any) -> None:
    from cardroom.core.audit import CHAINS

    chain = CHAINS["tournaments.Elimination"]
    assert "hand_id" in chain.fields and chain.later == {"hand_id": None}
    done = played_to_the_winner(director)
    assert Elimination.objects.filter(hand__isnull=False).count() == 2
    assert Hand.objects.filter(pk=done["last_hand"].pk).exists()
    # Every chain still verifies, the busts with their hands hashed.
    from cardroom.core.audit import verify

    assert verify() == []


# --- pages --------------------------------------------------------------------------------------


def test_the_results_page_lists_every_place_for_every_role(
    persona_client: Any, director: Any
) -> None:
    done = played_to_the_winner(director)
    url = reverse("tournaments:results", args=[done["tournament"].pk])
    assert persona_client("no_role_user").get(url).status_code == 403
    assert persona_client("anonymous").get(url).status_code == 302
    page = persona_client("staff").get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "ruling-print.css" in html and "data-print" in html  # its own print view
    assert f'id="results-winner">{escape(done["winner"].name)}' in html
    assert "1 (winner)" in html
    assert f"Table 101 hand #{done['first_hand'].number}" in html
    assert f"Table 101 hand #{done['last_hand'].number}" in html
    assert reverse("tournaments:results_csv", args=[done["tournament"].pk]) in html


@pytest.mark.parametrize("how", ["results.csv", "?format=csv"])
def test_the_results_csv_has_a_row_a_place_safe_for_spreadsheets(
    persona_client: Any, director: Any, how: str
) -> None:
    done = played_to_the_winner(director)
    pk = done["tournament"].pk
    url = (
        reverse("tournaments:results_csv", args=[pk])
        if how == "results.csv"
        else reverse("tournaments:results", args=[pk]) + how
    )
    assert persona_client("no_role_user").get(url).status_code == 403
    answer = persona_client("staff").get(url)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [row["place"] for row in rows] == ["1", "2", "3"]
    assert [row["place_note"] for row in rows] == ["winner", "", ""]
    assert rows[0]["hand"] == "" and rows[0]["out_at"] == ""
    # A name a spreadsheet would run as a formula opens as the text typed.
    assert {row["name"] for row in rows} == {"Ana Ruiz", "'=HYPERLINK(1) Jo", "Cy Moss"}
    busted = [row for row in rows if row["place"] != "1"]
    assert {row["hand_id"] for row in busted} == {
        str(done["first_hand"].pk),
        str(done["last_hand"].pk),
    }
    assert all(row["out_at"] and row["room_table"] == "101" for row in busted)


def test_the_tournament_page_names_the_winner_and_drops_the_controls(
    persona_client: Any, director: Any
) -> None:
    done = played_to_the_winner(director)
    pk = done["tournament"].pk
    html = persona_client("director").get(reverse("tournaments:detail", args=[pk])).content
    page = html.decode()
    assert 'id="winner"' in page and escape(done["winner"].name) in page
    assert reverse("tournaments:results", args=[pk]) in page
    for gone in (
        "Final table redraw",
        "hand-for-hand</button>",
        "Close registration",
        'id="entrant-form"',
        "Re-entry of",
        "out-button",
        "Break table",
        "late entr",
    ):
        assert gone not in page, gone
    # The last bust can still be undone (an audited correction).
    assert "Undo elimination" in page
    clock_page = persona_client("director").get(reverse("tournaments:clock", args=[pk]))
    assert 'id="clock-ended"' in clock_page.content.decode()
    assert 'value="advance"' not in clock_page.content.decode()


def test_a_running_tournament_page_keeps_its_controls(persona_client: Any, director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=10)
    draw_initial_seating(tournament=tournament, by=director)
    page = persona_client("director").get(reverse("tournaments:detail", args=[tournament.pk]))
    html = page.content.decode()
    assert 'id="winner"' not in html and "Final table redraw" in html and "out-button" in html


def test_hand_for_hand_ends_by_itself_at_the_finish(director: Any) -> None:
    """Two tables still in play at the heads-up bust (one player each): hand-for-hand ends
    with the tournament, and its controls are gone with the others."""
    tournament = make_tournament(by=director, tables=2, entrants=4, seats_per_table=2)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    for number in (1, 2):
        out = at(tournament, min(chips(tournament, number)), number)
        bust(entrant=out, by=director)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand and tournament.status == TournamentStatus.RUNNING
    last = at(tournament, min(chips(tournament, 2)), 2)
    bust(entrant=last, by=director)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.COMPLETE
    assert not tournament.hand_for_hand and tournament.clock_state == ClockState.ENDED
    assert table_hands.hand_for_hand_round(tournament) is None
