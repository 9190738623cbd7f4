"""Provably fair draws: secure seeds, a commitment before the deal, a replay that catches any
tampering, and seat frequencies that pass a chi-square test over many fixed seeds."""

import hashlib
import io
from collections import Counter
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import models

from tests.tournaments.factories import make_tournament
from tournaments import draw_services
from tournaments.draws.seat_draws import break_table, initial_seating
from tournaments.draws.seats import SeatRef
from tournaments.draws.seeds import SeededRandom, canonical_json, commitment_for, new_seed
from tournaments.models import Draw, DrawKind, Tournament

# Chi-square critical values at p = 0.001 by degrees of freedom: a fair draw fails 1 in 1,000.
CHI2_999 = {5: 20.515, 11: 31.264}


def chi_square(counts: Counter[Any], cells: list[Any]) -> float:
    expected = sum(counts.values()) / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def tamper(draw: Draw, **fields: Any) -> None:
    """Rewrite a stored draw behind the application's back (the append-only guards, the
    model's and the database's, bypassed)."""
    from cardroom.core.audit import maintenance

    with maintenance():
        models.QuerySet(model=Draw).filter(pk=draw.pk).update(**fields)


# --- seeds and commitments (no database) ------------------------------------------------------


def test_seeds_are_256_random_bits_never_repeated() -> None:
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) == 200 and all(len(seed) == 64 for seed in seeds)
    assert all(int(seed, 16) >= 0 for seed in seeds)


def test_the_commitment_binds_the_seed_and_the_inputs() -> None:
    inputs = {"kind": "open_seats", "input": {"entrants": [1, 2]}}
    commitment = commitment_for("ab" * 32, inputs)
    expected = hashlib.sha256(f"{'ab' * 32}\n{canonical_json(inputs)}".encode())
    assert commitment == expected.hexdigest()
    assert commitment_for("ab" * 32, {**inputs, "input": {"entrants": [2, 1]}}) != commitment
    assert commitment_for("cd" * 32, inputs) != commitment
    reordered = {"input": {"entrants": [1, 2]}, "kind": "open_seats"}
    assert commitment_for("ab" * 32, reordered) == commitment  # key order is not content


def test_every_seat_is_equally_likely_in_the_initial_draw() -> None:
    """9 players on two 6-seat tables, 2,400 fixed seeds: player 1's seat is uniform."""
    tables = {1: range(1, 7), 2: range(1, 7)}
    cells = [(t, s) for t in tables for s in tables[t]]
    counts: Counter[tuple[int, int]] = Counter()
    for i in range(2400):
        dealt = initial_seating(list(range(1, 10)), tables, SeededRandom(f"chi-{i}"))
        seat = dealt.seating[1]
        counts[(seat.table, seat.seat)] += 1
    assert chi_square(counts, cells) < CHI2_999[11]


def test_every_seat_card_is_equally_likely_for_every_player_at_a_break() -> None:
    """Six players, six seat cards, 1,800 fixed seeds: each player's seat is uniform."""
    seats = [SeatRef(t, s) for t in (1, 2) for s in (2, 5, 8)]
    counts: dict[int, Counter[SeatRef]] = {p: Counter() for p in range(6)}
    for i in range(1800):
        dealt = break_table(list(range(6)), seats, SeededRandom(f"break-{i}"))
        for player, seat in dealt.seating.items():
            counts[int(player)][seat] += 1
    for player in range(6):
        assert chi_square(counts[player], seats) < CHI2_999[5], player


# --- verification of stored draws ------------------------------------------------------------


@pytest.fixture
def drawn(director: Any) -> Tournament:
    tournament = make_tournament(by=director, tables=3, entrants=15)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    draw_services.break_table(table=tournament.tables.get(number=3), by=director)
    return tournament


@pytest.mark.django_db
def test_a_recorded_draw_verifies(drawn: Tournament) -> None:
    for draw in drawn.draws.all():
        verification = draw_services.verify_draw(draw)
        assert verification.ok and verification.commitment_matches and verification.replay_matches


@pytest.mark.django_db
def test_an_edited_seat_in_the_result_is_caught(drawn: Tournament) -> None:
    draw = drawn.draws.get(kind=DrawKind.BREAK_TABLE)
    result = draw.result
    first, second = result["result"][0], result["result"][1]
    first["seat"], second["seat"] = second["seat"], first["seat"]
    first["table"], second["table"] = second["table"], first["table"]
    tamper(draw, result=result)
    verification = draw_services.verify_draw(Draw.objects.get(pk=draw.pk))
    assert not verification.ok and verification.commitment_matches
    assert not verification.replay_matches
    assert "different result" in verification.problems[0]


@pytest.mark.django_db
def test_a_swapped_seed_or_edited_inputs_break_the_commitment(drawn: Tournament) -> None:
    draw = drawn.draws.get(kind=DrawKind.INITIAL)
    tamper(draw, seed=new_seed())
    assert not draw_services.verify_draw(Draw.objects.get(pk=draw.pk)).commitment_matches
    tamper(draw, seed=draw.seed)
    inputs = draw.inputs
    inputs["input"]["entrants"] = inputs["input"]["entrants"][:-1]
    tamper(draw, inputs=inputs)
    verification = draw_services.verify_draw(Draw.objects.get(pk=draw.pk))
    assert not verification.ok and not verification.commitment_matches


@pytest.mark.django_db
def test_an_unrevealed_draw_does_not_verify(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=4)
    draw = draw_services.commit_draw(tournament=tournament, kind=DrawKind.INITIAL, by=director)
    verification = draw_services.verify_draw(draw)
    assert not verification.ok and "not been revealed" in verification.problems[0]


@pytest.mark.django_db
def test_the_verify_command_passes_clean_draws_and_fails_a_tampered_one(drawn: Tournament) -> None:
    out = io.StringIO()
    call_command("verify_draw", drawn.pk, stdout=out)
    assert "2 draws verified" in out.getvalue() and "draw 1 (initial): OK" in out.getvalue()
    draw = drawn.draws.get(number=2)
    tamper(draw, result={**draw.result, "result": list(reversed(draw.result["result"]))})
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 draw"):
        call_command("verify_draw", drawn.pk, "2", stdout=out)
    assert "draw 2 (break_table): FAILED" in out.getvalue()
    with pytest.raises(CommandError, match="No draw 9"):
        call_command("verify_draw", drawn.pk, "9")


@pytest.mark.django_db
def test_the_verify_endpoint_and_page_report_tampering(
    drawn: Tournament, api_client_for: Any, persona_client: Any
) -> None:
    url = f"/api/v1/tournaments/{drawn.pk}/draws/2/verify/"
    assert api_client_for("staff").get(url).json()["ok"] is True
    draw = drawn.draws.get(number=2)
    tamper(draw, seed="0" * 64)
    body = api_client_for("staff").get(url).json()
    assert body["ok"] is False and body["commitment_matches"] is False
    page = persona_client("staff").get(f"/tournaments/{drawn.pk}/draws/2/verify/")
    assert b"Verification failed" in page.content
