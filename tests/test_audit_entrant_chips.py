"""A tournament entrant's count (``Entrant.chips``) is an ordinary row; every write of it has a
chained record (the entry's ledger line, a ``ChipCount``, a tournament hand's deal and award,
a rebuy's or an add-on's line), and ``verify_audit`` holds the count to the newest of them
plus the chips bought since: a count rewritten with one ``UPDATE`` is named, with the entrant,
the count its records say and the record that says it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.tables.models import Hand, HandRecord, HandRecordKind
from cardroom.tables.services import void_hand
from tests.test_audit_hand_records import execute, verify_audit
from tests.tournaments.factories import make_tournament
from tests.tournaments.test_table_hands import at, play, room, settle
from tournaments import eliminations, table_hands
from tournaments.chip_checks import entrant_breaks
from tournaments.chip_counts import correct_count, move_chips
from tournaments.draw_services import draw_initial_seating
from tournaments.models import ChipCount, Entrant, SeatAssignment, Tournament
from tournaments.money import payments
from tournaments.money.models import MoneyMove, MoveKind
from tournaments.money.prices import set_prices
from tournaments.setup import register_entrants

pytestmark = pytest.mark.django_db

ENTRANT = "tournaments_entrant"


@pytest.fixture
def evening(director: Any) -> dict[str, Any]:
    """An honest evening at one six-seat table: paid entries, hands pushed at the desk (one
    voided, one still being played), a count corrected, chips given to another player and
    taken out of play, a rebuy and an add-on, and a player left unseated."""
    tournament = make_tournament(by=director, tables=1, seats_per_table=6)
    set_prices(
        tournament=tournament, by=director, entry_prize=10_000, entry_fee=1_000,
        rebuy_limit=2, rebuy_chips=20_000, rebuy_prize=10_000, rebuy_last_level=3,
        rebuy_at_most=10**9,
        addon_prize=5_000, addon_chips=10_000, addon_limit=1, addon_first_level=1,
        addon_last_level=3,
    )  # fmt: skip
    register_entrants(tournament=tournament, names=[f"Player {n}" for n in range(1, 7)],
                      by=director)  # fmt: skip
    draw_initial_seating(tournament=tournament, by=director)
    # A late entry waiting for a seat (TDA 8-A): its count is its entry line's.
    register_entrants(tournament=tournament, names=["Player 7"], by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    tournament = Tournament.objects.get(pk=tournament.pk)
    table = room(tournament)
    settle(play(table_hands.deal_tournament_hand(table=table, by=director), director, {}),
           director)  # fmt: skip
    voided = table_hands.deal_tournament_hand(table=table, by=director)
    void_hand(hand=voided, by=director, expected_seq=voided.seq, reason="Misdeal.")
    correct_count(entrant=at(tournament, 1), chips=19_500, reason="Miscounted.", by=director)
    move_chips(from_entrant=at(tournament, 2), to_entrant=at(tournament, 3), chips=300,
               reason="Pot pushed to the wrong player.", by=director)  # fmt: skip
    move_chips(from_entrant=at(tournament, 4), to_entrant=None, chips=100,
               reason="Chip found on the floor.", by=director)  # fmt: skip
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    settle(play(hand, director, {}), director)
    payments.take_rebuy(entrant=at(tournament, 1), method="cash", by=director)
    payments.take_addon(entrant=at(tournament, 2), method="card", by=director)
    playing = table_hands.deal_tournament_hand(table=table, by=director)
    waiting = tournament.entrants.get(assignments__isnull=True)
    return {"tournament": tournament, "playing": playing, "waiting": waiting}


def test_an_honest_evening_of_hands_counts_transfers_and_purchases_verifies_clean(
    evening: dict[str, Any],
) -> None:
    tournament = evening["tournament"]
    assert ChipCount.objects.filter(tournament=tournament).count() == 4
    kinds = set(MoneyMove.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds == {MoveKind.ENTRY, MoveKind.REBUY, MoveKind.ADDON}
    assert Hand.objects.filter(table=room(tournament)).count() == 4
    assert at(tournament, 1).chips > 20_000  # the rebuy joined the count
    assert entrant_breaks() == []
    assert verify_audit() == []


def test_a_count_rewritten_after_a_hand_is_named_with_the_hand_that_decided_it(
    evening: dict[str, Any],
) -> None:
    tournament, playing = evening["tournament"], evening["playing"]
    entrant = at(tournament, 5)
    execute("UPDATE tournaments_entrant SET chips = chips + 50000 WHERE id = %s", [entrant.pk])
    deal = HandRecord.objects.get(hand=playing, kind=HandRecordKind.DEALT)
    dealt = {entry["seat"]: entry["stack"] for entry in deal.record["seats"]}[5]
    assert verify_audit() == [
        f"BREAK {ENTRANT} row {entrant.pk}: chips {entrant.chips + 50_000} differ from the"
        f" {dealt} its records say (hand #{playing.number}'s deal, record {deal.pk})"
    ]


def test_a_count_rewritten_after_a_correction_a_rebuy_or_an_entry_is_named(
    evening: dict[str, Any], director: Any
) -> None:
    tournament, waiting = evening["tournament"], evening["waiting"]
    playing = evening["playing"]
    void_hand(hand=playing, by=director, expected_seq=playing.seq, reason="Misdeal.")
    corrected = at(tournament, 6)
    count = correct_count(entrant=corrected, chips=25_000, reason="Recount.", by=director)
    bought = at(tournament, 1)
    rebuy = payments.take_rebuy(entrant=bought, method="cash", by=director)
    bought.refresh_from_db()
    entry = MoneyMove.objects.get(entrant=waiting, kind=MoveKind.ENTRY)
    for who in (corrected, bought, waiting):
        execute("UPDATE tournaments_entrant SET chips = 1 WHERE id = %s", [who.pk])
    deal = HandRecord.objects.get(hand=playing, kind=HandRecordKind.DEALT)
    dealt = {entry["seat"]: entry["stack"] for entry in deal.record["seats"]}[1]
    assert sorted(verify_audit()) == sorted([
        f"BREAK {ENTRANT} row {corrected.pk}: chips 1 differ from the 25000 its records say"
        f" (chip count {count.pk})",
        f"BREAK {ENTRANT} row {bought.pk}: chips 1 differ from the {bought.chips} its records"
        f" say (hand #{playing.number}'s deal, record {deal.pk} + rebuy line {rebuy.pk})",
        f"BREAK {ENTRANT} row {waiting.pk}: chips 1 differ from the 20000 its records say"
        f" (entry line {entry.pk})",
    ])  # fmt: skip
    assert bought.chips == dealt + 20_000


def test_a_free_entry_with_no_record_holds_the_starting_stack(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=2, first_table=301)
    (first, second) = tournament.entrants.order_by("number")
    execute("UPDATE tournaments_entrant SET chips = 90000 WHERE id = %s", [second.pk])
    assert verify_audit() == [
        f"BREAK {ENTRANT} row {second.pk}: chips 90000 differ from the 20000 its records say"
        " (the starting stack)"
    ]
    assert Entrant.objects.get(pk=first.pk).chips == 20_000


def test_a_seat_given_to_another_entrant_in_the_seating_is_named(
    evening: dict[str, Any],
) -> None:
    tournament, playing = evening["tournament"], evening["playing"]
    sitter = SeatAssignment.objects.get(tournament=tournament, seat=4, ended_at__isnull=True)
    # The seating rewritten so seat 4 was the unseated player's all evening.
    execute(
        "UPDATE tournaments_seatassignment SET entrant_id = %s WHERE id = %s",
        [evening["waiting"].pk, sitter.pk],
    )
    found = verify_audit()
    dealt_to = playing.names["4"]
    assert (
        f"BREAK tournaments_seatassignment row {sitter.pk}: seat 4 of hand #{playing.number} was"
        f" dealt to {dealt_to!r}, the seating has {evening['waiting'].name!r}"
    ) in found


def test_the_check_reads_in_a_fixed_number_of_queries_whatever_the_hands(
    evening: dict[str, Any], director: Any
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert entrant_breaks() == []
        return len(captured.captured_queries)

    before = queries()
    playing = evening["playing"]
    settle(play(playing, director, {}), director)
    table = room(evening["tournament"])
    for _ in range(3):
        settle(play(table_hands.deal_tournament_hand(table=table, by=director), director, {}),
               director)  # fmt: skip
    assert queries() == before == 5
