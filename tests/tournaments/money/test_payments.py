"""A tournament's payments on the ledger: entries and re-entries paid at registration, rebuys and
add-ons within their limits and windows, refunds before the initial draw, the room's added money
and overlay. Every line balances, the chain verifies, and the chips bought match the counts."""

from typing import Any

import pytest
from django.db import transaction
from django.db.models import F, Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.core import audit
from tests.tournaments.factories import make_tournament
from tests.tournaments.test_table_hands import room
from tournaments import chip_counts, eliminations, table_hands
from tournaments.clock import services as clock
from tournaments.draw_services import draw_initial_seating, draw_late_entries
from tournaments.draws.errors import DrawError
from tournaments.models import Entrant, EntrantStatus, Tournament, TournamentTable
from tournaments.money import payments
from tournaments.money.models import Method, MoneyMove, MoveKind
from tournaments.money.payments import PaymentInvalid, PaymentRefused
from tournaments.money.prices import set_prices
from tournaments.setup import register_entrant, register_entrants

pytestmark = pytest.mark.django_db

#: $100 + $10 + $5 entry; $100 + $5 rebuys of 20,000 (two a player, to level 2, at 20,000 or
#: less); one $50 + $5 add-on of 30,000 in levels 2 to 3; one re-entry to level 2.
PRICES: dict[str, Any] = {
    "entry_prize": 10_000, "entry_fee": 1_000, "entry_staff": 500,
    "reentry_limit": 1, "reentry_last_level": 2,
    "rebuy_prize": 10_000, "rebuy_fee": 500, "rebuy_chips": 20_000, "rebuy_limit": 2,
    "rebuy_last_level": 2,
    "addon_prize": 5_000, "addon_fee": 500, "addon_chips": 30_000, "addon_limit": 1,
    "addon_first_level": 2, "addon_last_level": 3,
}  # fmt: skip


def priced(
    director: Any, *, entrants: int = 6, draw: bool = True, first_table: int = 101, **fields: Any
) -> Tournament:
    """A one-table tournament at ``PRICES`` (changed by ``fields``), its players registered and
    paid, drawn to their seats unless ``draw`` is off (registration stays open)."""
    tournament = make_tournament(by=director, tables=1, seats_per_table=6, first_table=first_table)
    set_prices(tournament=tournament, by=director, **{**PRICES, **fields})
    if entrants:
        names = [f"Player {i}" for i in range(1, entrants + 1)]
        register_entrants(tournament=tournament, names=names, by=director)
    if draw:
        draw_initial_seating(tournament=tournament, by=director)
        TournamentTable.objects.filter(tournament=tournament).update(button=1)
    tournament.refresh_from_db()
    return tournament


def player(tournament: Tournament, number: int) -> Entrant:
    return tournament.entrants.get(number=number)


def balances(tournament: Tournament) -> bool:
    """In and out of the box equal what the lines did to the places the money is held."""
    total = tournament.money.aggregate(
        box=Sum(F("player_in") + F("room_in") - F("player_out") - F("room_out")),
        held=Sum(F("pool") + F("house") + F("staff") + F("bounty") + F("owed")),
    )
    return total["box"] == total["held"]


def bust(tournament: Tournament, entrant: Entrant, director: Any) -> None:
    taker = tournament.entrants.exclude(pk=entrant.pk).filter(status=EntrantStatus.SEATED)[0]
    chip_counts.move_chips(
        from_entrant=entrant, to_entrant=taker, chips=entrant.chips, reason="Lost", by=director
    )
    eliminations.eliminate_player(entrant=entrant, by=director)


# --- entries -------------------------------------------------------------------------------


def test_each_entry_is_paid_at_registration_with_its_split_method_and_cashier(
    director: Any,
) -> None:
    tournament = priced(director, entrants=2, draw=False)
    late = register_entrant(tournament=tournament, name="Ana Ruiz", by=director, method="card")
    lines = list(tournament.money.order_by("id"))
    assert [line.kind for line in lines] == [MoveKind.ENTRY] * 3
    card = lines[-1]
    assert (card.entrant, card.method, card.by) == (late, Method.CARD, director)
    assert (card.player_in, card.pool, card.house, card.staff, card.chips) == (
        11_500, 10_000, 1_000, 500, 20_000,
    )  # fmt: skip
    assert lines[1].prev_hash == lines[0].row_hash and audit.verify() == []
    assert balances(tournament)


def test_a_free_tournament_writes_no_ledger_line(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3)
    assert tournament.entrants.count() == 3 and not MoneyMove.objects.exists()


