"""A seat offered to a called player is not given away at
the desk while the offer runs; the floor releases the offer first (recorded, the player keeps
their place for the next seat and the next player in the room is offered another), and a seat
taken anyway ends its offer at once."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables.models import Table
from cardroom.waitlists import models as waitlist_models
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.models import GameList, WaitlistEntry
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def nlhe(fm: Any) -> GameList:
    return waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=fm
    )


def seat(table: Table, fm: Any, name: str, number: int) -> TableSeat:
    player = players.find_or_create_player(name=name, by=fm)
    return players.seat_player(table=table, player=player, seat=number, buy_in=100, by=fm)


def called_leo(fm: Any) -> tuple[GameList, Table, Table, WaitlistEntry]:
    """Table 1 full but seat 9, Table 2 with seat 1 open; Leo Ray called to Table 1 seat 9."""
    one = make_table(number=1, by=fm, seats=9)
    two = make_table(number=2, by=fm, seats=2)
    for number in range(1, 9):
        seat(one, fm, f"Seated {number}", number)
    seat(two, fm, "Seated 2-2", 2)
    game = nlhe(fm)
    leo = waitlists.add_to_list(game_list=game, name="Leo Ray", by=fm)
    waitlists.call_player(entry=leo, table=one, seat=9, by=fm)
    leo.refresh_from_db()
    return game, one, two, leo


def test_the_desk_cannot_give_away_a_seat_under_a_live_offer(floor_manager: Any) -> None:
    _game, one, _two, leo = called_leo(floor_manager)
    quentin = players.find_or_create_player(name="Quentin Blake", by=floor_manager)
    clock = "%H:%M"
    called = timezone.localtime(leo.called_at).strftime(clock)
    until = timezone.localtime(leo.call_expires_at).strftime(clock)
    with pytest.raises(Conflict) as refused:
        players.seat_player(table=one, player=quentin, seat=9, buy_in=100, by=floor_manager)
    assert refused.value.code == "seat_offered"
    assert refused.value.message == (
        f"Seat 9 at Table 1 is offered to Leo Ray (called {called}, until {until}):"
        " seat them from the list, or release the offer first."
    )
    assert not TableSeat.objects.filter(player=quentin).exists()
    # The called player himself may be seated at the desk: his entry is then seated.
    leo_player = leo.player
    players.seat_player(table=one, player=leo_player, seat=9, buy_in=100, by=floor_manager)
    waitlists.lapse_due()
    leo.refresh_from_db()
    assert leo.status == "seated" and leo.seat is not None and leo.seat.seat == 9


def test_releasing_an_offer_keeps_the_place_and_offers_the_next_seat(floor_manager: Any) -> None:
    game, one, two, leo = called_leo(floor_manager)
    kim = waitlists.add_to_list(game_list=game, name="Kim Ong", by=floor_manager)
    waitlists.release_offer(entry=leo, by=floor_manager, reason="Quentin was here first")
    event = game.events.filter(kind="passed").get()
    assert (event.table_number, event.seat, event.by) == (1, 9, floor_manager)
    assert "released by the floor: Quentin was here first" in event.note
    leo.refresh_from_db()
    kim.refresh_from_db()
    # Leo keeps his place (no missed call) for the next seat; Kim is offered Table 2 seat 1.
    assert (leo.status, leo.passes, leo.called_table_id) == ("waiting", 0, None)
    assert (kim.status, kim.called_table_id, kim.called_seat) == ("called", two.pk, 1)
    assert [e.player.name for e in waitlists.live_entries(game)] == ["Leo Ray", "Kim Ong"]
    quentin = players.find_or_create_player(name="Quentin Blake", by=floor_manager)
    players.seat_player(table=one, player=quentin, seat=9, buy_in=100, by=floor_manager)
    with pytest.raises(Conflict, match="no seat offer"):
        waitlists.release_offer(entry=leo, by=floor_manager)


def test_a_released_player_is_not_called_again_in_the_same_breath(floor_manager: Any) -> None:
    """Hannah, first on the list, is called to Table 1 seat 8 and does
    not answer; the floor releases the offer. The automatic call goes to Ian (next in the
    room), to the other open seat, not back to Hannah; she keeps her place for the next seat.
    Later, when an offer of seat 8 runs out, its re-call skips her too (released from it)."""
    one = make_table(number=1, by=floor_manager, seats=9)
    for number in range(1, 8):
        seat(one, floor_manager, f"Seated {number}", number)
    game = nlhe(floor_manager)
    hannah, ian, jo = (
        waitlists.add_to_list(game_list=game, name=name, by=floor_manager)
        for name in ("Hannah Hill", "Ian Ito", "Jo Jones")
    )
    waitlists.call_player(entry=hannah, table=one, seat=8, by=floor_manager)
    waitlists.release_offer(entry=hannah, by=floor_manager, reason="not answering")
    hannah.refresh_from_db()
    ian.refresh_from_db()
    assert (hannah.status, hannah.passes, hannah.called_table_id) == ("waiting", 0, None)
    assert (ian.status, ian.called_table_id, ian.called_seat) == ("called", one.pk, 9)
    assert waitlists.live_entries(game)[0].player.name == "Hannah Hill"
    # The floor calls Jo to seat 8 by hand (Hannah asked to wait); Jo's offer runs out: the
    # seat is re-offered to nobody who was released from it or missed it.
    waitlists.reorder(entry=jo, position=1, reason="Hannah waits for Table 2", by=floor_manager)
    waitlists.call_player(entry=jo, table=one, seat=8, by=floor_manager)
    jo.refresh_from_db()
    waitlists.lapse_due(jo.call_expires_at)
    hannah.refresh_from_db()
    assert hannah.status == "waiting", "re-offered the seat she was released from"


def test_a_seat_taken_anyway_ends_its_offer_at_once(floor_manager: Any) -> None:
    """An offer that ran out but whose timer has not been run yet no longer holds the seat;
    once the seat is taken, the next read of the lists ends the offer (not its timer), the
    player keeps their place and is offered the next open seat."""
    game, one, two, leo = called_leo(floor_manager)
    WaitlistEntry.objects.filter(pk=leo.pk).update(call_expires_at=timezone.now())
    seat(one, floor_manager, "Quentin Blake", 9)  # no live offer: allowed
    WaitlistEntry.objects.filter(pk=leo.pk).update(
        call_expires_at=timezone.now() + timedelta(minutes=3)
    )  # as if the seat had been taken while the offer ran (a must-move, a race)
    assert waitlists.lapse_due() == 1
    leo.refresh_from_db()
    assert (leo.status, leo.passes, leo.called_table_id, leo.called_seat) == (
        "called", 0, two.pk, 1,
    )  # fmt: skip
    assert "taken by Quentin Blake" in game.events.get(kind="passed").note
    assert [e.player.name for e in waitlists.live_entries(game)] == ["Leo Ray"]


def test_the_api_refuses_an_offered_seat_and_releases_the_offer(
    api_client_for: Any, floor_manager: Any
) -> None:
    _game, one, _two, leo = called_leo(floor_manager)
    client = api_client_for("staff")
    desk = api_client_for("floor_manager")
    quentin = {"name": "Quentin Blake", "seat": 9, "buy_in": 100}
    taken = desk.post(f"/api/v1/tables/{one.pk}/seats/", quentin, format="json")
    assert taken.status_code == 409, taken.json()
    error = taken.json()["error"]
    assert error["code"] == "seat_offered" and "offered to Leo Ray" in error["message"]
    released = client.delete(f"/api/v1/waitlist-entries/{leo.pk}/call/?reason=Desk+seat")
    assert released.status_code == 200, released.json()
    # Leo keeps his place for the next seat (not called again at once).
    assert released.json()["status"] == "waiting" and released.json()["called_table"] is None
    assert desk.post(f"/api/v1/tables/{one.pk}/seats/", quentin, format="json").status_code == 201
    gone = client.delete(f"/api/v1/waitlist-entries/{leo.pk}/call/")
    assert gone.status_code == 409 and gone.json()["error"]["code"] == "entry_changed"


LIMIT = {
    "structure": "fixed_limit",
    "small_blind": 2,
    "big_blind": 4,
    "small_bet": 4,
    "raise_cap": 3,
}


def test_a_limit_game_is_named_by_its_bets_everywhere(floor_manager: Any) -> None:
    """Table 5 plays 4/8 limit (blinds 2/4): the floor card, the list, the kiosk's
    choices and the board all say 4/8."""
    from cardroom.screens import board

    table = make_table(number=5, by=floor_manager, big_bet=8, min_buy_in=40, **LIMIT)
    assert table.game_label == "4/8 Limit Hold'em"
    from cardroom.waitlists.forms import table_games

    assert [game["label"] for game in table_games()] == ["LHE 4/8"]
    game = waitlists.open_list(
        variant="holdem", structure="fixed_limit", small_blind=2, big_blind=4, by=floor_manager
    )
    assert game.label == "LHE 4/8" and game.bets() == (4, 8)
    assert (
        waitlist_models.game_label("stud", "fixed_limit", 2, 5, bets=(5, 10)) == "Limit Stud 5/10"
    )
    assert waitlist_models.game_label("holdem", "no_limit", 1, 2) == "NLHE 1/2"
    waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    (listed,) = board.open_lists(timezone.now())
    assert listed["stakes"] == "4/8" and listed["game_name"] == "Limit Hold'em"


def test_the_start_proposal_says_who_is_playing_elsewhere(floor_manager: Any) -> None:
    """9 wait for 2/5; Gina Rossi and Jack Lee play at Table 1: 7 of the 9 can be seated
    now, said before the tap; an open empty table of the game is preferred to a closed one."""
    one = make_table(number=1, by=floor_manager, seats=9)
    seat(one, floor_manager, "Gina Rossi", 3)
    seat(one, floor_manager, "Jack Lee", 5)
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=2, big_blind=5, by=floor_manager
    )
    for name in ("Ana", "Gina Rossi", "Bo", "Cy", "Jack Lee", "Di", "Ed", "Flo", "Hal"):
        waitlists.add_to_list(game_list=game, name=name, by=floor_manager)
    five = {"small_blind": 2, "big_blind": 5, "max_buy_in": 500}
    make_table(number=6, by=floor_manager, status="closed", seats=9, **five)
    three = make_table(number=3, by=floor_manager, seats=9, **five)
    proposal = waitlist_tables.start_table_proposal(game)
    assert proposal["ready"] and proposal["table"] == three
    assert proposal["message"] == (
        "9 waiting: start NLHE 2/5 at Table 3 (open, empty). 7 of the 9 can be seated now:"
        " Gina Rossi and Jack Lee are playing at Table 1."
    )
    assert [s["player"] for s in proposal["skipped"]] == ["Gina Rossi", "Jack Lee"]
    assert len(proposal["players"]) == 7
    waitlist_tables.start_game(game_list=game, table=three, by=floor_manager)
    assert TableSeat.objects.filter(table=three, left_at=None).count() == 7
    assert [e.player.name for e in waitlists.live_entries(game)] == ["Gina Rossi", "Jack Lee"]


def test_list_rows_say_where_a_player_plays_and_when_they_missed_a_call(
    api_client_for: Any, floor_manager: Any
) -> None:
    """The rows' data carry "playing at Table 1 seat 3" and the time an offer
    to them last ran out."""
    game, _one, _two, leo = called_leo(floor_manager)
    gina = waitlists.add_to_list(game_list=game, name="Seated 3", by=floor_manager)
    facts = waitlist_models.entry_facts([leo, gina])
    assert facts[gina.pk]["playing_at"] == "Table 1 seat 3"
    assert facts[leo.pk] == {"playing_at": None, "last_missed_at": None}
    waitlists.lapse_due(leo.call_expires_at)
    expired = game.events.get(kind="offer_expired")
    assert waitlist_models.entry_facts([leo])[leo.pk]["last_missed_at"] == expired.at
    body = api_client_for("staff").get(f"/api/v1/waitlists/{game.pk}/").json()
    rows = {row["name"]: row for row in body["entries"]}
    assert rows["Seated 3"]["playing_at"] == "Table 1 seat 3"
    assert rows["Leo Ray"]["last_missed_at"] is not None and rows["Leo Ray"]["status"] == "waiting"


def test_refused_kiosk_page_posts_do_not_lock_the_kiosk(floor_manager: Any) -> None:
    """On the page, posts refused with a form error (no game picked) do not count toward
    the names' limit; they have their own, higher cap."""
    from django.conf import settings
    from django.test import Client, override_settings

    game = nlhe(floor_manager)
    rates = {**settings.CARDROOM_THROTTLE_RATES, "kiosk": "2/min", "kiosk_refused": "4/min"}
    with override_settings(CARDROOM_THROTTLE_RATES=rates):
        kiosk = Client()
        for _ in range(4):
            assert kiosk.post("/kiosk/", {"name": "Ivy Fumble"}).status_code == 422
        ivy = kiosk.post("/kiosk/", {"name": "Ivy Fumble", "lists": [game.pk]})
        assert ivy.status_code == 429  # four refusals a minute: a script is stopped
    rates["kiosk_refused"] = "10/min"
    with override_settings(CARDROOM_THROTTLE_RATES=rates):
        ivy = kiosk.post("/kiosk/", {"name": "Ivy Fumble", "lists": [game.pk]})
        assert ivy.status_code == 200 and "You're on the list" in ivy.content.decode()
        jo = kiosk.post("/kiosk/", {"name": "Jo Neat", "lists": [game.pk]})
        assert jo.status_code == 200
        over = kiosk.post("/kiosk/", {"name": "Kai Late", "lists": [game.pk]})
        assert over.status_code == 429 and int(over["Retry-After"]) > 0


