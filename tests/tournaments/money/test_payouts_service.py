"""Payouts as the service works them out: the pool from the ledger, the places paid, the table
from a template or the curve (summing to the pool to the unit, the remainder to first), typed
tables checked, locked by the director or when the bubble bursts, hand-for-hand from one off
the money to the end of the hand that bursts it (TDA RP-8), shared places split (TDA RP-8-A,
CR-TP.3), a deal's shares, and paying a prize with its refusals."""

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.core.api_errors import Conflict
from tests.tournaments.factories import bust, make_tournament
from tournaments import draw_services, eliminations, table_hands
from tournaments.models import ClockEvent, Entrant, EntrantStatus, Tournament
from tournaments.money import payouts
from tournaments.money.currency import Currency
from tournaments.money.models import (
    Deal,
    Method,
    MoneyMove,
    MoveKind,
    PayoutTable,
    PayoutTemplate,
    Prices,
)
from tournaments.money.payouts import PayoutRefused, check_typed
from tournaments.prizes.payouts import curve, from_template, split_tie

ENTRY = 10_000  # $100.00 to the pool, $10.00 fee


def take_entries(tournament: Tournament, by: Any) -> None:
    """An ENTRY line for every entrant, as the cashier writes them."""
    for entrant in tournament.entrants.all():
        MoneyMove.objects.create(
            tournament=tournament, kind=MoveKind.ENTRY, entrant=entrant, method=Method.CASH,
            player_in=ENTRY + 1_000, pool=ENTRY, house=1_000, by=by,
        )  # fmt: skip


def priced(
    director: Any, *, entrants: int = 8, tables: int = 2, seat: bool = True, **prices: Any
) -> Tournament:
    """A tournament with its prices, every entry paid, seated, registration closed."""
    tournament = make_tournament(by=director, tables=tables, entrants=entrants)
    Prices.objects.create(tournament=tournament, entry_prize=ENTRY, entry_fee=1_000, **prices)
    take_entries(tournament, director)
    if seat:
        draw_services.draw_initial_seating(tournament=tournament, by=director)
        eliminations.close_registration(tournament=tournament, by=director)
    return Tournament.objects.get(pk=tournament.pk)


def seated(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("number"))


def at_table(tournament: Tournament, number: int) -> list[Entrant]:
    return [
        e
        for e in seated(tournament)
        if e.assignments.get(ended_at__isnull=True).table.number == number
    ]


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


# --- the pool ------------------------------------------------------------------------------------


def test_the_pool_sums_the_ledger_by_kind_and_shows_the_guarantees_overlay(director: Any) -> None:
    tournament = priced(director, entrants=4, tables=1, seat=False, guarantee=600_000)
    first = tournament.entrants.get(number=1)
    line = MoneyMove.objects.create
    line(tournament=tournament, kind=MoveKind.REBUY, entrant=first, method=Method.CASH,
         player_in=5_500, pool=5_000, house=500, by=director)  # fmt: skip
    line(tournament=tournament, kind=MoveKind.ADDON, entrant=first, method=Method.CARD,
         player_in=5_000, pool=5_000, by=director)  # fmt: skip
    line(tournament=tournament, kind=MoveKind.ADDED, method=Method.ROOM, room_in=20_000,
         pool=20_000, by=director)  # fmt: skip
    entry = MoneyMove.objects.filter(entrant=tournament.entrants.get(number=4)).get()
    line(tournament=tournament, kind=MoveKind.REFUND, entrant=entry.entrant, refund_of=entry,
         method=Method.CASH, player_out=11_000, pool=-10_000, house=-1_000, by=director)  # fmt: skip
    # The refund withdraws the entry (``payments.refund_entry``): the status is what counts.
    Entrant.objects.filter(pk=entry.entrant_id).update(status=EntrantStatus.WITHDRAWN)
    pool = payouts.prize_pool(tournament)
    assert (pool.entries, pool.rebuys, pool.addons, pool.added, pool.refunds) == (
        40_000, 5_000, 5_000, 20_000, -10_000,
    )  # fmt: skip
    assert pool.total == 60_000 and pool.entry_count == 3  # the refunded entry is not counted
    assert pool.shortfall == 540_000 and pool.to_share == 600_000
    overlay = payouts.record_overlay(tournament=tournament, by=director)
    assert (overlay.kind, overlay.room_in, overlay.pool) == (MoveKind.OVERLAY, 540_000, 540_000)
    after = payouts.prize_pool(tournament)
    assert after.overlay == 540_000 and after.total == 600_000 and after.shortfall == 0
    with pytest.raises(PayoutRefused):
        payouts.record_overlay(tournament=tournament, by=director)


