"""Hands at a tournament table: the level's blinds from the clock, the entrants' chips carried
from hand to hand, the dead button (CR-BB.1), busts put out in the same transaction (places by
the chips they started the hand with), balancing moves carrying the chips, hand-for-hand."""

from collections.abc import Mapping
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cardroom.core.api_errors import Conflict
from cardroom.tables import services
from cardroom.tables.models import Hand, Table
from rules.engine.errors import IllegalAction
from tests.tournaments.factories import bust, make_tournament
from tournaments import (
    balance_checks,
    director_seats,
    draw_services,
    eliminations,
    setup,
    table_hands,
)
from tournaments.clock import services as clock
from tournaments.draw_services import draw_initial_seating
from tournaments.draws.errors import DrawError
from tournaments.models import (
    BalanceCheck,
    Entrant,
    EntrantStatus,
    MoveReason,
    SeatAssignment,
    Tournament,
    TournamentTable,
)
from tournaments.tasks import check_balance

pytestmark = pytest.mark.django_db


def one_table(director: Any, *, players: int = 6, button: int | None = None) -> Tournament:
    """One six-seat table with every seat taken (seats 1 to 6), registration closed."""
    tournament = make_tournament(by=director, tables=1, entrants=players, seats_per_table=6)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    if button is not None:
        TournamentTable.objects.filter(tournament=tournament).update(button=button)
    tournament.refresh_from_db()
    return tournament


def room(tournament: Tournament, number: int = 1) -> Table:
    return tournament.tables.get(number=number).table


def at(tournament: Tournament, seat: int, number: int = 1) -> Entrant:
    return SeatAssignment.objects.get(
        tournament=tournament, table__number=number, seat=seat, ended_at__isnull=True
    ).entrant


def set_chips(tournament: Tournament, chips: Mapping[int, int], number: int = 1) -> None:
    for seat, count in chips.items():
        Entrant.objects.filter(pk=at(tournament, seat, number).pk).update(chips=count)


def play(hand: Hand, director: Any, intents: Mapping[int, str]) -> Hand:
    """Play the betting: each seat acts as ``intents`` says (all_in, call: call or check,
    anything else: fold, or check when free), until the betting is over."""
    while (to_act := services.engine_state(hand).to_act) is not None:
        intent = intents.get(to_act, "fold")
        tries = {"all_in": ["all_in"], "call": ["call", "check"]}.get(intent, ["fold"])
        for action in tries:
            try:
                services.record_action(
                    hand=hand, by=director, expected_seq=hand.seq, seat=to_act, action=action
                )
                break
            except IllegalAction:
                continue
        hand.refresh_from_db()
    return hand


def settle(hand: Hand, director: Any, ranking: list[list[int]] | None = None) -> Hand:
    showdown = {"ranking": ranking} if ranking is not None else None
    return table_hands.settle_tournament_hand(
        hand=hand, by=director, expected_seq=hand.seq, showdown=showdown
    )


def chips(tournament: Tournament, number: int = 1) -> dict[int, int]:
    return {
        a.seat: a.entrant.chips
        for a in SeatAssignment.objects.filter(
            tournament=tournament, table__number=number, ended_at__isnull=True
        ).select_related("entrant")
    }


