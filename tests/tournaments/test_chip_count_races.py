"""Chip counts racing, on PostgreSQL with real threads: two devices correcting one count at
once, a correction against the desk's settle of a hand the player is in, and a correction
against a deal made from a proposal read before it. The tournament row's lock (taken first by
the counts as by the desk) serves them one after the other; without it the second correction
reads the count the first is changing."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from cardroom.core import audit
from tests.races import in_threads, racing, unlocked
from tests.tournaments.test_table_hands import at, one_table, play, room
from tournaments import chip_counts, seating, table_hands
from tournaments.models import ChipCount, Entrant, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def two_corrections(director: Any, lock: Callable[[int], Tournament]) -> tuple[list[str], Entrant]:
    """Two devices correct one player's count at once; without the lock both have read the
    count before either writes (``racing``: the threads meet just after the lock)."""
    tournament = one_table(director)
    player = at(tournament, 3)

    def correct(chips: int) -> Callable[[], str]:
        def job() -> str:
            row = chip_counts.correct_count(
                entrant=player, chips=chips, reason=f"Recounted: {chips}", by=director
            )
            return f"{row.chips_before}->{row.chips_after}"

        return job

    with mock.patch.object(chip_counts, "lock_tournament", racing(lock)):
        outcomes = in_threads(correct(18_000), correct(21_000))
    player.refresh_from_db()
    return outcomes, player


def test_without_the_lock_two_corrections_read_the_same_count_or_fork_the_log(
    director: Any,
) -> None:
    """Both read 20,000: the second either records a count before that is no longer true or,
    writing on the same head of the audit chain, is refused by the database."""
    outcomes, _ = two_corrections(director, unlocked)
    assert outcomes in (
        ["20000->18000", "20000->21000"],
        ["20000->18000", "refused"],
        ["20000->21000", "refused"],
    )
    assert audit.verify() == []


def test_two_corrections_at_once_are_both_recorded_in_order_and_the_later_one_stands(
    director: Any,
) -> None:
    outcomes, player = two_corrections(director, seating.lock_tournament)
    assert outcomes in (
        ["18000->21000", "20000->18000"],  # 18,000 first, then 21,000
        ["20000->21000", "21000->18000"],  # 21,000 first, then 18,000
    )
    first, second = ChipCount.objects.filter(entrant=player).order_by("id")
    assert second.chips_before == first.chips_after  # the second read the first's count
    assert player.chips == second.chips_after  # the later one stands
    assert second.prev_hash == first.row_hash and audit.verify() == []


def test_a_correction_racing_the_desks_settle_waits_for_the_pots_or_is_refused(
    director: Any,
) -> None:
    """The big blind is in a hand being settled (everyone folds to them: 20,000 + the small
    blind's 100). Either the settle goes first and the correction then reads the count the
    award wrote, or the correction goes first and is refused (the player is in a hand not
    pushed yet); never a correction the award then overwrites."""
    tournament = one_table(director, button=1)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    hand = play(hand, director, {})  # everyone folds to the big blind
    assert hand.blinds is not None
    player = at(tournament, hand.blinds["big"])

    def settle() -> str:
        table_hands.settle_tournament_hand(
            hand=hand, by=director, expected_seq=hand.seq, showdown=None
        )
        return "settled"

    def correct() -> str:
        row = chip_counts.correct_count(entrant=player, chips=19_750, reason="Dispute", by=director)
        return f"corrected from {row.chips_before}"

    outcomes = in_threads(settle, correct)
    player.refresh_from_db()
    assert outcomes in (["in_hand", "settled"], ["corrected from 20100", "settled"])
    if outcomes[0] == "in_hand":
        assert player.chips == 20_100 and not ChipCount.objects.exists()
    else:
        assert player.chips == 19_750 and ChipCount.objects.get().chips_before == 20_100
    assert audit.verify() == []


def test_a_correction_racing_a_deal_from_an_older_proposal_one_wins(director: Any) -> None:
    """The dealer read the proposal before the correction. Either the deal goes first and the
    correction is refused (the player is in the hand), or the correction goes first and the
    deal is refused (the proposal's stacks changed): exactly one is written."""
    tournament = one_table(director, button=1)
    table = room(tournament)
    proposal = table_hands.propose_tournament_hand(table)
    player = at(tournament, 4)

    def deal() -> str:
        table_hands.deal_tournament_hand(table=table, by=director, version=proposal["version"])
        return "dealt"

    def correct() -> str:
        chip_counts.correct_count(entrant=player, chips=25_000, reason="Recount", by=director)
        return "corrected"

    outcomes = in_threads(deal, correct)
    assert outcomes in (["dealt", "in_hand"], ["corrected", "seat_map_changed"])
    player.refresh_from_db()
    if outcomes == ["dealt", "in_hand"]:
        assert player.chips == 20_000 and not ChipCount.objects.exists()
    else:
        assert player.chips == 25_000
        fresh = table_hands.propose_tournament_hand(table)
        assert {s["seat"]: s["stack"] for s in fresh["seats"]}[4] == 25_000
    assert audit.verify() == []