def test_places_paid_count_entries_and_reentries_by_share_or_fixed(director: Any) -> None:
    tournament = priced(director, entrants=20, tables=3, seat=False)
    assert payouts.places_paid(tournament) == 3  # 15% of 20 (WSOP practice)
    Prices.objects.filter(tournament=tournament).update(places_share=2_000)
    assert payouts.places_paid(tournament) == 4
    Prices.objects.filter(tournament=tournament).update(places_fixed=30)
    assert payouts.places_paid(tournament) == 20  # never more places than entries
    Prices.objects.filter(tournament=tournament).update(places_fixed=0, places_share=1_000)
    assert payouts.places_paid(tournament) == 2
    from tournaments.setup import register_entrants

    first = tournament.entrants.get(number=1)
    Entrant.objects.filter(pk=first.pk).update(status=EntrantStatus.ELIMINATED)
    Prices.objects.filter(tournament=tournament).update(reentry_limit=1)  # one re-entry (8-A)
    register_entrants(tournament=tournament, names=["Player 1"], by=director, reentry_of=first)
    assert payouts.entry_count(tournament) == 21  # the re-entry counts


# --- the table -----------------------------------------------------------------------------------


def test_a_template_table_sums_to_the_pool_with_the_remainder_to_first(director: Any) -> None:
    template = PayoutTemplate.objects.create(name="Top 3", shares=[5_000, 3_000, 2_000],
                                             created_by=director)  # fmt: skip
    tournament = priced(director, seat=False, template=template, rounding=700)
    table = payouts.save_table(tournament=tournament, by=director, note="first")
    assert table.pool == 80_000 and table.version == 1
    assert table.prizes == [40_800, 23_800, 15_400]  # each down to 700, the rest to first
    assert sum(table.prizes) == 80_000 and table.basis["kind"] == "template"


def test_a_curve_table_pays_the_minimum_cash_and_sums_to_the_pool(director: Any) -> None:
    tournament = priced(director, entrants=20, tables=3, seat=False, min_cash_tenths=15,
                        rounding=100, places_fixed=5)  # fmt: skip
    table = payouts.save_table(tournament=tournament, by=director)
    assert len(table.prizes) == 5 and sum(table.prizes) == 200_000
    assert all(a >= b for a, b in pairwise(table.prizes))
    assert min(table.prizes) >= 15_000 and all(p % 100 == 0 for p in table.prizes[1:])
    assert table.basis == {"kind": "curve", "steepness": 100, "min_cash": 15_000, "unit": 100}


def test_a_satellite_pays_seats_then_the_cash_left(director: Any) -> None:
    tournament = priced(director, seat=False, seat_value=30_000)
    table = payouts.save_table(tournament=tournament, by=director)
    assert table.prizes == [30_000, 30_000, 20_000] and table.seats == 2