def test_an_entry_paid_with_something_the_cage_does_not_take_is_refused(director: Any) -> None:
    tournament = priced(director, entrants=1, draw=False)
    for method in ("room", "bitcoin", ""):
        with pytest.raises(PaymentInvalid):
            register_entrant(tournament=tournament, name="Bo Li", by=director, method=method)
    assert tournament.entrants.count() == 1


def test_a_reentry_is_paid_as_a_reentry_and_limited_per_player(director: Any) -> None:
    tournament = priced(director)
    first = player(tournament, 1)
    bust(tournament, first, director)
    clock.advance_level(tournament=tournament, by=director)  # level 2: still open
    again = register_entrant(tournament=tournament, name="", by=director, reentry_of=first)
    assert tournament.money.get(entrant=again).kind == MoveKind.REENTRY
    assert payments.entries_of(again) == 1
    freezeout = priced(director, first_table=201, reentry_limit=0)
    out = player(freezeout, 1)
    bust(freezeout, out, director)
    with pytest.raises(PaymentRefused) as refused:
        register_entrant(tournament=freezeout, name="", by=director, reentry_of=out)
    assert refused.value.code == "reentry_limit" and refused.value.citations == ("TDA-8-A",)
    assert not freezeout.money.filter(kind=MoveKind.REENTRY).exists()


def test_a_reentry_after_the_last_reentry_level_is_refused(director: Any) -> None:
    tournament = priced(director, reentry_limit=3)
    first = player(tournament, 1)
    bust(tournament, first, director)
    clock.advance_level(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)  # level 3
    with pytest.raises(PaymentRefused) as refused:
        register_entrant(tournament=tournament, name="", by=director, reentry_of=first)
    assert refused.value.code == "reentry_closed" and "TDA-8-A" in refused.value.citations
    assert not tournament.money.filter(kind=MoveKind.REENTRY).exists()


# --- rebuys and add-ons ------------------------------------------------------------------------


def test_a_rebuy_adds_its_chips_and_a_line_and_the_chips_still_add_up(director: Any) -> None:
    tournament = priced(director)
    ana = player(tournament, 2)
    line = payments.take_rebuy(entrant=ana, method="cash", by=director)
    ana.refresh_from_db()
    assert ana.chips == 40_000
    assert (line.kind, line.player_in, line.pool, line.house, line.chips) == (
        MoveKind.REBUY, 10_500, 10_000, 500, 20_000,
    )  # fmt: skip
    check = chip_counts.reconcile(tournament)
    assert check.bought == (("6 entries × 20,000", 120_000), ("1 rebuy × 20,000", 20_000))
    assert check.balanced and balances(tournament) and audit.verify() == []


def test_a_rebuy_is_refused_above_the_ceiling_stack(director: Any) -> None:
    tournament = priced(director, rebuy_at_most=25_000)
    ana = player(tournament, 2)
    payments.take_rebuy(entrant=ana, method="cash", by=director)  # at 20,000: taken
    with pytest.raises(PaymentRefused) as refused:
        payments.take_rebuy(entrant=ana, method="cash", by=director)  # at 40,000
    assert refused.value.code == "rebuy_stack"


def test_rebuys_stop_at_the_limit_and_after_the_last_level(director: Any) -> None:
    tournament = priced(director, rebuy_at_most=1_000_000)
    ana, bo = player(tournament, 2), player(tournament, 3)
    payments.take_rebuy(entrant=ana, method="cash", by=director)
    payments.take_rebuy(entrant=ana, method="card", by=director)
    with pytest.raises(PaymentRefused) as limit:
        payments.take_rebuy(entrant=ana, method="cash", by=director)
    assert limit.value.code == "rebuy_limit"
    clock.advance_level(tournament=tournament, by=director)  # level 2: the last
    payments.take_rebuy(entrant=bo, method="cash", by=director)
    clock.advance_level(tournament=tournament, by=director)  # level 3
    with pytest.raises(PaymentRefused) as closed:
        payments.take_rebuy(entrant=bo, method="cash", by=director)
    assert closed.value.code == "rebuy_closed"
    assert tournament.money.filter(kind=MoveKind.REBUY).count() == 3
    assert chip_counts.reconcile(tournament).balanced


def test_the_clock_running_past_the_last_rebuy_level_closes_rebuys(director: Any) -> None:
    from datetime import timedelta

    tournament = priced(director, rebuy_last_level=1)
    clock.start_clock(tournament=tournament, by=director)
    # The first level's time ran out while the clock ran: level 2 now, though not yet written.
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=21)
    )
    with pytest.raises(PaymentRefused) as closed:
        payments.take_rebuy(entrant=player(tournament, 2), method="cash", by=director)
    assert closed.value.code == "rebuy_closed" and "level 2" in closed.value.message