def test_the_list_page_says_playing_elsewhere_and_missed_call(
    persona_client: Any, floor_manager: Any
) -> None:
    """The floor's page says "playing at Table 1 seat 3", "missed call 16:59"."""
    game, _one, _two, leo = called_leo(floor_manager)
    waitlists.add_to_list(game_list=game, name="Seated 3", by=floor_manager)
    waitlists.lapse_due(leo.call_expires_at)
    missed = game.events.get(kind="offer_expired").at
    html = persona_client("staff").get("/floor/waitlists/").content.decode()
    assert "playing at Table 1 seat 3" in html
    assert f"missed call {timezone.localtime(missed).strftime('%H:%M')}" in html


def test_an_expired_offer_goes_down_the_list_never_back_to_who_missed_that_seat(
    floor_manager: Any,
) -> None:
    """Leo misses Table 1 seat 9, Kim is called to it; Kim misses too: the seat goes to
    Ann (third), not back to Leo; when Ann misses as well nobody is left who has not missed
    that seat, so it waits for the floor. The players who missed keep their place."""
    game, _one, _two, leo = called_leo(floor_manager)
    kim = waitlists.add_to_list(game_list=game, name="Kim Ong", by=floor_manager)
    ann = waitlists.add_to_list(game_list=game, name="Ann Lee", by=floor_manager)

    def expire_current() -> None:
        called = game.entries.get(status="called")
        waitlists.lapse_due(called.call_expires_at)

    expire_current()  # Leo missed: Kim called to the same seat
    kim.refresh_from_db()
    assert (kim.status, kim.called_seat) == ("called", 9)
    expire_current()  # Kim missed: Ann, not Leo
    leo.refresh_from_db()
    ann.refresh_from_db()
    assert (leo.status, leo.passes) == ("waiting", 1)
    assert (ann.status, ann.called_seat) == ("called", 9)
    expire_current()  # Ann missed: everyone in the room missed this seat, it waits
    assert not game.entries.filter(status="called").exists()
    assert [e.player.name for e in waitlists.live_entries(game)] == [
        "Leo Ray", "Kim Ong", "Ann Lee",
    ]  # fmt: skip
    assert game.events.filter(kind="offer_expired").count() == 3


