"""The waitlists' services: first come first served, several lists per player,
call-in deadlines, seat offers that run out, reordering with a reason, must-move tables,
starting a table from a list with a verifiable draw (the public board: tests/cardroom/test_board.py)."""

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.seats import services as players
from cardroom.seats.models import SeatEvent, TableSeat
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.models import GameList, RoomSettings, WaitlistEntry, WaitlistEvent
from cardroom.waitlists.services import WaitlistRefused
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def nlhe(fm: Any, **fields: Any) -> GameList:
    return waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=fm, **fields
    )


def kinds(game_list: GameList) -> list[str]:
    return list(game_list.events.order_by("id").values_list("kind", flat=True))


def names(game_list: GameList) -> list[str]:
    return [e.player.name for e in waitlists.live_entries(game_list)]


def fill(table: Any, fm: Any, seats: range) -> list[TableSeat]:
    return [
        players.seat_player(
            table=table,
            player=players.find_or_create_player(name=f"Seated {table.number}-{s}", by=fm),
            seat=s,
            buy_in=100,
            by=fm,
        )
        for s in seats
    ]


def test_a_list_is_first_come_first_served_and_labelled(floor_manager: Any) -> None:
    game = nlhe(floor_manager)
    assert game.label == "NLHE 1/2"
    for name in ("Ana Ruiz", "Bo Li", "Cy Young"):
        waitlists.add_to_list(game_list=game, name=name, by=floor_manager)
    assert names(game) == ["Ana Ruiz", "Bo Li", "Cy Young"]
    assert waitlists.next_eligible(game).player.name == "Ana Ruiz"  # type: ignore[union-attr]
    with pytest.raises(WaitlistRefused, match="already on the NLHE 1/2 list"):
        waitlists.add_to_list(game_list=game, name="bo  li", by=floor_manager)
    with pytest.raises(WaitlistRefused, match="already open"):
        nlhe(floor_manager)
    assert kinds(game) == ["added", "added", "added"]


def test_a_player_may_wait_on_several_lists(floor_manager: Any) -> None:
    small = nlhe(floor_manager)
    plo = waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=2, big_blind=5, by=floor_manager
    )
    assert plo.label == "PLO 2/5"
    waitlists.add_to_list(game_list=small, name="Ana Ruiz", by=floor_manager)
    waitlists.add_to_list(game_list=plo, name="Ana Ruiz", source="kiosk")
    assert WaitlistEntry.objects.filter(player__name="Ana Ruiz", status="waiting").count() == 2
    assert plo.events.get().by is None  # the kiosk


