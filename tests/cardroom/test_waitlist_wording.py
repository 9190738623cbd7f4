"""The waitlist page's words for a refusal: "Someone else
changed this first" only for a race really lost to another device; a refusal the table's state
answers (a must-move for a player dealt into a hand) says "Not now"; a Release tapped on an
offer the timer ran out says it ran out."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_must_move_for_a_player_in_a_hand_is_not_now_not_someone_else(
    persona_client: Any, floor_manager: Any
) -> None:
    """Table 8 must move to the 1/2; Early Bird, longest there, is dealt into the hand being
    played at Table 8. "Move here" is refused because of that hand (nobody else changed
    anything): the page says "Not now" and why, and moves him once the hand is over."""
    from cardroom.seats import hands as cash_hands
    from cardroom.seats import services as players
    from cardroom.seats.models import TableSeat
    from cardroom.tables import services
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists import tables as waitlist_tables
    from tests.factories import make_table

    fm = floor_manager
    main = make_table(number=3, by=fm, seats=9)
    for seat in range(1, 9):
        player = players.find_or_create_player(name=f"Regular {seat}", by=fm)
        players.seat_player(table=main, player=player, seat=seat, buy_in=100, by=fm)
    feeder = make_table(number=8, by=fm, seats=9)
    for seat, name in ((2, "Early Bird"), (4, "Late Owl")):
        player = players.find_or_create_player(name=name, by=fm)
        players.seat_player(table=feeder, player=player, seat=seat, buy_in=80, by=fm)
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=fm
    )
    must_move = waitlist_tables.create_must_move(table=feeder, main=game, by=fm)
    proposal = cash_hands.propose_next_hand(feeder)
    hand = cash_hands.deal_next_hand(table=feeder, by=fm, version=proposal["version"])

    move = reverse("cardroom:must_move_action", args=[must_move.pk, "move"])
    refused = persona_client("staff").post(move, {"table": 3, "seat": 9}, **HTMX)
    assert refused.status_code == 409
    text = refused.content.decode()
    assert "Someone else changed this first" not in text
    assert "Not now: Early Bird is dealt into the hand at Table 8: move them after it." in text
    assert TableSeat.objects.get(player__name="Early Bird", left_at=None).table == feeder

    services.void_hand(hand=hand, by=fm, expected_seq=hand.seq, reason="Misdeal")
    moved = persona_client("staff").post(move, {"table": 3, "seat": 9}, **HTMX)
    assert moved.status_code == 200, moved.content.decode()
    assert "Early Bird moved from Table 8 to Table 3, seat 9." in moved.content.decode()


def test_a_race_lost_on_the_list_still_says_someone_else_changed_it_first(
    persona_client: Any, floor_manager: Any
) -> None:
    """Two devices end the same must-move: the second lost a race, and is told so."""
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists import tables as waitlist_tables
    from tests.factories import make_table

    feeder = make_table(number=8, by=floor_manager, seats=9)
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    must_move = waitlist_tables.create_must_move(table=feeder, main=game, by=floor_manager)
    end = reverse("cardroom:must_move_action", args=[must_move.pk, "end"])
    assert persona_client("staff").post(end, **HTMX).status_code == 200
    late = persona_client("floor_manager").post(end, **HTMX)
    assert late.status_code == 409
    assert "Someone else changed this first: This must-move table has" in late.content.decode()


#: The services behind the waitlist page's buttons: every Conflict they raise reaches it.
WAITLIST_SERVICES = (
    "waitlists/services.py",
    "waitlists/tables.py",
    "waitlists/base.py",
    "seats/services.py",
)


def test_every_conflict_the_waitlists_raise_is_classified() -> None:
    """Each Conflict code the waitlist services raise is either a race lost (another device
    or the offer's timer changed it first) or the table's state refusing it now; none falls
    through to either wording by default, and none is both."""
    from cardroom.waitlists.views import NOT_NOW, RACES

    root = Path(__file__).resolve().parents[2] / "cardroom"
    raised = set()
    for name in WAITLIST_SERVICES:
        raised |= set(re.findall(r'Conflict\(\s*"(\w+)"', (root / name).read_text()))
    assert {"in_hand", "seat_taken", "ended", "entry_changed"} <= raised  # the scan works
    assert raised - (RACES | NOT_NOW) == set()
    assert not RACES & NOT_NOW
    assert "in_hand" in NOT_NOW


def test_release_of_an_offer_that_ran_out_says_it_ran_out(
    persona_client: Any, floor_manager: Any
) -> None:
    """A stale screen still shows Leo's offer with its Release; the timer ran it out
    meanwhile. Nobody else changed it: the tap says the offer ran out."""
    from django.utils import timezone

    from cardroom.waitlists import services as waitlists
    from tests.cardroom.test_waitlist_offers import called_leo

    game, _one, _two, leo = called_leo(floor_manager)
    waitlists.lapse_due(leo.call_expires_at)
    expired = game.events.get(kind="offer_expired").at
    url = reverse("cardroom:waitlist_release", args=[leo.pk])
    late = persona_client("staff").post(url, {"reason": "not here"}, **HTMX)
    assert late.status_code == 409
    text = late.content.decode()
    assert "Someone else" not in text
    at = timezone.localtime(expired).strftime("%H:%M")
    assert f"The offer of Table 1, seat 9 to Leo Ray ran out at {at}" in text