def test_typed_prizes_are_checked_and_a_locked_table_is_never_edited(director: Any) -> None:
    tournament = priced(director, seat=False, rounding=500)
    for bad, says in [
        ([50_000, 40_000], "over by"), ([30_000, 40_000, 10_000], "paid more"),
        ([60_000, 19_900, 100], "multiple"), ([90_000, -10_000], "below zero"),
        ([50_000, 20_000], "short by"), ([10_000] * 9, "one place a player"),
    ]:  # fmt: skip
        with pytest.raises(PayoutRefused, match=says):
            payouts.save_table(tournament=tournament, by=director, prizes=bad, note="Typed")
    typed = payouts.save_table(
        tournament=tournament, by=director, prizes=[50_000, 30_000], note="Typed"
    )
    assert typed.basis == {"kind": "typed"} and typed.version == 1
    with pytest.raises(PayoutRefused):
        payouts.lock_table(tournament=tournament, by=director, reason="  ")
    locked = payouts.lock_table(tournament=tournament, by=director, reason="Posted")
    assert locked.locked and locked.version == 2 and locked.prizes == [50_000, 30_000]
    with pytest.raises(Conflict) as refused:
        payouts.save_table(tournament=tournament, by=director)
    assert refused.value.code == "payouts_locked" and "Posted" in refused.value.message
    with pytest.raises(Conflict):
        payouts.lock_table(tournament=tournament, by=director, reason="again")


def test_the_table_locks_itself_when_the_bubble_bursts(director: Any) -> None:
    tournament = priced(director, tables=1, entrants=6, places_fixed=3)
    payouts.save_table(tournament=tournament, by=director)
    players = seated(tournament)
    for out in players[:2]:
        bust(entrant=out, by=director)
        assert not PayoutTable.objects.filter(tournament=tournament, locked=True).exists()
    bust(entrant=players[2], by=director)  # 3 left: every place from here is money
    lock = PayoutTable.objects.get(tournament=tournament, locked=True)
    assert lock.version == 2 and "bubble" in lock.note and len(lock.prizes) == 3


def test_the_bubble_locks_a_table_worked_out_afresh_when_the_pool_moved(director: Any) -> None:
    tournament = priced(director, tables=1, entrants=4, places_fixed=2)
    payouts.save_table(tournament=tournament, by=director, prizes=[25_000, 15_000], note="Typed")
    MoneyMove.objects.create(tournament=tournament, kind=MoveKind.ADDED, method=Method.ROOM,
                             room_in=10_000, pool=10_000, by=director)  # fmt: skip
    for out in seated(tournament)[:2]:
        bust(entrant=out, by=director)
    lock = PayoutTable.objects.get(tournament=tournament, locked=True)
    assert lock.pool == 50_000 and sum(lock.prizes) == 50_000 and lock.basis["kind"] == "curve"


# --- hand-for-hand at the bubble (TDA RP-8) ----------------------------------------------------


def test_hand_for_hand_starts_one_off_the_money_and_ends_with_the_hand_that_bursts_it(
    director: Any,
) -> None:
    tournament = priced(director, entrants=8, tables=2, places_fixed=3)
    one, two = at_table(tournament, 1), at_table(tournament, 2)
    for out in [*one[:2], *two[:1]]:
        bust(entrant=out, by=director)
    assert not fresh(tournament).hand_for_hand  # 5 left, 3 paid
    bust(entrant=two[1], by=director)  # 4 left: one off the money, two tables in play
    tournament = fresh(tournament)
    assert tournament.hand_for_hand
    assert ClockEvent.objects.filter(tournament=tournament, action="hand_for_hand_on").exists()
    bust(entrant=one[2], by=director)  # the bubble bursts on this hand
    assert fresh(tournament).hand_for_hand  # the hand is played out on every table first
    assert PayoutTable.objects.filter(tournament=tournament, locked=True).exists()
    table_hands.next_hand_for_hand(tournament=tournament, by=director, force=True)
    assert not fresh(tournament).hand_for_hand
    assert ClockEvent.objects.filter(tournament=tournament, action="hand_for_hand_off").exists()