def test_five_hands_across_a_level_change_carry_the_chips_and_move_the_dead_button(
    director: Any,
) -> None:
    tournament = one_table(director, button=1)
    table = room(tournament)
    assert table_hands.tournament_table_for(table) == tournament.tables.get()

    proposal = table_hands.propose_tournament_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (1, {"small": 2, "big": 3})
    assert proposal["level"]["small_blind"] == 100 and proposal["level"]["big_blind"] == 200
    assert proposal["names"] == {str(s): at(tournament, s).name for s in range(1, 7)}
    assert all(entry["stack"] == 20_000 for entry in proposal["seats"])
    assert {"CR-BB.1", "CR-TP.1"} <= set(proposal["citations"])

    # Hand 1: everyone folds to the big blind, who wins the small blind.
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert hand.game["small_blind"] == 100 and hand.game["big_blind"] == 200
    assert hand.names["3"] == at(tournament, 3).name and hand.blinds == {"small": 2, "big": 3}
    settle(play(hand, director, {}), director)
    assert chips(tournament) == {1: 20_000, 2: 19_900, 3: 20_100, 4: 20_000, 5: 20_000, 6: 20_000}

    # Hand 2: the dead button moves one seat (CR-BB.1); the table's button follows the deal.
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert (hand.button, hand.blinds) == (2, {"small": 3, "big": 4})
    assert tournament.tables.get().button == 2
    hand = play(hand, director, {5: "call", 4: "call"})
    settle(hand, director, [[5], [4]])
    assert chips(tournament)[5] == 20_000 + 300 and chips(tournament)[4] == 19_800

    # The clock moves to level 2: the next hand is dealt at 200/400.
    clock.advance_level(tournament=tournament, by=director)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert (hand.game["small_blind"], hand.game["big_blind"]) == (200, 400)
    assert (hand.button, hand.blinds) == (3, {"small": 4, "big": 5})
    settle(play(hand, director, {}), director)
    assert chips(tournament)[5] == 20_300 + 200

    # Level 3 has a 600 ante from every player.
    clock.advance_level(tournament=tournament, by=director)
    before = chips(tournament)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert hand.game["ante"] == 600 and (hand.button, hand.blinds) == (4, {"small": 5, "big": 6})
    settle(play(hand, director, {}), director)
    after = chips(tournament)
    assert after[6] == before[6] + 300 + 5 * 600 and after[1] == before[1] - 600
    assert sum(after.values()) == 6 * 20_000  # no chip made or lost

    # Hand 5, at level 3 still.
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert (hand.button, hand.blinds) == (5, {"small": 6, "big": 1})
    settle(play(hand, director, {}), director)
    assert sum(chips(tournament).values()) == 6 * 20_000
    assert Hand.objects.filter(table=table).count() == 5