def test_a_player_already_at_the_table_is_never_called_to_its_open_seat(
    floor_manager: Any, client: Any
) -> None:
    """Liam, on the 1/2 list, was seated at Table 3 from the desk. The list must not show
    "Next: Liam" for Table 3's open seat (Call next would hold the seat 3 minutes for him,
    then Seat be refused: "use a seat change"). That seat goes to Mia, next in the
    room; Liam is next for another table's seat; a call of Liam to Table 3 says why not."""
    three = make_table(number=3, by=floor_manager, seats=9)
    four = make_table(number=4, by=floor_manager, seats=9)
    for number in range(3, 10):
        seat(three, floor_manager, f"Seated 3-{number}", number)
        seat(four, floor_manager, f"Seated 4-{number}", number)
    seat(four, floor_manager, "Seated 4-1", 1)
    game = nlhe(floor_manager)
    liam = waitlists.add_to_list(game_list=game, name="Liam Five", by=floor_manager)
    mia = waitlists.add_to_list(game_list=game, name="Mia Six", by=floor_manager)
    seat(three, floor_manager, "Liam Five", 2)  # at the desk, not from the list
    assert waitlists.next_for_seat(game, three, 1) == mia
    assert waitlists.next_for_seat(game, four, 2) == liam
    with pytest.raises(waitlists.WaitlistRefused, match="already plays at Table 3"):
        waitlists.call_player(entry=liam, table=three, seat=1, by=floor_manager)
    client.force_login(floor_manager)
    page = client.get("/floor/waitlists/").content.decode()
    row = page[page.index("Table 3</strong>, seat 1") :]
    assert "Next: Mia Six" in row[: row.index("</li>")]
    row = page[page.index("Table 4</strong>, seat 2") :]
    assert "Next: Liam Five" in row[: row.index("</li>")]