def test_bad_list_input_is_a_validation_error(floor_manager: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        waitlists.open_list(
            variant="chess", structure="no_limit", small_blind=2, big_blind=2, by=floor_manager
        )
    assert "variant" in caught.value.message_dict
    game = nlhe(floor_manager)
    with pytest.raises(ValidationError):
        waitlists.add_to_list(game_list=game, name="   ", by=floor_manager)
    with pytest.raises(ValidationError):
        waitlists.add_to_list(game_list=game, name="Ana", source="phone", by=floor_manager)


def test_a_call_in_lapses_unless_checked_in(floor_manager: Any) -> None:
    game = nlhe(floor_manager)
    late = waitlists.add_to_list(game_list=game, name="Late Larry", source="call_in")
    kept = waitlists.add_to_list(game_list=game, name="Kept Kim", source="call_in")
    here = waitlists.add_to_list(game_list=game, name="Here Hal", by=floor_manager)
    assert late.check_in_by is not None
    assert late.check_in_by - late.added_at == timedelta(minutes=60)
    # Not in the room yet: passed over for seats.
    assert waitlists.next_eligible(game) == here
    waitlists.check_in(entry=kept, by=floor_manager)
    assert waitlists.next_eligible(game) == kept
    assert waitlists.lapse_due(timezone.now() + timedelta(minutes=59)) == 0
    assert waitlists.lapse_due(timezone.now() + timedelta(minutes=61)) == 1
    late.refresh_from_db()
    assert late.status == "lapsed"
    assert names(game) == ["Kept Kim", "Here Hal"]
    lapsed = game.events.get(kind="lapsed")
    assert lapsed.by is None and "deadline" in lapsed.note


def test_an_offer_runs_out_and_the_next_player_is_called(floor_manager: Any) -> None:
    table = make_table(number=1, by=floor_manager, seats=9)
    fill(table, floor_manager, range(1, 9))
    game = nlhe(floor_manager)
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    bo = waitlists.add_to_list(game_list=game, name="Bo Li", by=floor_manager)
    assert [(t.number, s) for t, s in waitlists.open_seats(game)] == [(1, 9)]
    with pytest.raises(WaitlistRefused, match="Ana Ruiz is first"):
        waitlists.call_player(entry=bo, table=table, seat=9, by=floor_manager)
    waitlists.call_player(entry=ana, table=table, seat=9, by=floor_manager)
    ana.refresh_from_db()
    assert ana.status == "called"
    assert ana.call_expires_at - ana.called_at == timedelta(minutes=3)  # type: ignore[operator]
    assert waitlists.open_seats(game) == []  # held by the offer
    assert waitlists.lapse_due(timezone.now() + timedelta(minutes=2)) == 0
    assert waitlists.lapse_due(timezone.now() + timedelta(minutes=4)) == 1
    ana.refresh_from_db()
    bo.refresh_from_db()
    assert (ana.status, ana.passes, bo.status, bo.called_seat) == ("waiting", 1, "called", 9)
    assert names(game) == ["Ana Ruiz", "Bo Li"]  # Ana keeps her place for the next seat
    assert kinds(game)[-2:] == ["offer_expired", "called"]
    # Bo misses too. The seat is not offered again to a player who missed it (else it
    # would bounce between the two): it waits for the floor, both keep their places.
    waitlists.lapse_due(timezone.now() + timedelta(minutes=8))
    ana.refresh_from_db()
    bo.refresh_from_db()
    assert (ana.status, ana.passes, bo.status, bo.passes) == ("waiting", 1, "waiting", 1)
    assert waitlists.open_seats(game) == [(table, 9)]
    # The floor calls Ana again; she misses a second time and is off the list.
    waitlists.call_player(entry=ana, table=table, seat=9, by=floor_manager)
    waitlists.lapse_due(timezone.now() + timedelta(minutes=12))
    ana.refresh_from_db()
    assert ana.status == "lapsed"
    assert "passed" in kinds(game)


def test_seating_from_the_list_takes_the_buy_in(floor_manager: Any) -> None:
    table = make_table(number=1, by=floor_manager, seats=6, max_buy_in=400)
    game = nlhe(floor_manager)
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    with pytest.raises(players.SeatRefused, match="maximum"):
        waitlists.seat_from_list(entry=ana, table=table, seat=2, buy_in=5000, by=floor_manager)
    ana.refresh_from_db()
    assert ana.status == "waiting"
    waitlists.seat_from_list(entry=ana, table=table, seat=2, buy_in=300, by=floor_manager)
    ana.refresh_from_db()
    assert ana.status == "seated" and ana.seat is not None and ana.seat.stack == 300
    assert SeatEvent.objects.get().kind == "seated"
    event = game.events.get(kind="seated")
    assert (event.table_number, event.seat, event.note) == (1, 2, "Buy-in 300")
    with pytest.raises(Conflict):
        waitlists.seat_from_list(entry=ana, table=table, seat=3, buy_in=300, by=floor_manager)
    # On another list too, while seated: they move with their 300, and the chips the form
    # gives are added, up to the new table's maximum.
    plo = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=2, big_blind=5, by=floor_manager
    )
    other = waitlists.add_to_list(game_list=plo, name="Ana Ruiz", by=floor_manager)
    big = make_table(number=5, by=floor_manager, small_blind=2, big_blind=5, max_buy_in=500)
    with pytest.raises(players.SeatRefused, match="Add at most 200"):
        waitlists.seat_from_list(entry=other, table=big, seat=1, buy_in=300, by=floor_manager)
    waitlists.seat_from_list(entry=other, table=big, seat=1, buy_in=0, by=floor_manager)
    other.refresh_from_db()
    assert other.seat is not None and (other.seat.table_id, other.seat.stack) == (big.pk, 300)


def test_a_seat_offered_to_one_player_is_not_given_to_another(floor_manager: Any) -> None:
    table = make_table(number=1, by=floor_manager, seats=2)
    game = nlhe(floor_manager)
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    bo = waitlists.add_to_list(game_list=game, name="Bo Li", by=floor_manager)
    waitlists.call_player(entry=ana, table=table, seat=1, by=floor_manager)
    waitlists.reorder(entry=bo, position=1, reason="Ana is at the cage", by=floor_manager)
    with pytest.raises(Conflict, match="offered to Ana Ruiz"):
        waitlists.seat_from_list(entry=bo, table=table, seat=1, buy_in=100, by=floor_manager)
    waitlists.seat_from_list(entry=bo, table=table, seat=2, buy_in=100, by=floor_manager)


def test_reorder_needs_a_reason_and_is_recorded(floor_manager: Any) -> None:
    game = nlhe(floor_manager)
    entries = [
        waitlists.add_to_list(game_list=game, name=name, by=floor_manager)
        for name in ("Ana Ruiz", "Bo Li", "Cy Young")
    ]
    with pytest.raises(ValidationError):
        waitlists.reorder(entry=entries[2], position=1, reason=" ", by=floor_manager)
    with pytest.raises(WaitlistRefused):
        waitlists.reorder(entry=entries[2], position=9, reason="x", by=floor_manager)
    waitlists.reorder(
        entry=entries[2], position=1, reason="Was skipped by mistake", by=floor_manager
    )
    assert names(game) == ["Cy Young", "Ana Ruiz", "Bo Li"]
    event = game.events.get(kind="reordered")
    assert event.note == "From #3 to #1: Was skipped by mistake" and event.by == floor_manager
    # New players still go to the bottom.
    waitlists.add_to_list(game_list=game, name="Di Ng", by=floor_manager)
    assert names(game)[-1] == "Di Ng"
    waitlists.remove_entry(entry=entries[0], reason="Went home", by=floor_manager)
    assert names(game) == ["Cy Young", "Bo Li", "Di Ng"]
    assert game.events.get(kind="removed").note == "Went home"
    with pytest.raises(Conflict):
        waitlists.remove_entry(entry=entries[0], reason="again", by=floor_manager)