def test_hand_for_hand_the_director_calls_in_the_money_keeps_going(director: Any) -> None:
    tournament = priced(director, entrants=8, tables=2, places_fixed=5)
    one, two = at_table(tournament, 1), at_table(tournament, 2)
    for out in [one[0], two[0], one[1], two[1]]:  # 6 left: hand-for-hand starts at the fourth
        bust(entrant=out, by=director)
    bust(entrant=one[2], by=director)  # 3 left... the bubble (5 paid) bursts at 5
    table_hands.next_hand_for_hand(tournament=tournament, by=director, force=True)
    assert not fresh(tournament).hand_for_hand
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    first = fresh(tournament).hand_for_hand_hand
    table_hands.next_hand_for_hand(tournament=tournament, by=director, force=True)
    after = fresh(tournament)
    assert after.hand_for_hand and after.hand_for_hand_hand == first + 1


# --- what each finisher is owed ------------------------------------------------------------------


def test_two_out_on_one_hand_for_hand_hand_share_places_4_and_5_odd_unit_to_the_bigger_stack(
    director: Any,
) -> None:
    tournament = priced(director, entrants=8, tables=2, places_fixed=5)
    payouts.save_table(
        tournament=tournament,
        by=director,
        prizes=[35_001, 20_000, 12_000, 7_000, 5_999],
        note="Typed",
    )
    one, two = at_table(tournament, 1), at_table(tournament, 2)
    for out in [one[0], two[0], one[1]]:  # 6 left: hand-for-hand; then the bubble bursts
        bust(entrant=out, by=director)
    table_hands.next_hand_for_hand(tournament=tournament, by=director, force=True)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    hand = fresh(tournament).hand_for_hand_hand
    bust(entrant=one[2], by=director)  # out first on the hand: the smaller stack (CR-TP.3)
    bust(entrant=two[1], by=director)
    assert fresh(tournament).hand_for_hand_hand == hand  # the same hand-for-hand hand
    owed = {o.entrant.pk: o for o in payouts.prizes_owed(tournament)}
    first_out, last_out = owed[one[2].pk], owed[two[1].pk]
    assert first_out.place == last_out.place == 4 and first_out.shared == 2
    assert last_out.label == "4th–5th, shared"
    assert (last_out.amount, first_out.amount) == (6_500, 6_499)  # 12,999 shared, odd unit up
    assert one[1].pk not in owed  # 6th: the bubble
    assert payouts.prize_of(Entrant.objects.get(pk=one[0].pk)) is None  # 8th: out of the money


def test_two_out_on_the_bubble_hand_share_the_last_paid_place(director: Any) -> None:
    """TDA RP-8-A: "All 3 players will share in the 50th place payout": here two, 5th."""
    tournament = priced(director, entrants=8, tables=2, places_fixed=5)
    payouts.save_table(
        tournament=tournament,
        by=director,
        prizes=[35_001, 20_000, 12_000, 7_000, 5_999],
        note="Typed",
    )
    one, two = at_table(tournament, 1), at_table(tournament, 2)
    bust(entrant=one[0], by=director)
    bust(entrant=two[0], by=director)  # 6 left, 5 paid: hand-for-hand
    bust(entrant=one[1], by=director)
    bust(entrant=two[1], by=director)  # the same hand: 6th and 5th, shared
    owed = {o.entrant.pk: o for o in payouts.prizes_owed(tournament)}
    first_out, last_out = owed[one[1].pk], owed[two[1].pk]
    assert first_out.label == last_out.label == "5th–6th, shared"
    assert (last_out.amount, first_out.amount) == (3_000, 2_999)


def test_a_deals_shares_replace_the_table_and_the_winner_gets_what_was_left_to_play_for(
    director: Any,
) -> None:
    tournament = priced(director, entrants=4, tables=1, places_fixed=3)
    payouts.save_table(
        tournament=tournament, by=director, prizes=[20_000, 12_000, 8_000], note="Typed"
    )
    players = seated(tournament)
    bust(entrant=players[0], by=director)
    left = players[1:]
    Deal.objects.create(
        tournament=tournament, method="chip_chop", unit=1, play_for=2_000, by=director,
        prizes=[20_000, 12_000, 8_000],
        players=[{"entrant": e.pk, "name": e.name, "chips": 1, "share": s}
                 for e, s in zip(left, [13_000, 13_000, 12_000], strict=True)],
    )  # fmt: skip
    bust(entrant=left[0], by=director)
    bust(entrant=left[1], by=director)  # the winner: left[2]
    owed = {o.entrant.pk: o for o in payouts.prizes_owed(tournament)}
    assert [owed[e.pk].amount for e in left] == [13_000, 13_000, 14_000]
    assert owed[left[2].pk].place == 1 and owed[left[2].pk].deal is not None
    paid = payouts.pay_prize(entrant=left[2], method=Method.CASH, by=director)
    assert paid.deal is not None and paid.player_out == 14_000


