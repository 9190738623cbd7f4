"""The cash seat map's services (cardroom/seats/services.py): buy-ins, chips added, rebuys, sitting
out and returning, leaving, corrections, and hands dealt from the seat map and settled back
into it, with every change on the seat map's log."""

from typing import Any

import pytest
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.seats import hands as cash_hands
from cardroom.seats import services as players
from cardroom.seats.models import Player, SeatEvent, TableSeat
from cardroom.seats.services import SeatRefused
from cardroom.tables import services
from cardroom.tables.models import Hand, Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import WaitlistEntry
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(floor_manager: Any) -> Table:
    return make_table(number=1, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400)


def seat(table: Table, name: str, number: int, buy_in: int, by: Any, **kw: Any) -> TableSeat:
    player = players.find_or_create_player(name=name, by=by)
    return players.seat_player(table=table, player=player, seat=number, buy_in=buy_in, by=by, **kw)


def events(table: Table) -> list[tuple[int, str, int, int]]:
    return [
        (e.seat, e.kind, e.amount, e.stack)
        for e in SeatEvent.objects.filter(table=table).order_by("id")
    ]


def refusal(exc: pytest.ExceptionInfo[SeatRefused]) -> dict[str, list[str]]:
    return exc.value.message_dict


# --- players and buy-ins ----------------------------------------------------------------------


def test_a_player_is_found_again_by_name_in_any_case_and_spacing(floor_manager: Any) -> None:
    first = players.find_or_create_player(name="  Ana   Ruiz ", by=floor_manager)
    assert first.name == "Ana Ruiz"
    again = players.find_or_create_player(name="ana ruiz", alias="AR", by=floor_manager)
    assert again.pk == first.pk and again.alias == "AR"
    with pytest.raises(SeatRefused) as exc:
        players.find_or_create_player(name="   ", by=floor_manager)
    assert refusal(exc) == {"name": ["Enter the player's name (at most 120 characters)."]}


def test_a_buy_in_over_the_maximum_is_refused_with_the_rule(
    table: Table, floor_manager: Any
) -> None:
    with pytest.raises(SeatRefused) as exc:
        seat(table, "Ana Ruiz", 1, 5000, floor_manager)
    assert refusal(exc) == {
        "buy_in": ["Buy-in 5,000 is above this table's maximum of 400 (RRoP-14.16)."]
    }
    assert exc.value.citations == ("RRoP-14.16",)
    with pytest.raises(SeatRefused) as exc:
        seat(table, "Ana Ruiz", 1, 20, floor_manager)
    assert "below this table's minimum of 40" in refusal(exc)["buy_in"][0]
    assert not TableSeat.objects.exists() and not SeatEvent.objects.exists()


def test_a_buy_in_must_be_whole_chips_that_play(floor_manager: Any) -> None:
    big = make_table(
        number=2, by=floor_manager, small_blind=25, big_blind=50, min_buy_in=1000,
        max_buy_in=5000,
    )  # fmt: skip
    assert big.chip_that_plays == 25
    with pytest.raises(SeatRefused) as exc:
        seat(big, "Bo Li", 1, 1010, floor_manager)
    assert refusal(exc)["buy_in"] == [
        "1,010 is not a whole number of the smallest chip that plays here (25) (RRoP-BR.7)."
    ]
    assert seat(big, "Bo Li", 1, 1025, floor_manager).stack == 1025
    for bad in (0, -5, True, "100", 2.5):
        with pytest.raises(SeatRefused):
            seat(big, "Cy Wu", 2, bad, floor_manager)  # type: ignore[arg-type]


def test_seat_numbers_taken_seats_and_players_seated_elsewhere(
    table: Table, floor_manager: Any
) -> None:
    ana = seat(table, "Ana Ruiz", 3, 200, floor_manager)
    with pytest.raises(SeatRefused) as exc:
        seat(table, "Bo Li", 7, 200, floor_manager)
    assert refusal(exc) == {"seat": ["Seats at Table 1 are numbered 1 to 6."]}
    with pytest.raises(Conflict) as conflict:
        seat(table, "Bo Li", 3, 200, floor_manager)
    assert conflict.value.code == "seat_taken"
    assert conflict.value.message == "Seat 3 at Table 1 is taken by Ana Ruiz."
    other = make_table(number=2, by=floor_manager)
    with pytest.raises(Conflict) as conflict:
        players.seat_player(table=other, player=ana.player, seat=1, buy_in=100, by=floor_manager)
    assert conflict.value.code == "player_seated"
    assert "Ana Ruiz is already in seat 3 at Table 1" in conflict.value.message
    assert events(table) == [(3, "seated", 200, 200)]


