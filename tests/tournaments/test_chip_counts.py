"""Chip counts entered away from the desk: a table's counts, one player's correction, chips
moved to a player or out of play, each on record in the tournament's audit chain; the desk's
next hand deals the counts; nobody holding chips is put out; the chips in play reconcile with
the entries, and the room display's average and chip leaders come from the counts."""

from typing import Any

import pytest
from django.utils import timezone

from cardroom.core import audit
from cardroom.core.api_errors import Conflict
from tests.tournaments.factories import bust, make_tournament
from tests.tournaments.test_table_hands import at, one_table, play, room, settle
from tournaments import chip_counts, eliminations, setup, table_hands
from tournaments.chip_counts import ChipsRefused, correct_count, move_chips, record_table_counts
from tournaments.clock.display import room_state
from tournaments.draws.errors import DrawError
from tournaments.models import ChipChange, ChipCount, Entrant, EntrantStatus, Tournament

pytestmark = pytest.mark.django_db


def numbers_at(tournament: Tournament, table: int = 1) -> list[int]:
    return sorted(
        tournament.assignments.filter(table__number=table, ended_at__isnull=True).values_list(
            "entrant__number", flat=True
        )
    )


def test_a_correction_is_recorded_with_before_after_and_reason_and_the_chain_verifies(
    director: Any,
) -> None:
    tournament = one_table(director)
    ana = at(tournament, 2)
    row = correct_count(
        entrant=ana, chips=18_500, reason="  Dispute at the table:\nrecounted ", by=director
    )
    assert (row.kind, row.chips_before, row.chips_after) == (ChipChange.CORRECTION, 20_000, 18_500)
    assert row.reason == "Dispute at the table: recounted" and row.by == director
    assert row.citations == [{"rule": "TDA-1", "edition": "TDA 2024"}]
    ana.refresh_from_db()
    assert ana.chips == 18_500
    again = correct_count(entrant=ana, chips=19_000, reason="Counted again", by=director)
    assert again.chips_before == 18_500 and again.prev_hash == row.row_hash
    assert audit.verify() == []


@pytest.mark.parametrize(
    ("chips", "reason", "field"),
    [
        (-1, "Recount", "chips"),
        (chip_counts.MAX_CHIPS + 1, "Recount", "chips"),
        (True, "Recount", "chips"),
        ("12", "Recount", "chips"),
        (100, "   ", "reason"),
        (100, "x" * 201, "reason"),
    ],
)
def test_a_bad_count_or_no_reason_is_refused_and_nothing_is_written(
    director: Any, chips: Any, reason: str, field: str
) -> None:
    tournament = one_table(director)
    ana = at(tournament, 2)
    with pytest.raises(ChipsRefused) as caught:
        correct_count(entrant=ana, chips=chips, reason=reason, by=director)
    assert field in caught.value.message_dict
    ana.refresh_from_db()
    assert ana.chips == 20_000 and not ChipCount.objects.exists()


def test_an_eliminated_player_and_a_finished_tournament_keep_their_counts(director: Any) -> None:
    tournament = one_table(director, players=2)
    first, second = tournament.entrants.order_by("number")
    bust(entrant=first, by=director)
    with pytest.raises(DrawError) as out:
        correct_count(entrant=first, chips=5, reason="Found chips", by=director)
    assert out.value.code == "complete"  # the heads-up bust finished it
    with pytest.raises(DrawError):
        move_chips(from_entrant=second, to_entrant=None, chips=1, reason="x", by=director)


def test_a_tables_counts_are_all_written_or_none(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=12, seats_per_table=6)
    setup_draw(tournament, director)
    here, there = numbers_at(tournament, 1), numbers_at(tournament, 2)
    counts = {n: 20_000 + i * 100 for i, n in enumerate(here)}
    # One player left out, or one from the other table: refused, nothing written.
    for wrong in ({k: v for k, v in counts.items() if k != here[0]}, {**counts, there[0]: 5}):
        with pytest.raises(ChipsRefused) as caught:
            record_table_counts(
                tournament=tournament, table_number=1, counts=wrong, reason="Break", by=director
            )
        assert "counted whole" in caught.value.messages[0]
    with pytest.raises(ChipsRefused):
        record_table_counts(
            tournament=tournament, table_number=1, counts={**counts, here[1]: -4},
            reason="Break", by=director,
        )  # fmt: skip
    assert not ChipCount.objects.exists()
    rows = record_table_counts(
        tournament=tournament, table_number=1, counts=counts, reason="First break", by=director
    )
    assert len(rows) == len(here) and {r.kind for r in rows} == {ChipChange.COUNT}
    assert {r.table_number for r in rows} == {1}
    assert dict(tournament.entrants.filter(number__in=here).values_list("number", "chips")) == (
        counts
    )
    with pytest.raises(DrawError) as missing:
        record_table_counts(
            tournament=tournament, table_number=9, counts=counts, reason="x", by=director
        )
    assert missing.value.code == "no_table"