def test_no_rebuy_in_a_freezeout_nor_for_a_player_who_is_out(director: Any) -> None:
    freezeout = priced(director, rebuy_limit=0, rebuy_chips=0, rebuy_prize=0, rebuy_fee=0)
    with pytest.raises(PaymentRefused, match="freezeout"):
        payments.take_rebuy(entrant=player(freezeout, 1), method="cash", by=director)
    tournament = priced(director, first_table=201)
    out = player(tournament, 1)
    bust(tournament, out, director)
    with pytest.raises(PaymentRefused) as refused:
        payments.take_rebuy(entrant=out, method="cash", by=director)
    assert refused.value.code == "not_in_play"


def test_a_rebuy_waits_for_the_hand_the_player_is_in(director: Any) -> None:
    tournament = priced(director)
    clock.advance_level(tournament=tournament, by=director)  # level 2: rebuys and add-ons
    table_hands.deal_tournament_hand(table=room(tournament), by=director)
    ana = player(tournament, 2)
    for take in (payments.take_rebuy, payments.take_addon):
        with pytest.raises(DrawError) as caught:
            take(entrant=ana, method="cash", by=director)
        assert caught.value.code == "in_hand" and "TDA-27" in caught.value.citations
        assert "before the next deal" in caught.value.message
    assert not tournament.money.filter(kind__in=[MoveKind.REBUY, MoveKind.ADDON]).exists()


def test_an_addon_is_taken_in_its_window_at_any_stack_once(director: Any) -> None:
    tournament = priced(director)
    ana = player(tournament, 2)
    with pytest.raises(PaymentRefused) as early:
        payments.take_addon(entrant=ana, method="cash", by=director)  # level 1
    assert early.value.code == "addon_closed"
    clock.advance_level(tournament=tournament, by=director)
    Entrant.objects.filter(pk=ana.pk).update(chips=90_000)
    line = payments.take_addon(entrant=ana, method="voucher", by=director)
    assert (line.kind, line.method, line.chips, line.player_in) == (
        MoveKind.ADDON, Method.VOUCHER, 30_000, 5_500,
    )  # fmt: skip
    ana.refresh_from_db()
    assert ana.chips == 120_000
    with pytest.raises(PaymentRefused) as again:
        payments.take_addon(entrant=ana, method="cash", by=director)
    assert again.value.code == "addon_limit"
    clock.advance_level(tournament=tournament, by=director)
    bo = player(tournament, 3)
    payments.take_addon(entrant=bo, method="cash", by=director)  # level 3: the last
    assert [b for b, _ in chip_counts.reconcile(tournament).bought][-1] == "2 add-ons × 30,000"


def test_the_cashiers_offer_says_what_is_used_and_why_refused(director: Any) -> None:
    tournament = priced(director)
    ana = player(tournament, 2)
    payments.take_rebuy(entrant=ana, method="cash", by=director)
    rebuy = payments.offer(ana, MoveKind.REBUY)
    assert (rebuy.used, rebuy.limit) == (1, 2) and "20,000 or fewer" in rebuy.refusal
    addon = payments.offer(ana, MoveKind.ADDON)
    assert addon.used == 0 and "levels 2 to 3" in addon.refusal


# --- refunds and the room's money -------------------------------------------------------------


def test_an_entry_refunded_before_the_draw_is_paid_back_and_never_drawn(director: Any) -> None:
    tournament = priced(director, entrants=4, draw=False)
    ana = player(tournament, 2)
    line = payments.refund_entry(entrant=ana, by=director, reason="  Called away ")
    paid = tournament.money.get(entrant=ana, kind=MoveKind.ENTRY)
    assert (line.kind, line.refund_of, line.player_out, line.note) == (
        MoveKind.REFUND, paid, 11_500, "Called away",
    )  # fmt: skip
    assert (line.pool, line.house, line.staff, line.method) == (-10_000, -1_000, -500, "cash")
    assert balances(tournament) and audit.verify() == []
    with pytest.raises(PaymentRefused) as twice:
        payments.refund_entry(entrant=ana, by=director, reason="Again")
    assert twice.value.code == "refunded"
    draw_initial_seating(tournament=tournament, by=director)
    ana.refresh_from_db()
    assert ana.status == EntrantStatus.WITHDRAWN and ana.chips == 0
    assert tournament.assignments.filter(ended_at__isnull=True).count() == 3
    late = register_entrant(tournament=tournament, name="Late Lee", by=director)
    draw_late_entries(tournament=tournament, by=director)
    late.refresh_from_db()
    ana.refresh_from_db()
    assert late.status == EntrantStatus.SEATED and ana.status == EntrantStatus.WITHDRAWN
    assert tournament.assignments.filter(ended_at__isnull=True).count() == 4
    check = chip_counts.reconcile(tournament)
    assert check.bought == (("4 entries × 20,000", 80_000),) and check.balanced


