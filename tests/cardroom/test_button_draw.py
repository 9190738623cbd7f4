"""A table's first button comes from a recorded draw for the button (CR-BB.9), not the lowest
seat: drawn from the table's stored seed, the same on every proposal, shown at the desk with
the cards, kept with the hand and replayed by ``verify_audit``; Correct still moves it."""

from __future__ import annotations

import html as html_lib
import itertools
import random
from io import StringIO
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.seats import services as players
from cardroom.tables import play as table_play
from cardroom.tables.models import Hand, Table
from cardroom.tables.services import engine_state, record_action
from rules.engine.button_draw import draw_for_button, replay_button_draw
from rules.engine.cards import Card
from tests.factories import LOWEST_SEAT_DRAWS_THE_BUTTON, make_table

pytestmark = pytest.mark.django_db


def seat_all(table: Table, by: Any, *names: tuple[int, str]) -> None:
    for number, name in names:
        player = players.find_or_create_player(name=name, by=by)
        players.seat_player(table=table, player=player, seat=number, buy_in=100, by=by)


def seeded(table: Table, seed: str) -> Table:
    Table.objects.filter(pk=table.pk).update(button_seed=seed)
    table.refresh_from_db()
    return table


def a_seed_drawing(seats: list[int], button: int) -> str:
    """A seed whose draw gives ``button`` the high card among ``seats``."""
    return next(
        seed
        for seed in (f"seed-{n}" for n in range(1000))
        if draw_for_button(seats, random.Random(seed)).button == button
    )


def test_each_table_has_a_seed_of_its_own() -> None:
    one, two = make_table(number=1, button_seed=None), make_table(number=2, button_seed=None)
    assert len(one.button_seed) == 64 and one.button_seed != two.button_seed


def test_the_test_tables_seed_draws_the_button_to_the_lowest_seat_playing() -> None:
    for count in range(2, 11):
        for seats in itertools.combinations(range(1, 11), count):
            drawn = draw_for_button(list(seats), random.Random(LOWEST_SEAT_DRAWS_THE_BUTTON))
            assert drawn.button == seats[0]


def test_the_first_hands_button_is_drawn_from_the_tables_seed_not_the_lowest_seat(
    floor_manager: Any,
) -> None:
    table = make_table(number=4)
    seat_all(table, floor_manager, (2, "Ana Ruiz"), (4, "Bo Chen"), (6, "Cy Diaz"))
    seeded(table, a_seed_drawing([2, 4, 6], 6))
    proposal = table_play.propose(table)
    expected = draw_for_button([2, 4, 6], random.Random(table.button_seed))
    assert proposal["button"] == 6 and proposal["blinds"] == {"small": 2, "big": 4}
    assert proposal["button_draw"] == {
        "seats": [2, 4, 6],
        "cards": {str(n): card for n, card in expected.cards.items()},
        "button": 6,
        "citations": ["CR-BB.9", "RRoP-TI.1"],
    }
    assert "seed" not in proposal["button_draw"]  # kept with the hand, once dealt
    assert "CR-BB.9" in proposal["citations"]
    assert table_play.propose(table) == proposal  # every proposal shows the same draw

    hand = table_play.deal(table=table, by=floor_manager, version=proposal["version"])
    assert hand.button == 6
    assert hand.button_draw == {**proposal["button_draw"], "seed": table.button_seed}
    assert replay_button_draw(hand.button_draw)