def test_a_seat_under_a_waitlist_offer_goes_only_to_the_player_offered_it(
    table: Table, floor_manager: Any
) -> None:
    """While a called player's offer runs, the seat map refuses that seat to anyone else
    (409, naming the offer); the player called takes it, and once the offer has run out the
    seat is anyone's again."""
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    leo = waitlists.add_to_list(game_list=game, name="Leo Ray", by=floor_manager)
    leo = waitlists.call_player(entry=leo, table=table, seat=4, by=floor_manager)
    with pytest.raises(Conflict) as conflict:
        seat(table, "Bo Li", 4, 200, floor_manager)
    assert conflict.value.code == "seat_offered"
    assert conflict.value.message.startswith("Seat 4 at Table 1 is offered to Leo Ray (called ")
    assert events(table) == []
    seat(table, "Ana Ruiz", 5, 200, floor_manager)  # another seat is free to give
    taken = players.seat_player(
        table=table, player=leo.player, seat=4, buy_in=100, by=floor_manager
    )
    assert taken.player == leo.player

    # An offer that has run out holds nothing, whether or not the sweep has lapsed it yet.
    mo = waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    mo = waitlists.call_player(entry=mo, table=table, seat=6, by=floor_manager)
    WaitlistEntry.objects.filter(pk=mo.pk).update(call_expires_at=timezone.now())
    assert seat(table, "Bo Li", 6, 200, floor_manager).seat == 6


def test_a_tournament_table_has_no_cash_seat_map(floor_manager: Any) -> None:
    tournament = make_table(number=5, by=floor_manager, kind="tournament")
    player = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    with pytest.raises(SeatRefused) as exc:
        players.seat_player(table=tournament, player=player, seat=1, buy_in=100, by=floor_manager)
    assert "tournament table" in refusal(exc)["table"][0]
    with pytest.raises(SeatRefused):
        cash_hands.propose_next_hand(tournament)


# --- between hands ----------------------------------------------------------------------------


def test_adding_chips_up_to_the_maximum_and_a_rebuy_from_nothing(
    table: Table, floor_manager: Any
) -> None:
    ana = seat(table, "Ana Ruiz", 1, 300, floor_manager)
    with pytest.raises(SeatRefused) as exc:
        players.add_chips(seat=ana, amount=150, by=floor_manager)
    assert refusal(exc) == {
        "amount": [
            "450 in front is above this table's maximum of 400 (RRoP-14.16). Add at most 100."
        ]
    }
    ana = players.add_chips(seat=ana, amount=100, by=floor_manager)
    assert ana.stack == 400
    ana = players.correct_stack(
        seat=ana, stack=0, reason="Counted down: nothing left", by=floor_manager
    )
    with pytest.raises(SeatRefused):  # a rebuy is a buy-in: at least the minimum
        players.add_chips(seat=ana, amount=20, by=floor_manager)
    ana = players.add_chips(seat=ana, amount=40, by=floor_manager)
    assert events(table) == [
        (1, "seated", 300, 300),
        (1, "added", 100, 400),
        (1, "corrected", -400, 0),
        (1, "rebuy", 40, 40),
    ]
    assert SeatEvent.objects.get(kind="corrected").note == "Counted down: nothing left"
    assert all(e.by == floor_manager for e in SeatEvent.objects.all())
    with pytest.raises(SeatRefused) as exc:
        players.correct_stack(seat=ana, stack=50, reason="  ", by=floor_manager)
    assert refusal(exc) == {"reason": ["Say why the stack is corrected."]}


def test_sitting_out_returning_and_leaving_with_the_chips(table: Table, floor_manager: Any) -> None:
    ana = seat(table, "Ana Ruiz", 2, 150, floor_manager)
    ana = players.sit_out(seat=ana, by=floor_manager)
    assert ana.status == "sitting_out" and ana.away_since is not None
    with pytest.raises(Conflict):
        players.sit_out(seat=ana, by=floor_manager)
    ana = players.return_to_play(seat=ana, by=floor_manager, wait_for_big_blind=True)
    assert ana.status == "playing" and ana.away_since is None and ana.waits_for_big_blind
    left = players.leave_seat(seat=ana, by=floor_manager)
    assert left.left_at is not None
    with pytest.raises(Conflict) as conflict:
        players.add_chips(seat=ana, amount=40, by=floor_manager)
    assert conflict.value.code == "seat_changed"
    assert events(table) == [
        (2, "seated", 150, 150),
        (2, "sat_out", 0, 150),
        (2, "returned", 0, 150),
        (2, "left", -150, 0),
    ]
    assert players.seat_summaries([table])[table.pk] == {
        "seats": 6, "seated": 0, "open": [1, 2, 3, 4, 5, 6], "sitting_out": 0, "busted": 0,
    }  # fmt: skip
    # The seat and the player are free again: the same player comes back another night.
    back = seat(table, "ana ruiz", 2, 100, floor_manager)
    assert back.player_id == ana.player_id and Player.objects.count() == 1


