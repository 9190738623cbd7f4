"""Tournament services: set-up, draws, eliminations, balancing, director's seat actions."""

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tests.factories import make_table
from tests.tournaments.factories import LEVELS, bust, make_room_tables, make_tournament
from tournaments import (
    balance_checks,
    director_seats,
    draw_services,
    eliminations,
    seating,
    setup,
    table_hands,
)
from tournaments.draws.errors import DrawError
from tournaments.draws.positions import hands_until_big_blind, seats_between_button_and_small_blind
from tournaments.models import (
    Draw,
    DrawKind,
    DrawStatus,
    Entrant,
    EntrantStatus,
    MoveReason,
    SeatAssignment,
    SeatMove,
    Tournament,
    TournamentStatus,
)
from tournaments.tasks import check_balance

pytestmark = pytest.mark.django_db


def live_seats(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Entry number -> (table, seat) of every live assignment."""
    rows = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    return {
        number: (table, seat)
        for number, table, seat in rows.values_list("entrant__number", "table__number", "seat")
    }


def assert_seating_sound(tournament: Tournament) -> None:
    """Every player still in sits exactly once, nobody shares a seat, the out sit nowhere."""
    seats = live_seats(tournament)
    rows = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    assert rows.count() == len(seats) == len(set(seats.values()))
    seated = set(
        tournament.entrants.filter(status=EntrantStatus.SEATED).values_list("number", flat=True)
    )
    assert set(seats) == seated
    active = dict(tournament.tables.filter(status="active").values_list("number", "seats"))
    assert all(table in active and 1 <= seat <= active[table] for table, seat in seats.values())


def entrant(tournament: Tournament, number: int) -> Entrant:
    return tournament.entrants.get(number=number)


def players_at(tournament: Tournament, table: int) -> dict[int, int]:
    """Seat -> entry number at one table."""
    return {seat: n for n, (t, seat) in live_seats(tournament).items() if t == table}


def buttons_before_a_player(tournament: Tournament, director: Any) -> None:
    """Put each button on a seat followed by a player, so no open seat waits for the button
    to pass (TDA 8-A): any open seat may then be drawn. More than half full tables always
    have such a pair."""
    for table in tournament.tables.filter(status="active"):
        seats = set(players_at(tournament, table.number))
        button = next(s for s in sorted(seats) if s % table.seats + 1 in seats)
        director_seats.set_button(table=table, seat=button, by=director)


# --- set-up -----------------------------------------------------------------------------------


def test_creating_a_tournament_publishes_the_break_and_balancing_orders_up_front(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=4)
    assert tournament.break_order == [4, 3, 2, 1]  # highest number breaks first (11-C)
    assert tournament.balancing_order == [4, 3, 2, 1]
    assert list(tournament.tables.values_list("number", "break_position")) == [
        (1, 4), (2, 3), (3, 2), (4, 1),
    ]  # fmt: skip
    assert tournament.levels.count() == 3
    assert tournament.status == TournamentStatus.REGISTERING


def test_a_custom_break_order_must_list_every_table_once(director: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        make_tournament(by=director, tables=3, break_order=[1, 1, 2])
    assert "break_order" in caught.value.message_dict
    tournament = make_tournament(by=director, tables=3, first_table=201, break_order=[2, 3, 1])
    assert tournament.balancing_order == [2, 3, 1]


def test_cash_tables_and_tables_in_another_tournament_are_refused(director: Any) -> None:
    cash = make_table(number=7)
    with pytest.raises(ValidationError) as caught:
        setup.create_tournament(by=director, name="X", tables=[cash], levels=LEVELS)
    assert "cash-game" in caught.value.message_dict["tables"][0]
    rooms = make_room_tables(count=2, first=301)
    setup.create_tournament(by=director, name="First", tables=rooms, levels=LEVELS)
    with pytest.raises(ValidationError) as caught:
        setup.create_tournament(by=director, name="Second", tables=rooms, levels=LEVELS)
    assert caught.value.message_dict["tables"] == ["Tables 301 and 302 are already in the First."]
    with pytest.raises(ValidationError) as caught:
        setup.create_tournament(by=director, name="Third", tables=rooms[:1], levels=LEVELS)
    assert caught.value.message_dict["tables"] == ["Table 301 is already in the First."]


def test_levels_need_a_duration_and_a_big_blind_over_the_small(director: Any) -> None:
    rooms = make_room_tables(count=1, first=401)
    for levels in ([], [{"small_blind": 200, "big_blind": 100, "minutes": 20}], [{"minutes": 0}]):
        with pytest.raises(ValidationError) as caught:
            setup.create_tournament(by=director, name="X", tables=rooms, levels=levels)
        assert "levels" in caught.value.message_dict


# --- the initial draw (TDA 7) ---------------------------------------------------------------


def test_the_initial_draw_seats_everyone_once_as_evenly_as_possible(seated: Tournament) -> None:
    assert_seating_sound(seated)
    assert sorted(Counter(t for t, _ in live_seats(seated).values()).values()) == [6, 7, 7]
    assert seated.status == TournamentStatus.RUNNING
    draw = seated.draws.get()
    assert draw.kind == DrawKind.INITIAL and draw.status == DrawStatus.REVEALED
    assert draw_services.verify_draw(draw).ok
    moves = seated.moves.filter(reason=MoveReason.INITIAL_DRAW)
    assert moves.count() == 20 and all(m.draw_id == draw.pk for m in moves)
    assert {c["rule"] for c in draw.citations} >= {"TDA-7"}
    assert all(c["edition"] == "TDA 2024" for c in draw.citations)


def test_the_initial_draw_is_made_once(seated: Tournament, director: Any) -> None:
    with pytest.raises(DrawError) as caught:
        draw_services.draw_initial_seating(tournament=seated, by=director)
    assert caught.value.code == "already_drawn"


def test_a_commitment_is_published_before_the_deal_and_the_seed_stays_sealed(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=12)
    draw = draw_services.commit_draw(tournament=tournament, kind=DrawKind.INITIAL, by=director)
    assert draw.status == DrawStatus.COMMITTED and len(draw.commitment) == 64
    assert draw.public_seed is None and draw.result is None
    assert not live_seats(tournament)
    dealt = draw_services.deal_draw(draw=draw, by=director)
    assert dealt.public_seed == draw.seed and dealt.commitment == draw.commitment
    assert len(live_seats(tournament)) == 12


def small_field(director: Any) -> Tournament:
    """15 players on three tables (5, 5, 5): any table can break."""
    tournament = make_tournament(by=director, tables=3, entrants=15, first_table=501)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    return tournament


def test_a_committed_draw_is_abandoned_when_the_seating_changes_before_the_deal(
    director: Any,
) -> None:
    seated = small_field(director)
    breaking = players_at(seated, 3)
    draw = draw_services.commit_draw(
        tournament=seated, kind=DrawKind.BREAK_TABLE, by=director, table=3
    )
    bust(entrant=entrant(seated, next(iter(breaking.values()))), by=director)
    with pytest.raises(DrawError) as caught:
        draw_services.deal_draw(draw=draw, by=director)
    assert caught.value.code == "stale_draw"
    draw.refresh_from_db()
    assert draw.status == DrawStatus.ABANDONED and draw.result is None
    assert_seating_sound(seated)


def test_of_two_open_commitments_the_second_dealt_is_stale_if_the_first_changed_it(
    director: Any,
) -> None:
    seated = small_field(director)
    first = draw_services.commit_draw(
        tournament=seated, kind=DrawKind.BREAK_TABLE, by=director, table=3
    )
    second = draw_services.commit_draw(
        tournament=seated, kind=DrawKind.BREAK_TABLE, by=director, table=2
    )
    draw_services.deal_draw(draw=second, by=director)
    with pytest.raises(DrawError) as caught:
        draw_services.deal_draw(draw=first, by=director)
    assert caught.value.code == "stale_draw"
    assert_seating_sound(seated)


# --- late entries, alternates, re-entries (TDA 8-A) -------------------------------------------


def test_late_entries_draw_into_open_seats_at_the_shortest_tables(
    seated: Tournament, director: Any
) -> None:
    buttons_before_a_player(seated, director)
    late = setup.register_entrants(tournament=seated, names=["Late A"], by=director)
    assert late[0].late and late[0].status == EntrantStatus.REGISTERED
    counts = Counter(t for t, _ in live_seats(seated).values())
    shortest = min(counts, key=counts.get)  # type: ignore[arg-type]
    draw = draw_services.draw_late_entries(tournament=seated, by=director)
    assert draw.kind == DrawKind.LATE_ENTRY and draw_services.verify_draw(draw).ok
    assert live_seats(seated)[late[0].number][0] == shortest
    assert_seating_sound(seated)
    late[0].refresh_from_db()
    assert late[0].status == EntrantStatus.SEATED


def test_a_newcomer_is_not_dealt_in_between_the_small_blind_and_the_button(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=9)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    for seat in (4, 8):
        bust(entrant=entrant(tournament, players_at(tournament, 1)[seat]), by=director)
    # Button on 3: seat 4 sits between the button and the small blind (5); seat 8 does not.
    director_seats.set_button(table=tournament.tables.get(), seat=3, by=director)
    late = setup.register_entrant(tournament=tournament, name="Late", by=director)
    draw = draw_services.draw_late_entries(tournament=tournament, by=director)
    assert draw.inputs["input"]["forbidden"] == [{"table": 1, "seat": 4}]
    assert live_seats(tournament)[late.number] == (1, 8)
    assert {c["rule"] for c in draw.citations} >= {"TDA-8-A"}


def test_a_late_entry_draw_with_too_few_open_seats_is_refused_before_it_is_committed(
    director: Any,
) -> None:
    """TDA 8-A: a draw that cannot be dealt is never committed (it would stand on the
    tournament's page as the draw to deal, refused each time)."""
    tournament = make_tournament(by=director, tables=1, entrants=8)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    setup.register_entrants(tournament=tournament, names=["Late A", "Late B"], by=director)
    with pytest.raises(DrawError, match="2 players to seat but only 1 open seats") as caught:
        draw_services.commit_draw(tournament=tournament, kind=DrawKind.LATE_ENTRY, by=director)
    assert caught.value.code == "not_enough_seats" and "TDA-8-A" in caught.value.citations
    assert list(tournament.draws.values_list("kind", flat=True)) == [DrawKind.INITIAL]


def test_re_entries_and_alternates_draw_from_the_same_pool(
    seated: Tournament, director: Any
) -> None:
    out = entrant(seated, 1)
    with pytest.raises(ValidationError):
        setup.register_entrant(tournament=seated, name="Again", by=director, reentry_of=out)
    bust(entrant=out, by=director)
    again = setup.register_entrant(tournament=seated, name=out.name, by=director, reentry_of=out)
    alternate = setup.register_entrant(tournament=seated, name="Alt", by=director, alternate=True)
    assert again.is_reentry and alternate.alternate
    draw = draw_services.draw_late_entries(tournament=seated, by=director)
    assert sorted(draw.inputs["input"]["entrants"]) == [again.number, alternate.number]
    assert_seating_sound(seated)


# --- reserved seats (TDA 9), wrong seats (TDA 7), the button --------------------------------


def test_a_reserved_seat_is_kept_out_of_the_draw_and_given_to_its_player(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=10)
    needs = entrant(tournament, 4)
    table = tournament.tables.get(number=2)
    director_seats.reserve_seat(
        entrant=needs, table=table, seat=1, reason="Wheelchair", by=director
    )
    draw = draw_services.draw_initial_seating(tournament=tournament, by=director)
    assert 4 not in draw.inputs["input"]["entrants"]
    assert 1 not in draw.inputs["input"]["tables"][1]["seats"]
    assert live_seats(tournament)[4] == (2, 1)
    move = tournament.moves.get(entrant=needs)
    assert move.reason == MoveReason.RESERVED and move.citations[0]["rule"] == "TDA-9"
    assert_seating_sound(tournament)


def test_reserving_a_seat_during_play_moves_the_player_there(
    seated: Tournament, director: Any
) -> None:
    player = entrant(seated, 5)
    table = seated.tables.get(number=1)
    open_seat = next(s for s in range(1, 10) if s not in players_at(seated, 1))
    taken = next(seat for seat, number in players_at(seated, 1).items() if number != 5)
    with pytest.raises(DrawError) as caught:
        director_seats.reserve_seat(
            entrant=player, table=table, seat=taken, reason="Sight", by=director
        )
    assert caught.value.code == "seat_taken"
    director_seats.reserve_seat(
        entrant=player, table=table, seat=open_seat, reason="Sight", by=director
    )
    assert live_seats(seated)[5] == (1, open_seat)
    assert_seating_sound(seated)


def test_a_player_found_in_the_wrong_seat_moves_with_the_current_stack(
    seated: Tournament, director: Any
) -> None:
    player = entrant(seated, 3)
    table, seat = live_seats(seated)[3]
    with pytest.raises(DrawError):
        director_seats.correct_wrong_seat(
            entrant=player, found_table=table, found_seat=seat, by=director
        )
    move = director_seats.correct_wrong_seat(
        entrant=player, found_table=table % 3 + 1, found_seat=9, by=director
    )
    assert (move.to_table, move.to_seat) == (table, seat)
    assert "current stack" in move.note and move.citations[0]["rule"] == "TDA-7"
    assert live_seats(seated)[3] == (table, seat)  # the assignment stands


# --- eliminations and hand-for-hand (TDA RP-8) ------------------------------------------------


def test_an_elimination_opens_the_seat_records_the_place_and_checks_the_balance(
    seated: Tournament, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    eliminations.close_registration(tournament=seated, by=director)
    player = entrant(seated, 2)
    table, seat = live_seats(seated)[2]
    with django_capture_on_commit_callbacks() as callbacks:
        elimination = bust(entrant=player, by=director)
    queued = [c.args for c in callbacks if getattr(c, "func", None) == check_balance.delay]
    assert queued == [(seated.pk,)]  # the balancing check, once the elimination commits
    assert elimination.place == 20 and (elimination.table_number, elimination.seat) == (table, seat)
    player.refresh_from_db()
    assert player.status == EntrantStatus.ELIMINATED and player.place == 20
    assert 2 not in live_seats(seated)
    assert seated.moves.filter(entrant=player, reason=MoveReason.ELIMINATED).exists()
    with pytest.raises(DrawError):
        bust(entrant=player, by=director)


def test_busts_on_the_same_hand_for_hand_hand_share_the_place(
    seated: Tournament, director: Any
) -> None:
    eliminations.close_registration(tournament=seated, by=director)
    eliminations.set_hand_for_hand(tournament=seated, on=True, by=director)
    seated.refresh_from_db()
    assert seated.hand_for_hand_announced_at is not None
    bust(entrant=entrant(seated, 1), by=director)
    bust(entrant=entrant(seated, 2), by=director)
    table_hands.next_hand_for_hand(tournament=seated, by=director, force=True)
    bust(entrant=entrant(seated, 3), by=director)
    places = dict(seated.entrants.filter(number__in=[1, 2, 3]).values_list("number", "place"))
    assert places == {1: 19, 2: 19, 3: 18}  # 20th and 19th shared; 18th alone
    citations = seated.moves.filter(reason=MoveReason.ELIMINATED).values_list(
        "citations", flat=True
    )
    assert all(c[0]["rule"] == "TDA-RP-8" for c in citations)


def test_the_last_two_finish_second_and_first(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust(entrant=entrant(tournament, 1), by=director)
    bust(entrant=entrant(tournament, 2), by=director)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.COMPLETE
    assert dict(tournament.entrants.values_list("number", "place")) == {1: 3, 2: 2, 3: 1}
    with pytest.raises(DrawError) as caught:
        bust(entrant=entrant(tournament, 3), by=director)
    assert caught.value.code in {"winner", "not_seated"}


# --- breaking tables and balancing (TDA 10, 11) -----------------------------------------------


def bust_at(tournament: Tournament, director: Any, count: int, table: int) -> None:
    for number in list(players_at(tournament, table).values())[:count]:
        bust(entrant=entrant(tournament, number), by=director)


def test_tables_break_in_the_published_order(director: Any) -> None:
    tournament = make_tournament(by=director, tables=3, entrants=20, break_order=[2, 1, 3])
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust_at(tournament, director, 2, table=1)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert check.tables_to_break == [2] and not check.moves  # 18 players fit two tables
    draw_services.break_table(table=tournament.tables.get(number=2), by=director)
    assert_seating_sound(tournament)
    assert sorted(Counter(t for t, _ in live_seats(tournament).values()).values()) == [9, 9]
    assert tournament.tables.get(number=2).status == "broken"


def test_balancing_moves_the_player_due_the_big_blind_to_the_worst_position(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=18)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust_at(tournament, director, 3, table=2)  # 9 against 6
    source = tournament.tables.get(number=1)
    director_seats.set_button(table=source, seat=4, by=director)
    target = tournament.tables.get(number=2)
    occupied = set(players_at(tournament, 2))
    # A button followed by a player (six round nine seats always have such a pair): some open
    # seats are dealt in at once, so the worst position is among them.
    button = next(s for s in sorted(occupied) if s % 9 + 1 in occupied)
    target = director_seats.set_button(table=target, seat=button, by=director)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    (move,) = check.moves
    # Seats 5 and 6 post the blinds on the next hand: seat 6 is due the big blind (11-A).
    assert move["from"] == {"table": 1, "seat": 6}
    open_seats = [s for s in range(1, 10) if s not in occupied]
    waits = {
        ref.seat
        for ref in seats_between_button_and_small_blind(2, range(1, 10), occupied, target.button)
    }
    hands = {
        s: hands_until_big_blind(range(1, 10), occupied | {s}, target.button, s)
        for s in open_seats
        if s not in waits
    }
    assert move["to"]["table"] == 2 and hands[move["to"]["seat"]] == min(hands.values())
    assert "TDA-11-A" in {c["rule"] for c in move["citations"]}
    moved = balance_checks.apply_balance(check=check, by=director)
    assert [(m.to_table, m.to_seat) for m in moved] == [(2, move["to"]["seat"])]
    assert moved[0].reason == MoveReason.BALANCE
    assert_seating_sound(tournament)
    assert sorted(Counter(t for t, _ in live_seats(tournament).values()).values()) == [7, 8]


def test_a_table_three_short_of_the_fullest_is_told_to_halt(director: Any) -> None:
    tournament = make_tournament(by=director, tables=3, entrants=27)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust_at(tournament, director, 3, table=1)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert check.tables_to_halt == [1]
    assert "TDA-11-D" in {c["rule"] for c in check.citations}


def test_stud_fills_the_last_seat_opened(director: Any) -> None:
    """A stud event kept from before the desk refused stud (its balancing still follows TDA
    11-B); a new one is refused, below."""
    tournament = make_tournament(by=director, tables=2, entrants=18)
    Tournament.objects.filter(pk=tournament.pk).update(variant="stud")
    tournament.refresh_from_db()
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    at_two = players_at(tournament, 2)
    for seat in (7, 2, 5):  # seat 5 opens last
        bust(entrant=entrant(tournament, at_two[seat]), by=director)
    (move,) = balance_checks.check_balance(tournament_id=tournament.pk).moves
    assert move["to"] == {"table": 2, "seat": 5}
    assert "TDA-11-B" in {c["rule"] for c in move["citations"]}


def test_the_fewest_moves_policy_balances_with_one_move(director: Any) -> None:
    tournament = make_tournament(
        by=director, tables=2, entrants=18, balancing_policy="fewest_moves"
    )
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust_at(tournament, director, 3, table=2)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert len(check.moves) == 1 and check.moves[0]["reason"].startswith("Keep position")
    balance_checks.apply_balance(check=check, by=director)
    assert_seating_sound(tournament)


def test_a_stale_balancing_check_is_refused(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=18)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust_at(tournament, director, 3, table=2)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    bust_at(tournament, director, 1, table=1)
    with pytest.raises(DrawError) as caught:
        balance_checks.apply_balance(check=check, by=director)
    assert caught.value.code == "stale_check"


def test_two_tables_of_five_make_a_nine_handed_final_table(director: Any) -> None:
    tournament = make_tournament(
        by=director, tables=2, entrants=10, seats_per_table=10, final_table_size=9
    )
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    assert sorted(Counter(t for t, _ in live_seats(tournament).values()).values()) == [5, 5]
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert not check.final_table and not check.tables_to_break  # RP-9: ten play on two tables
    with pytest.raises(DrawError):
        draw_services.redraw_final_table(tournament=tournament, by=director)
    bust_at(tournament, director, 1, table=1)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert check.final_table
    draw = draw_services.redraw_final_table(tournament=tournament, by=director)
    assert draw_services.verify_draw(draw).ok
    seats = live_seats(tournament)
    assert {table for table, _ in seats.values()} == {1}  # table 2 broke first (break order)
    assert sorted(seat for _, seat in seats.values()) == list(range(1, 10))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL_TABLE
    assert_seating_sound(tournament)


# --- the record --------------------------------------------------------------------------------


def test_draws_moves_and_eliminations_are_append_only(seated: Tournament, director: Any) -> None:
    draw = seated.draws.get()
    draw.commitment = "0" * 64
    with pytest.raises(ValidationError):
        draw.save()
    with pytest.raises(ValidationError):
        Draw.objects.filter(pk=draw.pk).delete()
    move = seated.moves.first()
    assert move is not None
    move.note = "edited"
    with pytest.raises(ValidationError):
        move.save()
    with pytest.raises(ValidationError):
        SeatMove.objects.all().update(note="x")


def test_a_player_just_moved_is_not_moved_again_while_another_candidate_exists(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=18)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    bust_at(tournament, director, 3, table=2)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    (moved,) = balance_checks.apply_balance(check=check, by=director)
    mover = moved.entrant.number
    assert mover in seating.recently_moved(tournament, timezone.now())
    later = timezone.now() + seating.RECENT_MOVE + timedelta(minutes=1)
    assert mover not in seating.recently_moved(tournament, later)
    # Table 1 loses players until balancing must take one back from table 2, where the button
    # makes the newcomer the player due the big blind next (11-A): someone else goes.
    bust_at(tournament, director, 3, table=1)
    occupied = sorted(players_at(tournament, 2))
    button = occupied[occupied.index(moved.to_seat) - 2]
    director_seats.set_button(table=tournament.tables.get(number=2), seat=button, by=director)
    (move,) = balance_checks.check_balance(tournament_id=tournament.pk).moves
    assert move["from"]["table"] == 2 and move["player"] != mover


@pytest.mark.parametrize("variant", ["stud", "razz", "badugi", "five_card_draw"])
def test_a_tournament_is_only_for_a_game_the_desk_deals(director: Any, variant: str) -> None:
    with pytest.raises(ValidationError) as refused:
        make_tournament(by=director, tables=1, entrants=2, variant=variant)
    message = refused.value.message_dict["variant"][0]
    assert "the desk deals hold'em, Omaha and Omaha Hi-Lo only" in message
    assert "CR-GM.1" in message