def test_a_bust_at_the_desk_is_out_at_once_and_the_button_goes_dead_on_its_seat(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The CR-BB.1 example: button 3, small blind 4, big blind 5; seat 4 is eliminated. Next
    hand the big blind is 6, the small blind 5, the button 4 where nobody sits."""
    tournament = one_table(director, button=3)
    table = room(tournament)
    set_chips(tournament, {4: 1_000})
    loser = at(tournament, 4)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert (hand.button, hand.blinds) == (3, {"small": 4, "big": 5})
    hand = play(hand, director, {4: "all_in", 5: "call"})
    with django_capture_on_commit_callbacks() as callbacks:
        settle(hand, director, [[5], [4]])
    queued = [c.args for c in callbacks if getattr(c, "func", None) == check_balance.delay]
    assert queued == [(tournament.pk,)]  # the balancing check, as every elimination queues
    loser.refresh_from_db()
    assert (loser.status, loser.place, loser.chips) == (EntrantStatus.ELIMINATED, 6, 0)
    assert tournament.moves.filter(entrant=loser, reason=MoveReason.ELIMINATED).exists()
    assert 4 not in chips(tournament) and chips(tournament)[5] == 21_000

    proposal = table_hands.propose_tournament_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (4, {"small": 5, "big": 6})
    assert [entry["seat"] for entry in proposal["seats"]] == [1, 2, 3, 5, 6]  # 4 is empty
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert hand.button == 4 and tournament.tables.get().button == 4


def test_two_busts_on_one_hand_place_the_bigger_starting_stack_higher(director: Any) -> None:
    tournament = one_table(director, button=6)
    table = room(tournament)
    set_chips(tournament, {1: 1_000, 2: 3_000})
    small_stack, big_stack = at(tournament, 1), at(tournament, 2)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert hand.blinds == {"small": 1, "big": 2}
    hand = play(hand, director, {1: "all_in", 2: "all_in", 3: "call"})
    settle(hand, director, [[3], [1], [2]])  # seat 1's hand beats seat 2's: both lose to 3
    small_stack.refresh_from_db()
    big_stack.refresh_from_db()
    assert (small_stack.place, big_stack.place) == (6, 5)  # more chips at the start: higher
    assert small_stack.status == big_stack.status == EntrantStatus.ELIMINATED
    assert chips(tournament)[3] == 20_000 + 4_000


def test_a_player_in_an_unsettled_hand_is_neither_moved_nor_put_out(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=16, seats_per_table=9)
    draw_initial_seating(tournament=tournament, by=director)
    counts = {n: len(chips(tournament, n)) for n in (1, 2)}
    giver = max(counts, key=lambda n: counts[n])
    other = 3 - giver
    # Two out at the smaller table: a move is due from the bigger one.
    for seat in sorted(chips(tournament, other))[:2]:
        bust(entrant=at(tournament, seat, other), by=director)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert check.moves, check.counts
    mover_number = check.moves[0]["player"]
    mover = tournament.entrants.get(number=mover_number)
    mover.chips = 23_456
    mover.save(update_fields=["chips"])

    table = room(tournament, giver)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    with pytest.raises(DrawError) as refused:
        balance_checks.apply_balance(check=check, by=director)
    assert refused.value.code == "in_hand"
    with pytest.raises(DrawError) as refused:
        bust(entrant=mover, by=director)
    assert refused.value.code == "in_hand"

    settle(play(hand, director, {}), director)
    mover.refresh_from_db()
    won = mover.chips
    check = BalanceCheck.objects.filter(tournament=tournament).latest()
    if check.seating_version != Tournament.objects.get(pk=tournament.pk).seating_version:
        check = balance_checks.check_balance(tournament_id=tournament.pk)
    balance_checks.apply_balance(check=check, by=director)
    moved = SeatAssignment.objects.get(entrant=mover, ended_at__isnull=True)
    assert moved.table.number == other
    mover.refresh_from_db()
    assert mover.chips == won  # the chips travel with the player
    proposal = table_hands.propose_tournament_hand(room(tournament, other))
    assert {"seat": moved.seat, "stack": won} in proposal["seats"]


def test_a_hand_typed_at_the_table_holds_no_tournament_chips(director: Any) -> None:
    """Only a hand dealt from the seating (it names the entrants) keeps its players seated: a
    hand typed at the desk with stacks of its own does not stop a player being put out."""
    tournament = one_table(director)
    table = room(tournament)
    services.start_hand(
        table=table, by=director, button=1, seats=[{"seat": 1, "stack": 500},
                                                   {"seat": 2, "stack": 500}],
    )  # fmt: skip
    out = at(tournament, 2)
    bust(entrant=out, by=director)
    out.refresh_from_db()
    assert out.status == EntrantStatus.ELIMINATED


def test_hand_for_hand_moves_on_when_every_table_has_pushed_its_hand(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=8, seats_per_table=9)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    first = Tournament.objects.get(pk=tournament.pk).hand_for_hand_hand

    hand = table_hands.deal_tournament_hand(table=room(tournament, 1), by=director)
    settle(play(hand, director, {}), director)
    assert Tournament.objects.get(pk=tournament.pk).hand_for_hand_hand == first
    with pytest.raises(table_hands.CannotDeal, match="every table has finished"):
        table_hands.deal_tournament_hand(table=room(tournament, 1), by=director)

    hand = table_hands.deal_tournament_hand(table=room(tournament, 2), by=director)
    settle(play(hand, director, {}), director)
    assert Tournament.objects.get(pk=tournament.pk).hand_for_hand_hand == first + 1
    table_hands.deal_tournament_hand(table=room(tournament, 1), by=director)  # the next one


def test_no_deal_on_a_break_and_a_correction_needs_a_reason(director: Any) -> None:
    levels = [
        {"small_blind": 100, "big_blind": 200, "minutes": 20},
        {"is_break": True, "minutes": 10},
    ]
    tournament = make_tournament(
        by=director, tables=1, entrants=6, seats_per_table=6, levels=levels
    )
    draw_initial_seating(tournament=tournament, by=director)
    TournamentTable.objects.filter(tournament=tournament).update(button=1)  # as reported
    table = room(tournament)
    with pytest.raises(ValidationError, match="Say why"):
        table_hands.deal_tournament_hand(table=table, by=director, button=4)
    hand = table_hands.deal_tournament_hand(table=table, by=director, button=4, small=5, big=6,
                                            reason="Dealer's high card was seat 4")  # fmt: skip
    assert hand.correction["reason"] == "Dealer's high card was seat 4"
    assert hand.correction["proposed"] == {"button": 1, "small": 2, "big": 3}
    settle(play(hand, director, {}), director)
    clock.advance_level(tournament=tournament, by=director)
    with pytest.raises(table_hands.CannotDeal, match="break"):
        table_hands.propose_tournament_hand(table)


def test_the_table_map_shows_each_seated_players_chips(client: Any, director: Any) -> None:
    tournament = one_table(director, button=3)
    set_chips(tournament, {4: 1_000})
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {4: "all_in", 5: "call"}), director, [[5], [4]])
    client.force_login(director)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert f"{at(tournament, 5).name} <span" in page
    assert ">21,000 chips<" in page and ">20,000 chips<" in page and ">1,000 chips<" not in page


def test_a_table_break_waits_for_the_hand_and_the_final_table_starts_from_the_high_card(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=8, seats_per_table=9)
    draw_initial_seating(tournament=tournament, by=director)
    hands = {
        n: table_hands.deal_tournament_hand(table=room(tournament, n), by=director) for n in (1, 2)
    }
    for number in (1, 2):
        with pytest.raises(DrawError) as refused:
            draw_services.break_table(table=tournament.tables.get(number=number), by=director)
        assert refused.value.code == "in_hand"  # the players and their chips stay for the hand
        with pytest.raises(DrawError):
            draw_services.redraw_final_table(tournament=tournament, by=director)
        settle(play(hands[number], director, {}), director)

    draw_services.redraw_final_table(tournament=tournament, by=director)
    final = TournamentTable.objects.get(tournament=tournament, status="active")
    occupied = sorted(chips(tournament, final.number))
    assert sum(chips(tournament, final.number).values()) == 8 * 20_000  # chips came along
    director_seats.set_button(table=final, seat=occupied[2], by=director)
    proposal = table_hands.propose_tournament_hand(final.table)
    # The redraw restarts the button (TDA RP-9): the dealer's high card, not the last hand.
    assert proposal["button"] == occupied[2]
    assert proposal["blinds"] == {"small": occupied[3], "big": occupied[4]}


def in_before_action(hand: Hand) -> int:
    """The chips the blinds and antes put in before anyone acted."""
    return sum(services.engine_state(hand).total_contributed.values())


def test_a_big_blind_ante_tournament_takes_the_levels_ante_once_from_the_big_blind(
    director: Any,
) -> None:
    """Six players at 300/600, big-blind ante 600: 300 + 600 + 600 = 1,500 in the pot,
    not 4,500 (CR-DM.2), whatever the room table's own cash ante type says."""
    tournament = one_table(director, button=1)
    Tournament.objects.filter(pk=tournament.pk).update(ante_type="big_blind")
    Table.objects.filter(pk=room(tournament).pk).update(ante_type="each", ante=1)
    clock.advance_level(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)  # level 3: 300/600, ante 600
    proposal = table_hands.propose_tournament_hand(room(tournament))
    assert proposal["game"]["ante"] == 0 and proposal["game"]["big_blind_ante"] == 600
    assert proposal["level"]["ante"] == 600 and proposal["level"]["ante_type"] == "big_blind"
    assert "CR-DM.2" in proposal["citations"]
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    assert in_before_action(hand) == 1_500
    settle(play(hand, director, {}), director)
    assert chips(tournament)[3] == 20_000 - 600 + 600 + 300 and chips(tournament)[2] == 19_700
    assert chips(tournament)[1] == 20_000  # nobody else antes
    assert sum(chips(tournament).values()) == 6 * 20_000


def test_a_per_player_ante_tournament_takes_the_ante_from_everyone(director: Any) -> None:
    """Per player (``each``): 6 x 600 + 300 + 600 = 4,500 in before the action, even at a room
    table whose cash game plays a big-blind ante."""
    tournament = one_table(director, button=1)
    assert tournament.ante_type == "each"  # the service's default: what older tests meant
    Table.objects.filter(pk=room(tournament).pk).update(ante_type="big_blind", ante=5)
    clock.advance_level(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)
    proposal = table_hands.propose_tournament_hand(room(tournament))
    assert proposal["game"]["ante"] == 600 and not proposal["game"].get("big_blind_ante")
    assert proposal["level"]["ante_type"] == "each" and "CR-DM.2" not in proposal["citations"]
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    assert in_before_action(hand) == 6 * 600 + 300 + 600


def test_changing_the_ante_type_changes_the_next_proposal(director: Any) -> None:
    """A proposal shown before the director switched the ante is stale: its deal is a 409."""
    tournament = one_table(director, button=1)
    clock.advance_level(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)
    before = table_hands.propose_tournament_hand(room(tournament))
    setup.set_ante_type(tournament=tournament, ante_type="big_blind", by=director)
    with pytest.raises(Conflict):
        table_hands.deal_tournament_hand(
            table=room(tournament), by=director, version=before["version"]
        )
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    assert hand.game["big_blind_ante"] == 600 and in_before_action(hand) == 1_500


def test_the_api_gives_each_entrants_chips(client: Any, director: Any) -> None:
    tournament = one_table(director, button=1)
    set_chips(tournament, {2: 12_345})
    client.force_login(director)
    seating = client.get(f"/api/v1/tournaments/{tournament.pk}/seating/").json()
    seats = {entry["seat"]: entry["chips"] for entry in seating["tables"][0]["seats"]}
    assert seats == {1: 20_000, 2: 12_345, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000}
    entrants = client.get(f"/api/v1/tournaments/{tournament.pk}/entrants/").json()
    rows = entrants["results"] if isinstance(entrants, dict) else entrants
    assert sorted(row["chips"] for row in rows) == [12_345] + [20_000] * 5


def test_down_to_heads_up_and_the_last_bust_ends_the_tournament(director: Any) -> None:
    tournament = one_table(director, players=3)
    a, b, c = sorted(chips(tournament))
    TournamentTable.objects.filter(tournament=tournament).update(button=a)
    set_chips(tournament, {b: 2_000})
    table = room(tournament)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    assert (hand.button, hand.blinds) == (a, {"small": b, "big": c})
    settle(play(hand, director, {b: "all_in", c: "call"}), director, [[c], [b]])
    assert at_place(tournament, b) == 3

    # Heads-up (CR-BB.7): the button posts the small blind; the big blind moves on.
    proposal = table_hands.propose_tournament_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (c, {"small": c, "big": a})
    assert "CR-BB.7" in proposal["citations"]
    set_chips(tournament, {c: 5_000, a: 20_000 + 17_000})
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    settle(play(hand, director, {c: "all_in", a: "call"}), director, [[a], [c]])
    tournament.refresh_from_db()
    assert tournament.status == "complete"
    assert at_place(tournament, c) == 2 and Entrant.objects.get(pk=at(tournament, a).pk).place == 1


def at_place(tournament: Tournament, seat: int) -> int | None:
    """The finishing place of the player who last sat in ``seat`` (table 1)."""
    row = SeatAssignment.objects.filter(tournament=tournament, seat=seat).latest("started_at")
    return Entrant.objects.get(pk=row.entrant_id).place


def test_a_deal_confirming_an_old_proposal_is_a_conflict(director: Any) -> None:
    tournament = one_table(director, button=1)
    table = room(tournament)
    seen = table_hands.propose_tournament_hand(table)
    assert seen["version"] == table_hands.propose_tournament_hand(table)["version"]
    clock.advance_level(tournament=tournament, by=director)  # the blinds the dealer saw changed
    with pytest.raises(Conflict) as refused:
        table_hands.deal_tournament_hand(table=table, by=director, version=seen["version"])
    assert refused.value.code == "seat_map_changed"
    assert not Hand.objects.filter(table=table).exists()
    now = table_hands.propose_tournament_hand(table)
    hand = table_hands.deal_tournament_hand(
        table=table, by=director, version=now["version"], small=0, reason="Seat 2 was dealt late"
    )
    assert hand.blinds == {"small": None, "big": 3} and hand.game["big_blind"] == 400


@pytest.mark.parametrize("structure", ["fixed_limit", "pot_limit"])
def test_the_tournaments_structure_is_dealt_on_a_no_limit_room_table(
    director: Any, structure: str
) -> None:
    tournament = make_tournament(
        by=director, tables=1, entrants=4, seats_per_table=6, structure=structure
    )
    draw_initial_seating(tournament=tournament, by=director)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    assert hand.game["structure"] == structure and hand.game["big_blind"] == 200
    if structure == "fixed_limit":
        assert (hand.game["small_bet"], hand.game["big_bet"]) == (200, 400)
    settle(play(hand, director, {}), director)
    assert sum(chips(tournament).values()) == 4 * 20_000


def test_every_entry_starts_with_the_starting_stack(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3, starting_stack=30_000)
    draw_initial_seating(tournament=tournament, by=director)
    out = tournament.entrants.get(number=1)
    bust(entrant=out, by=director)  # out with no chips left: the re-entry starts afresh
    again = setup.register_entrant(tournament=tournament, name="", reentry_of=out, by=director)
    late = setup.register_entrant(tournament=tournament, name="Late Lou", by=director)
    alternate = setup.register_entrant(
        tournament=tournament, name="Alt Al", alternate=True, by=director
    )
    assert again.chips == late.chips == alternate.chips == 30_000
    assert set(tournament.entrants.values_list("chips", flat=True)) == {0, 30_000}


def test_putting_out_a_player_in_a_hand_is_a_409_and_the_page_says_why(
    client: Any, director: Any
) -> None:
    tournament = one_table(director, button=1)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    player = at(tournament, 4)
    client.force_login(director)
    answer = client.post(f"/api/v1/tournaments/{tournament.pk}/entrants/{player.number}/eliminate/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "in_hand"
    page = client.post(
        reverse("tournaments:entrant_eliminate", args=[tournament.pk, player.number]),
        follow=True,
    )
    assert f"{player.name} is in hand #{hand.number} at table 101, not settled yet" in (
        page.content.decode()
    )
    player.refresh_from_db()
    assert player.status == EntrantStatus.SEATED and player.chips == 20_000