def setup_draw(tournament: Tournament, director: Any) -> None:
    from tournaments.draw_services import draw_initial_seating

    draw_initial_seating(tournament=tournament, by=director)
    tournament.refresh_from_db()


def test_a_count_of_zero_is_taken_but_puts_nobody_out(director: Any) -> None:
    tournament = one_table(director)
    ana = at(tournament, 3)
    row = correct_count(entrant=ana, chips=0, reason="Had no chips left", by=director)
    assert chip_counts.broke([row]) == [ana]
    ana.refresh_from_db()
    assert ana.status == EntrantStatus.SEATED and ana.chips == 0
    # The desk deals nobody with no chips: the director puts the player out first.
    with pytest.raises(table_hands.CannotDeal, match="has no chips: put the player out"):
        table_hands.propose_tournament_hand(room(tournament))
    eliminations.eliminate_player(entrant=ana, by=director)


def test_chips_move_to_another_player_in_two_rows_or_out_of_play_in_one(director: Any) -> None:
    tournament = one_table(director)
    ana, bo = at(tournament, 1), at(tournament, 2)
    given, taken = move_chips(
        from_entrant=ana, to_entrant=bo, chips=5_000, reason="Hidden chips (RRoP-TR.18)",
        by=director,
    )  # fmt: skip
    assert (given.kind, given.other, given.chips_after) == (ChipChange.TRANSFER_OUT, bo, 15_000)
    assert (taken.kind, taken.other, taken.chips_after) == (ChipChange.TRANSFER_IN, ana, 25_000)
    assert given.transfer == taken.transfer == 1
    assert given.citations[0]["rule"] == "RRoP-TR.18"
    (out,) = move_chips(
        from_entrant=ana, to_entrant=None, chips=15_000, reason="Counted out", by=director
    )
    assert (out.kind, out.chips_after, out.other) == (ChipChange.OUT_OF_PLAY, 0, None)
    refused = [(ana, bo, 1), (bo, bo, 1), (bo, ana, 0)]  # none left; to oneself; nothing
    for giver, to, chips in refused:
        with pytest.raises(ChipsRefused):
            move_chips(from_entrant=giver, to_entrant=to, chips=chips, reason="x", by=director)
    with pytest.raises(ChipsRefused, match="at most that moves"):
        move_chips(from_entrant=bo, to_entrant=None, chips=25_001, reason="x", by=director)
    assert audit.verify() == []


def test_eliminating_a_player_holding_chips_is_refused_until_they_are_moved(
    director: Any,
) -> None:
    tournament = one_table(director)
    ana, bo = at(tournament, 1), at(tournament, 2)
    with pytest.raises(eliminations.ChipsLeft) as caught:
        eliminations.eliminate_player(entrant=ana, by=director)
    assert caught.value.code == "chips_left" and caught.value.citations == ("RRoP-TR.18",)
    assert "still has 20,000 chips: give them to a player or take them out of play" in str(
        caught.value
    )
    move_chips(from_entrant=ana, to_entrant=bo, chips=20_000, reason="Lost the pot", by=director)
    eliminations.eliminate_player(entrant=ana, by=director)
    ana.refresh_from_db()
    assert ana.status == EntrantStatus.ELIMINATED
    assert chip_counts.reconcile(tournament).balanced


def test_the_desks_next_proposal_deals_the_corrected_count_and_an_older_one_is_refused(
    director: Any,
) -> None:
    tournament = one_table(director, button=1)
    table = room(tournament)
    before = table_hands.propose_tournament_hand(table)
    correct_count(entrant=at(tournament, 4), chips=31_200, reason="Recount", by=director)
    after = table_hands.propose_tournament_hand(table)
    assert {s["seat"]: s["stack"] for s in after["seats"]}[4] == 31_200
    assert after["version"] != before["version"]
    with pytest.raises(Conflict) as stale:
        table_hands.deal_tournament_hand(table=table, by=director, version=before["version"])
    assert stale.value.code == "seat_map_changed"
    hand = table_hands.deal_tournament_hand(table=table, by=director, version=after["version"])
    assert {s["seat"]: s["stack"] for s in hand.seats}[4] == 31_200