# --- paying ------------------------------------------------------------------------------------


def test_paying_a_prize_writes_one_payout_line_and_every_refusal_says_why(director: Any) -> None:
    tournament = priced(director, entrants=4, tables=1, places_fixed=2)
    payouts.save_table(tournament=tournament, by=director, prizes=[25_000, 15_000], note="Typed")
    players = seated(tournament)
    bust(entrant=players[0], by=director)
    with pytest.raises(Conflict) as refused:
        payouts.pay_prize(entrant=players[1], method=Method.CASH, by=director)
    assert refused.value.code == "not_finished"
    with pytest.raises(Conflict) as refused:
        payouts.pay_prize(entrant=players[0], method=Method.CASH, by=director)
    assert refused.value.code == "not_in_money"
    with pytest.raises(PayoutRefused):
        payouts.pay_prize(entrant=players[0], method=Method.ROOM, by=director)
    bust(entrant=players[1], by=director)
    bust(entrant=players[2], by=director)  # 2nd; players[3] wins
    line = payouts.pay_prize(entrant=players[2], method=Method.CASH, by=director)
    assert (line.kind, line.pool, line.player_out, line.place) == (MoveKind.PAYOUT, -15_000,
                                                                   15_000, 2)  # fmt: skip
    with pytest.raises(Conflict) as refused:
        payouts.pay_prize(entrant=players[2], method=Method.CARD, by=director)
    assert refused.value.code == "already_paid" and "Already paid by" in refused.value.message
    assert payouts.prize_pool(tournament).paid == 15_000
    assert MoneyMove.objects.filter(kind=MoveKind.PAYOUT).count() == 1


def test_a_prize_the_pool_cannot_cover_waits_for_the_overlay(director: Any) -> None:
    tournament = priced(director, entrants=2, tables=1, places_fixed=1, guarantee=50_000)
    payouts.save_table(tournament=tournament, by=director)
    winner, loser = seated(tournament)
    bust(entrant=loser, by=director)
    with pytest.raises(Conflict) as refused:
        payouts.pay_prize(entrant=winner, method=Method.CASH, by=director)
    assert refused.value.code == "pool_short"
    payouts.record_overlay(tournament=tournament, by=director)
    assert payouts.pay_prize(entrant=winner, method=Method.CASH, by=director).player_out == 50_000


def test_amounts_in_words_as_a_cheque_writes_them() -> None:
    assert (
        payouts.amount_in_words(34_000, Currency("USD", 2)) == "Three hundred forty and 00/100 USD"
    )
    assert payouts.amount_in_words(1_250_007, Currency("KRW", 0)) == (
        "One million two hundred fifty thousand seven KRW"
    )


# --- properties --------------------------------------------------------------------------------


@st.composite
def templates(draw: st.DrawFn) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(1, 9_999), max_size=15, unique=True)))
    shares = [b - a for a, b in pairwise([0, *cuts, 10_000])]
    return sorted(shares, reverse=True)


@given(pool=st.integers(0, 10**12), shares=templates(), unit=st.integers(1, 10_000))
def test_any_template_table_sums_to_the_pool_and_never_rises(
    pool: int, shares: list[int], unit: int
) -> None:
    prizes = from_template(pool, shares, unit=unit)
    assert sum(prizes) == pool and all(a >= b for a, b in pairwise(prizes))
    assert check_typed(prizes, pool=pool, unit=unit, entries=len(prizes)) == prizes