def test_must_move_moves_the_longest_seated_first_with_their_stack(floor_manager: Any) -> None:
    main = make_table(number=1, by=floor_manager, seats=9)
    fill(main, floor_manager, range(1, 9))  # seat 9 open
    must = make_table(number=2, by=floor_manager, seats=9)
    newer = players.find_or_create_player(name="Newer Nan", by=floor_manager)
    older = players.find_or_create_player(name="Older Ola", by=floor_manager)
    players.seat_player(table=must, player=older, seat=5, buy_in=150, by=floor_manager)
    players.seat_player(table=must, player=newer, seat=1, buy_in=80, by=floor_manager)
    game = nlhe(floor_manager)
    waitlists.add_to_list(game_list=game, name="Older Ola", by=floor_manager)
    mm = waitlist_tables.create_must_move(table=must, main=game, by=floor_manager)
    assert waitlist_tables.must_move_next(mm).player == older  # type: ignore[union-attr]
    # The must-move table's own empty seats are not the main game's.
    assert [(t.number, s) for t, s in waitlists.open_seats(game, exclude=must)] == [(1, 9)]
    moved = waitlist_tables.move_must_move_player(must_move=mm, by=floor_manager)
    assert (moved.table, moved.seat, moved.stack, moved.player) == (main, 9, 150, older)
    assert [e.kind for e in SeatEvent.objects.filter(player=older).order_by("id")] == [
        "seated",
        "moved_out",
        "moved_in",
    ]
    assert names(game) == []  # Ola was waiting for the main game: seated from the list
    assert kinds(game)[-2:] == ["seated", "moved"]
    with pytest.raises(WaitlistRefused, match="No open seat"):
        waitlist_tables.move_must_move_player(must_move=mm, by=floor_manager)
    waitlist_tables.end_must_move(must_move=mm, by=floor_manager)
    with pytest.raises(Conflict):
        waitlist_tables.end_must_move(must_move=mm, by=floor_manager)


def test_a_new_table_starts_at_the_threshold_with_a_verifiable_draw(floor_manager: Any) -> None:
    game = nlhe(floor_manager, start_threshold=4)
    for n in range(3):
        waitlists.add_to_list(game_list=game, name=f"Player {n}", by=floor_manager)
    proposal = waitlist_tables.start_table_proposal(game)
    assert not proposal["ready"] and proposal["message"] == "3 of 4 players waiting."
    waitlists.add_to_list(game_list=game, name="Player 3", by=floor_manager)
    waitlists.add_to_list(game_list=game, name="Player 4", source="call_in")  # not here yet
    proposal = waitlist_tables.start_table_proposal(game)
    assert not proposal["ready"] and "No NLHE 1/2 table is free" in proposal["message"]
    table = make_table(number=7, by=floor_manager, status="closed", seats=6, min_buy_in=60)
    proposal = waitlist_tables.start_table_proposal(game)
    assert proposal["ready"] and proposal["table"] == table
    seated = waitlist_tables.start_game(game_list=game, table=table, by=floor_manager)
    table.refresh_from_db()
    assert table.status == "open"
    assert len(seated) == 4
    live = TableSeat.objects.filter(table=table, left_at=None)
    assert sorted(s.player.name for s in live) == [f"Player {n}" for n in range(4)]
    assert {s.stack for s in live} == {60}
    assert names(game) == ["Player 4"]
    started = game.events.get(kind="started")
    assert waitlist_tables.verify_start(started)
    # The seed opens the commitment recorded before the seats: another seed does not.
    forged = WaitlistEvent(
        pk=started.pk, game_list=game, note=started.note.replace('"seed":"', '"seed":"0')
    )
    assert not waitlist_tables.verify_start(forged)


def test_first_come_first_seated_when_the_room_says_so(floor_manager: Any) -> None:
    room = RoomSettings.current()
    room.start_rule = "first_come"
    room.save()
    game = nlhe(floor_manager, start_threshold=2)
    for name in ("Ana Ruiz", "Bo Li", "Cy Young"):
        waitlists.add_to_list(game_list=game, name=name, by=floor_manager)
    table = make_table(number=3, by=floor_manager, status="closed", seats=2)
    waitlist_tables.start_game(game_list=game, table=table, by=floor_manager, buy_ins={})
    live = TableSeat.objects.filter(table=table, left_at=None).order_by("seat")
    assert [(s.seat, s.player.name) for s in live] == [(1, "Ana Ruiz"), (2, "Bo Li")]
    assert names(game) == ["Cy Young"]
    with pytest.raises(WaitlistRefused):  # the table is open now
        waitlist_tables.start_game(game_list=game, table=table, by=floor_manager)