def test_a_released_seat_is_shown_to_the_next_player_but_may_still_go_back(
    floor_manager: Any,
) -> None:
    """Released from seat 8, Hannah is not "Next" for it while Ian waits (else one tap calls
    her straight back); with nobody else waiting the floor may still call her."""
    one = make_table(number=1, by=floor_manager, seats=8)
    for number in range(1, 8):
        seat(one, floor_manager, f"Seated {number}", number)
    game = nlhe(floor_manager)
    hannah = waitlists.add_to_list(game_list=game, name="Hannah Hill", by=floor_manager)
    ian = waitlists.add_to_list(game_list=game, name="Ian Ito", by=floor_manager)
    waitlists.call_player(entry=hannah, table=one, seat=8, by=floor_manager)
    waitlists.release_offer(entry=hannah, by=floor_manager, reason="not answering")
    assert waitlists.next_for_seat(game, one, 8) == ian
    with pytest.raises(waitlists.WaitlistRefused, match="Ian Ito is first"):
        waitlists.call_player(entry=hannah, table=one, seat=8, by=floor_manager)
    waitlists.remove_entry(entry=ian, reason="went home", by=floor_manager)
    assert waitlists.next_for_seat(game, one, 8) == hannah
    assert waitlists.next_for_seat(game, one, 8, automatic=True) is None
    waitlists.call_player(entry=hannah, table=one, seat=8, by=floor_manager)