def test_only_the_first_hand_is_drawn(floor_manager: Any) -> None:
    table = make_table(number=4)
    seat_all(table, floor_manager, (1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"))
    first = table_play.deal(table=table, by=floor_manager)
    while (to_act := engine_state(first).to_act) is not None:
        record_action(
            hand=first, by=floor_manager, expected_seq=first.seq, seat=to_act, action="fold"
        )
        first.refresh_from_db()
    table_play.settle(hand=first, by=floor_manager, expected_seq=first.seq, showdown=None)
    proposal = table_play.propose(table)
    assert proposal["button_draw"] is None and "CR-BB.9" not in proposal["citations"]
    assert table_play.deal(table=table, by=floor_manager).button_draw == {}


def test_the_desk_shows_the_draw_and_correct_still_moves_the_button(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=4, seats=6)
    seat_all(table, floor_manager, (2, "Ana Ruiz"), (4, "Bo Chen"), (6, "Cy Diaz"))
    seeded(table, a_seed_drawing([2, 4, 6], 4))
    drawn = draw_for_button([2, 4, 6], random.Random(table.button_seed))
    client = persona_client("director")
    page = html_lib.unescape(client.get("/tables/4/desk/").content.decode())
    cards = ", ".join(f"seat {n} {Card.parse(c).words}" for n, c in sorted(drawn.cards.items()))
    assert (
        f"Button by draw: seat 4 (Bo Chen), high card {Card.parse(drawn.cards[4]).words} (CR-BB.9;"
        " suits break a tie in rank: spades, hearts, diamonds, clubs, RRoP-TI.1)."
        f" Cards: {cards}. To place it otherwise, deal with Correct and give the reason."
    ) in page
    answer = client.post(
        "/tables/4/desk/next/",
        {"correct": "on", "button": 2, "small": 4, "big": 6, "reason": "Drew cards at the table"},
    )
    assert answer.status_code == 200, answer.content.decode()
    hand = Hand.objects.get(table=table)
    assert hand.button == 2 and hand.correction["reason"] == "Drew cards at the table"
    assert hand.correction["proposed"]["button"] == 4
    assert hand.button_draw["button"] == 4 and replay_button_draw(hand.button_draw)


def test_verify_audit_replays_each_draw_for_the_button(floor_manager: Any) -> None:
    table = make_table(number=4)
    seat_all(table, floor_manager, (1, "Ana Ruiz"), (5, "Bo Chen"))
    hand = table_play.deal(table=table, by=floor_manager)
    call_command("verify_audit", stdout=StringIO(), stderr=StringIO())
    other = next(n for n in (1, 5) if n != hand.button_draw["button"])
    Hand.objects.filter(pk=hand.pk).update(button_draw={**hand.button_draw, "button": other})
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_audit", stdout=StringIO(), stderr=err)
    assert (
        f"BREAK cardroom_hand row {hand.pk}: the draw for the button does not replay from its seed"
        in err.getvalue()
    )


def test_a_tournament_tables_first_hand_is_drawn_unless_the_dealer_reported_the_button(
    director: Any,
) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments import eliminations, table_hands
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import TournamentTable
    from tournaments.table_hands import button_seed

    tournament = make_tournament(by=director, tables=1, entrants=6, seats_per_table=6)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    ttable = TournamentTable.objects.get(tournament=tournament)
    table = ttable.table
    proposal = table_play.propose(table)
    seed = button_seed(table, ttable)
    expected = draw_for_button(list(range(1, 7)), random.Random(seed))
    assert proposal["button"] == expected.button and proposal["first_button"]
    assert proposal["button_draw"]["cards"] == {str(n): c for n, c in expected.cards.items()}
    # The seed is worked out once, for the draw; the hand keeps what was shown and that seed.
    with mock.patch.object(table_hands, "button_seed", wraps=table_hands.button_seed) as seeds:
        hand = table_play.deal(table=table, by=director, version=proposal["version"])
    assert seeds.call_count == 1
    assert hand.button == expected.button
    assert hand.button_draw == {**proposal["button_draw"], "seed": seed} == expected.record(seed)
    assert replay_button_draw(hand.button_draw)

    reported = make_tournament(by=director, tables=1, entrants=6, seats_per_table=6, first_table=50)
    draw_initial_seating(tournament=reported, by=director)
    eliminations.close_registration(tournament=reported, by=director)
    TournamentTable.objects.filter(tournament=reported).update(button=3)
    told = table_play.propose(TournamentTable.objects.get(tournament=reported).table)
    assert told["button"] == 3 and told["button_draw"] is None