@given(pool=st.integers(1, 10**12), places=st.integers(1, 200), unit=st.integers(1, 1_000))
def test_any_curve_table_sums_to_the_pool_and_never_rises(
    pool: int, places: int, unit: int
) -> None:
    prizes = curve(pool, places, unit=unit)
    assert sum(prizes) == pool and all(a >= b for a, b in pairwise(prizes))


@given(prizes=st.lists(st.integers(0, 10**9), min_size=1, max_size=20), unit=st.integers(1, 500))
def test_shared_places_split_sums_to_their_prizes(prizes: list[int], unit: int) -> None:
    shares = split_tie(prizes, len(prizes), unit=unit)
    # The bigger stack (first in the order given) never takes less than a smaller one.
    assert sum(shares) == sum(prizes) and all(a >= b for a, b in pairwise(shares))


# --- a paid prize fixes the table; places wait for registration to close (TDA 8) ---------------


def open_field(director: Any, *, entrants: int = 4, **prices: Any) -> Tournament:
    """Priced, every entry paid, seated, registration still open (late registration)."""
    tournament = priced(director, entrants=entrants, tables=1, seat=False, **prices)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    return fresh(tournament)


def test_a_typed_table_without_a_reason_is_refused(director: Any) -> None:
    tournament = priced(director, entrants=4, tables=1, places_fixed=2)
    for note in ["", "   "]:
        with pytest.raises(PayoutRefused, match="Say why this table") as refused:
            payouts.save_table(
                tournament=tournament, by=director, prizes=[25_000, 15_000], note=note
            )
        assert refused.value.code == "payout_refused" and "note" in refused.value.error_dict
    assert not PayoutTable.objects.filter(tournament=tournament).exists()
    payouts.save_table(tournament=tournament, by=director)  # worked out: the basis says why


def test_busts_while_registration_is_open_lock_the_table_when_it_closes(director: Any) -> None:
    """The review's case: players out while registration was open got no place, so no bust
    burst the bubble; closing it sets the places (TDA 8) and the table locks then."""
    tournament = open_field(director, places_fixed=3)
    payouts.save_table(
        tournament=tournament, by=director, prizes=[20_000, 12_000, 8_000], note="Agreed"
    )
    players = seated(tournament)
    bust(entrant=players[0], by=director)  # 3 left, 3 paid, but the field is not final
    assert not payouts.current_table(tournament).locked
    with pytest.raises(Conflict) as early:
        payouts.pay_prize(entrant=players[0], method=Method.CASH, by=director)
    assert early.value.code == "registration_open" and "TDA 8" in early.value.message
    eliminations.close_registration(tournament=tournament, by=director)
    table = payouts.current_table(tournament)
    assert table.locked and table.prizes == [20_000, 12_000, 8_000] and "bubble" in table.note


def test_a_new_version_is_refused_once_a_prize_is_paid_naming_the_place(director: Any) -> None:
    tournament = open_field(director, places_fixed=3)
    payouts.save_table(
        tournament=tournament, by=director, prizes=[20_000, 12_000, 8_000], note="Agreed"
    )
    players = seated(tournament)
    bust(entrant=players[0], by=director)
    bust(entrant=players[1], by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    paid = payouts.pay_prize(
        entrant=Entrant.objects.get(pk=players[1].pk), method="cash", by=director
    )
    assert paid.place == 3
    table = payouts.current_table(tournament)
    assert table.locked and table.prizes == [20_000, 12_000, 8_000]
    for prizes, note in [([10_000, 8_000, 22_000][::-1], "Redo"), (None, "")]:
        with pytest.raises(Conflict) as refused:
            payouts.save_table(tournament=tournament, by=director, prizes=prizes, note=note)
        assert refused.value.code == "prize_paid"
        assert "3rd place was paid $80.00" in refused.value.message
    assert payouts.current_table(tournament).version == table.version