def test_seat_summary_for_the_floor_card(table: Table, floor_manager: Any) -> None:
    seat(table, "Ana Ruiz", 1, 100, floor_manager)
    bo = seat(table, "Bo Li", 4, 100, floor_manager)
    players.sit_out(seat=bo, by=floor_manager)
    summary = {"seats": 6, "seated": 2, "open": [2, 3, 5, 6], "sitting_out": 1, "busted": 0}
    assert players.seat_summaries([table]) == {table.pk: summary}


# --- hands dealt from the seat map and settled into it ----------------------------------------


def act(hand: Hand, by: Any, seat: int, action: str, to: int | None = None) -> None:
    hand.refresh_from_db()
    services.record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action=action, to=to)


def settle(hand: Hand, by: Any, ranking: list[list[int]] | None = None) -> Hand:
    hand.refresh_from_db()
    showdown = None if ranking is None else {"ranking": ranking}
    return cash_hands.settle_cash_hand(hand=hand, by=by, expected_seq=hand.seq, showdown=showdown)


def stacks(table: Table) -> dict[int, int]:
    return {s.seat: s.stack for s in players.live_seats(table)}


def deal(table: Table, by: Any) -> tuple[dict[str, Any], Hand]:
    proposal = cash_hands.propose_next_hand(table)
    hand = cash_hands.deal_next_hand(table=table, by=by, version=proposal["version"])
    assert hand.button == proposal["button"] and hand.blinds == proposal["blinds"]
    assert hand.posts == proposal["posts"] and hand.seats == proposal["seats"]
    assert hand.correction == {}
    return proposal, hand


def four_players(table: Table, by: Any) -> dict[int, TableSeat]:
    names = {1: "Ana Ruiz", 2: "Bo Li", 3: "Cy Wu", 4: "Di Amos"}
    return {n: seat(table, name, n, 200, by) for n, name in names.items()}