def test_a_refunded_entry_is_withdrawn_on_the_list_out_of_the_counts_and_may_enter_again(
    director: Any, client: Any
) -> None:
    """The refund withdraws the entry: it stays on the director's list, marked, under its own
    tab, and leaves the waiting count; the player may register again, as a new entry."""
    tournament = priced(director, entrants=3, draw=False)
    ana = player(tournament, 2)
    payments.refund_entry(entrant=ana, by=director, reason="Called away")
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'Waiting for a seat <span class="count">(2)</span>' in page
    assert 'Refunded <span class="count">(1)</span>' in page
    row = page.split(f'id="entrant-{ana.number}"', 1)[1].split("</tr>", 1)[0]
    assert "Withdrawn — refunded $115.00" in row
    refunded = client.get(f"/tournaments/{tournament.pk}/?tab=withdrawn").content.decode()
    assert f'id="entrant-{ana.number}"' in refunded
    again = register_entrant(tournament=tournament, name=ana.name, by=director)
    assert again.number == 4 and again.player_id == ana.player_id
    assert tournament.entrants.filter(status=EntrantStatus.REGISTERED).count() == 3
    with pytest.raises(Exception, match="already entered"):
        register_entrant(tournament=tournament, name=ana.name, by=director)


def test_an_entry_is_not_refunded_once_drawn_nor_without_a_reason(director: Any) -> None:
    tournament = priced(director, entrants=3)
    with pytest.raises(PaymentRefused) as drawn:
        payments.refund_entry(entrant=player(tournament, 1), by=director, reason="Left")
    assert drawn.value.code == "played"
    with pytest.raises(PaymentInvalid):
        payments.refund_entry(entrant=player(tournament, 1), by=director, reason="  ")
    free = make_tournament(by=director, tables=1, entrants=1, first_table=301, name="Freeroll")
    with pytest.raises(PaymentRefused) as unpaid:
        payments.refund_entry(entrant=player(free, 1), by=director, reason="Left")
    assert unpaid.value.code == "not_paid"
    assert not tournament.money.filter(kind=MoveKind.REFUND).exists()


def test_the_room_adds_money_and_pays_an_overlay_into_the_pool(director: Any) -> None:
    tournament = priced(director, entrants=2, draw=False)
    added = payments.add_room_money(
        tournament=tournament, amount=50_000, by=director, note="Added by the room"
    )
    overlay = payments.add_room_money(
        tournament=tournament, kind=MoveKind.OVERLAY, amount=7_000, by=director, note="Guarantee"
    )
    assert (added.room_in, added.pool, added.method) == (50_000, 50_000, Method.ROOM)
    assert overlay.kind == MoveKind.OVERLAY and balances(tournament)
    for amount, kind in ((0, MoveKind.ADDED), (-5, MoveKind.ADDED), (5, MoveKind.REBUY)):
        with pytest.raises(PaymentInvalid):
            payments.add_room_money(tournament=tournament, kind=kind, amount=amount,
                                    by=director, note="x")  # fmt: skip


# --- the ledger and the chips, whatever the sequence ----------------------------------------


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["enter", "rebuy", "addon", "refund", "level"]),
              st.integers(min_value=1, max_value=5)),
    max_size=14,
)  # fmt: skip


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_any_sequence_of_payments_balances_and_the_chips_match(
    director: Any, actions: list[tuple[str, int]]
) -> None:
    with transaction.atomic():
        tournament = priced(director, entrants=3, draw=False, rebuy_at_most=10**9)
        named = 3
        for action, n in actions:
            entrant = tournament.entrants.filter(number=n).first()
            try:
                if action == "enter":
                    named += 1
                    register_entrant(tournament=tournament, name=f"New {named}", by=director)
                elif action == "level":
                    clock.advance_level(tournament=tournament, by=director)
                elif entrant is None:
                    continue
                elif action == "rebuy":
                    payments.take_rebuy(entrant=entrant, method="cash", by=director)
                elif action == "addon":
                    payments.take_addon(entrant=entrant, method="card", by=director)
                else:
                    payments.refund_entry(entrant=entrant, by=director, reason="Left")
            except (PaymentRefused, DrawError):
                pass
        assert balances(tournament)
        check = chip_counts.reconcile(tournament)
        assert check.in_play == check.expected
        transaction.set_rollback(True)