def test_counts_wait_for_the_hand_being_played_at_the_table(director: Any) -> None:
    tournament = one_table(director, button=1)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    player = at(tournament, 4)
    with pytest.raises(DrawError) as caught:
        correct_count(entrant=player, chips=1, reason="Recount", by=director)
    assert caught.value.code == "in_hand"
    assert "correct the count once its pots are pushed" in caught.value.message
    counts = {e.number: e.chips for e in tournament.entrants.all()}
    with pytest.raises(DrawError, match="count the table once"):
        record_table_counts(
            tournament=tournament, table_number=1, counts=counts, reason="Break", by=director
        )
    with pytest.raises(DrawError):
        move_chips(from_entrant=player, to_entrant=None, chips=1, reason="x", by=director)
    # During the hand the pots' chips are still in the counts: nothing is missing.
    assert chip_counts.reconcile(tournament).balanced
    settle(play(hand, director, {}), director)
    assert chip_counts.reconcile(tournament).balanced
    correct_count(entrant=player, chips=1, reason="Recount", by=director)


def test_the_chips_reconcile_with_entries_and_re_entries_and_show_a_difference(
    director: Any,
) -> None:
    tournament = one_table(director)
    check = chip_counts.reconcile(tournament)
    assert (check.expected, check.in_play, check.difference) == (120_000, 120_000, 0)
    assert check.bought == (("6 entries × 20,000", 120_000),)
    correct_count(entrant=at(tournament, 1), chips=21_000, reason="Miscounted", by=director)
    check = chip_counts.reconcile(tournament)
    assert (check.difference, check.corrected, check.missing) == (1_000, 1_000, 0)
    assert [row.kind for row in check.recent] == [ChipChange.CORRECTION]
    move_chips(from_entrant=at(tournament, 1), to_entrant=None, chips=1_000,
               reason="Extra chip found", by=director)  # fmt: skip
    check = chip_counts.reconcile(tournament)
    assert (check.in_play, check.out_of_play, check.difference) == (120_000, 1_000, 1_000)
    # A player put out with chips before they had to be moved: those chips are missing.
    Entrant.objects.filter(pk=at(tournament, 2).pk).update(status=EntrantStatus.ELIMINATED)
    assert chip_counts.reconcile(tournament).missing == 19_000
    # A re-entry brings a fresh starting stack, and what it must add up to grows with it.
    tournament2 = make_tournament(
        by=director, tables=1, entrants=3, seats_per_table=6, first_table=301
    )
    setup_draw(tournament2, director)
    first = tournament2.entrants.get(number=1)
    bust(entrant=first, by=director)
    setup.register_entrant(tournament=tournament2, name="", reentry_of=first, by=director)
    check = chip_counts.reconcile(tournament2)
    assert check.expected == 4 * 20_000 and check.in_play == 3 * 20_000 and check.missing == 20_000


def test_the_room_display_average_and_chip_leaders_come_from_the_counts(director: Any) -> None:
    tournament = one_table(director)
    # The player in seat 3 (the draw is random: whoever it is, they are neither busted nor
    # counted again here) shows by their alias among the leaders.
    three = at(tournament, 3).player
    three.alias = "Triple"
    three.save()
    correct_count(entrant=at(tournament, 1), chips=50_000, reason="Recount", by=director)
    move_chips(from_entrant=at(tournament, 2), to_entrant=None, chips=20_000, reason="Counted out",
               by=director)  # fmt: skip
    bust(entrant=at(tournament, 2), by=director)
    state = room_state(tournament, list(tournament.levels.all()), timezone.now())
    assert state["players_left"] == 5
    assert state["average_stack"] == (50_000 + 4 * 20_000) // 5
    leaders = state["chip_leaders"]
    assert len(leaders) == 5 and leaders[0]["chips"] == 50_000
    names = [row["name"] for row in leaders]
    assert "Triple" in names and not any(name.startswith("Player") for name in names)