def test_five_hands_with_a_bust_a_rebuy_and_a_player_owing_blinds(
    table: Table, floor_manager: Any
) -> None:
    by = floor_manager
    seats = four_players(table, by)

    # Hand 1: a game starts: everyone dealt in, nobody posts; the button on the first seat.
    proposal, hand = deal(table, by)
    assert (hand.button, hand.blinds, hand.posts) == (1, {"small": 2, "big": 3}, [])
    assert hand.names == {"1": "Ana Ruiz", "2": "Bo Li", "3": "Cy Wu", "4": "Di Amos"}
    assert hand.seats == [{"seat": n, "stack": 200} for n in (1, 2, 3, 4)]
    assert not any(s.new for s in players.live_seats(table))
    for action in ("add_chips", "leave_seat", "correct_stack"):  # chips in play stay put
        with pytest.raises(Conflict) as conflict:
            if action == "add_chips":
                players.add_chips(seat=seats[1], amount=40, by=by)
            elif action == "leave_seat":
                players.leave_seat(seat=seats[1], by=by)
            else:
                players.correct_stack(seat=seats[1], stack=5, reason="miscount", by=by)
        assert conflict.value.code == "in_hand"
        assert "dealt into Table 1 hand #1, which is not settled" in conflict.value.message
    with pytest.raises(Conflict):  # the next deal waits for the award
        cash_hands.propose_next_hand(table)
    for folder in (4, 1, 2):
        act(hand, by, folder, "fold")
    settle(hand, by)  # everyone else folded: no showdown
    assert stacks(table) == {1: 200, 2: 199, 3: 201, 4: 200}

    # Di sits out. Hand 2: the big blind moves one seat (dead button, CR-BB.1) and passes
    # seat 4, which now owes a big and a small blind (CR-BB.5).
    players.sit_out(seat=seats[4], by=by)
    proposal, hand = deal(table, by)
    assert (hand.button, hand.blinds, hand.posts) == (2, {"small": 3, "big": 1}, [])
    assert [s["seat"] for s in hand.seats] == [1, 2, 3]
    assert proposal["missed"]["4"] == {"big": True, "small": True}
    four = TableSeat.objects.get(pk=seats[4].pk)
    assert four.owes_big and four.owes_small
    act(hand, by, 2, "fold")
    act(hand, by, 3, "all_in")
    act(hand, by, 1, "all_in")
    settle(hand, by, [[3], [1]])
    assert stacks(table) == {1: 0, 2: 199, 3: 401, 4: 200}
    assert SeatEvent.objects.filter(kind="busted", seat=1, hand=hand).count() == 1

    # Ana has nothing: she is not dealt in (heads-up would be next) until she rebuys.
    assert [s["seat"] for s in cash_hands.propose_next_hand(table)["seats"]] == [2, 3]
    players.add_chips(seat=seats[1], amount=100, by=by)
    proposal, hand = deal(table, by)  # hand 3
    assert (hand.button, hand.blinds, hand.posts) == (3, {"small": 1, "big": 2}, [])
    assert hand.seats == [{"seat": 1, "stack": 100}, {"seat": 2, "stack": 199},
                          {"seat": 3, "stack": 401}]  # fmt: skip
    for folder in (3, 1):
        act(hand, by, folder, "fold")
    settle(hand, by)
    assert stacks(table) == {1: 99, 2: 200, 3: 401, 4: 200}

    # Di comes back and posts what she owes: a live big blind and a dead small (CR-BB.3).
    players.return_to_play(seat=seats[4], by=by)
    proposal, hand = deal(table, by)  # hand 4
    assert (hand.button, hand.blinds) == (1, {"small": 2, "big": 3})
    assert hand.posts == [{"seat": 4, "live": 2, "dead": 1}]
    assert "CR-BB.3" in proposal["citations"]
    four = TableSeat.objects.get(pk=seats[4].pk)
    assert not (four.owes_big or four.owes_small)
    for folder in (4, 1, 2):
        act(hand, by, folder, "fold")
    settle(hand, by)
    assert stacks(table) == {1: 99, 2: 199, 3: 405, 4: 197}

    # Hand 5: checked down to a showdown that seat 4 wins.
    proposal, hand = deal(table, by)
    assert (hand.button, hand.blinds, hand.posts) == (2, {"small": 3, "big": 4}, [])
    act(hand, by, 1, "fold")
    act(hand, by, 2, "fold")
    act(hand, by, 3, "call")
    act(hand, by, 4, "check")
    for _street in range(3):
        act(hand, by, 3, "check")
        act(hand, by, 4, "check")
    settle(hand, by, [[4], [3]])
    assert stacks(table) == {1: 99, 2: 199, 3: 403, 4: 199}

    # Bo cashes out. Every chip is accounted for: what is in front of the players and what
    # left with them is exactly what was bought.
    players.leave_seat(seat=seats[2], by=by)
    log = list(SeatEvent.objects.filter(table=table))
    bought = sum(e.amount for e in log if e.kind in ("seated", "added", "rebuy"))
    cashed = -sum(e.amount for e in log if e.kind == "left")
    assert bought == 900 and cashed == 199
    assert sum(stacks(table).values()) + cashed == bought
    assert sum(e.amount for e in log if e.kind == "hand") == 0  # hands move chips, never make them
    hand_events = [(e.seat, e.amount, e.stack) for e in log if e.kind == "hand" and e.hand == hand]
    assert hand_events == [(1, 0, 99), (2, 0, 199), (3, -2, 403), (4, 2, 199)]
    assert Hand.objects.filter(table=table).count() == 5


def test_a_corrected_deal_needs_a_reason_and_keeps_the_proposal(
    table: Table, floor_manager: Any
) -> None:
    four_players(table, floor_manager)
    proposal = cash_hands.propose_next_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (1, {"small": 2, "big": 3})
    with pytest.raises(SeatRefused) as exc:
        cash_hands.deal_next_hand(table=table, by=floor_manager, button=2, small=3, big=4)
    assert refusal(exc) == {
        "reason": ["Say why the button or the blinds differ from the proposal."]
    }
    with pytest.raises(SeatRefused) as exc:
        cash_hands.deal_next_hand(table=table, by=floor_manager, button=9, reason="typo")
    assert refusal(exc) == {"button": ["Seats at Table 1 are numbered 1 to 6."]}
    assert not Hand.objects.exists()
    hand = cash_hands.deal_next_hand(
        table=table, by=floor_manager, button=2, small=3, big=4, reason="Button was on seat 2"
    )
    assert (hand.button, hand.blinds) == (2, {"small": 3, "big": 4})
    assert hand.correction == {
        "proposed": {
            "button": 1, "blinds": {"small": 2, "big": 3}, "posts": [],
            "seats": [{"seat": n, "stack": 200} for n in (1, 2, 3, 4)],
        },
        "reason": "Button was on seat 2",
    }  # fmt: skip


def test_a_deal_after_the_seat_map_changed_is_a_conflict(table: Table, floor_manager: Any) -> None:
    seats = four_players(table, floor_manager)
    proposal = cash_hands.propose_next_hand(table)
    players.sit_out(seat=seats[2], by=floor_manager)
    with pytest.raises(Conflict) as conflict:
        cash_hands.deal_next_hand(table=table, by=floor_manager, version=proposal["version"])
    assert conflict.value.code == "seat_map_changed"
    assert not Hand.objects.exists()
    assert all(s.new for s in players.live_seats(table))  # nothing half-written
    fresh = cash_hands.propose_next_hand(table)
    hand = cash_hands.deal_next_hand(table=table, by=floor_manager, version=fresh["version"])
    assert [s["seat"] for s in hand.seats] == [1, 3, 4]


def three_players(table: Table, by: Any) -> None:
    """Seats 1, 3 and 5 play a hand (button 1, blinds 3 and 5) that the big blind wins."""
    for number, name in ((1, "Ana Ruiz"), (3, "Bo Li"), (5, "Cy Wu")):
        seat(table, name, number, 200, by)
    _proposal, hand = deal(table, by)
    assert (hand.button, hand.blinds) == (1, {"small": 3, "big": 5})
    for folder in (1, 3):
        act(hand, by, folder, "fold")
    settle(hand, by)


def test_a_new_player_posts_or_waits_for_the_big_blind(table: Table, floor_manager: Any) -> None:
    by = floor_manager
    three_players(table, by)
    seat(table, "Di Amos", 2, 100, by)  # posts a big blind to come in (CR-BB.6)
    seat(table, "Ed Ford", 4, 100, by, waits_for_big_blind=True)
    proposal = cash_hands.propose_next_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (3, {"small": 5, "big": 1})
    assert proposal["posts"] == [{"seat": 2, "live": 2, "dead": 0}]
    assert proposal["waiting"] == [4] and "CR-BB.6" in proposal["citations"]
    hand = cash_hands.deal_next_hand(table=table, by=by)
    assert [s["seat"] for s in hand.seats] == [1, 2, 3, 5]
    two, four = (TableSeat.objects.get(table=table, seat=n) for n in (2, 4))
    assert not two.new and four.new and four.waits_for_big_blind


def test_a_voided_hand_is_dealt_again_with_the_same_button_blinds_and_posts(
    table: Table, floor_manager: Any
) -> None:
    by = floor_manager
    three_players(table, by)
    seat(table, "Di Amos", 2, 100, by)
    _proposal, misdealt = deal(table, by)
    assert misdealt.posts == [{"seat": 2, "live": 2, "dead": 0}]
    services.void_hand(hand=misdealt, by=by, expected_seq=0, reason="Misdeal: exposed cards")
    seat(table, "Ed Ford", 4, 100, by)  # sits down after the misdeal: waits for the redeal
    proposal, redeal = deal(table, by)
    assert proposal["redeal"] == [misdealt.number]
    assert (redeal.button, redeal.blinds, redeal.posts, redeal.seats) == (
        misdealt.button, misdealt.blinds, misdealt.posts, misdealt.seats,
    )  # fmt: skip
    assert "4" not in redeal.names
    assert "CR-BB.8" in proposal["citations"]


def test_the_misdeal_example_of_cr_bb_8(floor_manager: Any) -> None:
    """CR-BB.8's worked example: blinds 50-100, dead button, a table that posts."""
    by = floor_manager
    table = make_table(
        number=2, by=by, seats=7, small_blind=50, big_blind=100, min_buy_in=1000,
        max_buy_in=5000,
    )  # fmt: skip
    for number in range(1, 6):
        seat(table, f"Player {number}", number, 2000, by)
    _proposal, first = deal(table, by)  # a game starts: button 1, blinds 2 and 3
    assert (first.button, first.blinds) == (1, {"small": 2, "big": 3})
    for folder in (4, 5, 1, 2):
        act(first, by, folder, "fold")
    settle(first, by)
    seat(table, "Player 6", 6, 2000, by)
    proposal, misdealt = deal(table, by)
    assert (misdealt.button, misdealt.blinds) == (2, {"small": 3, "big": 4})
    assert misdealt.posts == [{"seat": 6, "live": 100, "dead": 0}]
    assert "CR-BB.8" not in proposal["citations"]
    services.void_hand(hand=misdealt, by=by, expected_seq=0, reason="Two cards exposed")
    seat(table, "Player 7", 7, 2000, by)  # sits down after the misdeal

    proposal, redeal = deal(table, by)
    assert proposal["redeal"] == [misdealt.number] and "CR-BB.8" in proposal["citations"]
    assert (redeal.button, redeal.blinds) == (2, {"small": 3, "big": 4})
    assert redeal.posts == [{"seat": 6, "live": 100, "dead": 0}]  # posted again
    assert sorted(redeal.names) == ["1", "2", "3", "4", "5", "6"]  # seat 7 is not dealt in
    assert stacks(table) == {1: 2000, 2: 1950, 3: 2050, 4: 2000, 5: 2000, 6: 2000, 7: 2000}

    for folder in (5, 6, 1, 2, 3):
        act(redeal, by, folder, "fold")
    settle(redeal, by)
    proposal = cash_hands.propose_next_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (3, {"small": 4, "big": 5})
    assert proposal["posts"] == [{"seat": 7, "live": 100, "dead": 0}]
    assert proposal["redeal"] == [] and "CR-BB.8" not in proposal["citations"]


def test_settling_refuses_a_typed_stack_hand_and_a_stale_step(
    table: Table, floor_manager: Any
) -> None:
    typed = services.start_hand(
        table=table, by=floor_manager, button=1, seats=[{"seat": 1, "stack": 50},
                                                        {"seat": 2, "stack": 50}],
    )  # fmt: skip
    with pytest.raises(SeatRefused):
        cash_hands.settle_cash_hand(hand=typed, by=floor_manager, expected_seq=0, showdown=None)
    services.void_hand(hand=typed, by=floor_manager, expected_seq=0, reason="test")
    four_players(table, floor_manager)
    _proposal, hand = deal(table, floor_manager)
    act(hand, floor_manager, 4, "fold")
    with pytest.raises(services.StaleHand):
        cash_hands.settle_cash_hand(hand=hand, by=floor_manager, expected_seq=0, showdown=None)
    with pytest.raises(services.HandNotOver):
        cash_hands.settle_cash_hand(hand=hand, by=floor_manager, expected_seq=1, showdown=None)
    assert not SeatEvent.objects.filter(kind="hand").exists()


def test_a_moving_button_table_moves_the_button_to_the_next_player(floor_manager: Any) -> None:
    table = make_table(number=3, by=floor_manager, button_rule="moving", max_buy_in=400)
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Li"), (3, "Cy Wu")):
        seat(table, name, number, 200, floor_manager)
    _proposal, hand = deal(table, floor_manager)
    assert (hand.button, hand.blinds) == (1, {"small": 2, "big": 3})
    for folder in (1, 2):
        act(hand, floor_manager, folder, "fold")
    settle(hand, floor_manager)
    proposal, hand = deal(table, floor_manager)
    assert (hand.button, hand.blinds) == (2, {"small": 3, "big": 1})
    assert "CR-BB.4" in proposal["citations"]


def test_refusals_answer_422_with_the_field_and_the_rule_and_conflicts_409(
    table: Table, floor_manager: Any
) -> None:
    from cardroom.core.api_errors import refusal as answer

    with pytest.raises(SeatRefused) as exc:
        seat(table, "Ana Ruiz", 1, 5000, floor_manager)
    response = answer(exc.value)
    assert response is not None and response.status_code == 422
    assert response.data["error"]["code"] == "seat_refused"
    assert response.data["error"]["citations"] == ["RRoP-14.16"]
    assert response.data["error"]["fields"] == {
        "buy_in": ["Buy-in 5,000 is above this table's maximum of 400 (RRoP-14.16)."]
    }
    seat(table, "Ana Ruiz", 1, 100, floor_manager)
    with pytest.raises(Conflict) as conflict:
        seat(table, "Bo Li", 1, 100, floor_manager)
    response = answer(conflict.value)
    assert response is not None and response.status_code == 409
    assert response.data["error"]["code"] == "seat_taken"
