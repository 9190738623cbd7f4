"""The waitlist page and the kiosk on a busy evening: an offer that ran out
says so, the floor releases an offer from the page, a player seated elsewhere moves with their
chips, an action's answer carries everything its swaps target, and the kiosk says nothing about
anybody else."""

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.waitlists import services as waitlists
from tests.cardroom.test_waitlist_offers import called_leo, seat

pytestmark = pytest.mark.django_db

PAGE = "/floor/waitlists/"
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_tap_on_an_offer_that_ran_out_says_it_ran_out(
    persona_client: Any, floor_manager: Any
) -> None:
    """Leo's offer runs out while a stale screen still shows it; the seat goes to the next
    player. The tap on Leo's "Seat" says the offer ran out, not that someone else was faster."""
    game, _one, _two, leo = called_leo(floor_manager)
    waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    waitlists.lapse_due(leo.call_expires_at)
    expired = game.events.get(kind="offer_expired").at
    answer = persona_client("staff").post(
        reverse("cardroom:waitlist_seat", args=[leo.pk]), {"table": 1, "seat": 9}, **HTMX
    )
    assert answer.status_code == 409
    text = answer.content.decode()
    assert "Someone else" not in text
    at = timezone.localtime(expired).strftime("%H:%M")
    assert f"The offer of Table 1, seat 9 to Leo Ray ran out at {at}" in text
    assert "offered to Mo Next" in text


def test_the_floor_releases_a_running_offer_from_the_page(
    persona_client: Any, floor_manager: Any
) -> None:
    """ "Release" next to a running offer: staff and floor managers (a director reads only);
    the reason is optional and recorded; Leo keeps his place; a second tap is a 409."""
    from cardroom.waitlists.models import WaitlistEntry

    game, one, two, leo = called_leo(floor_manager)
    seat(two, floor_manager, "Seated 2-1", 1)  # no other seat to offer him meanwhile
    url = reverse("cardroom:waitlist_release", args=[leo.pk])
    staff_page = persona_client("staff").get(PAGE).content.decode()
    assert f'hx-post="{url}"' in staff_page and "Release" in staff_page
    assert f'hx-post="{url}"' not in persona_client("director").get(PAGE).content.decode()
    assert persona_client("director").post(url, {}, **HTMX).status_code == 403
    assert WaitlistEntry.objects.get(pk=leo.pk).status == "called"
    answer = persona_client("staff").post(url, {"reason": "Gave it to a regular"}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    assert "Offer of Table 1, seat 9 to Leo Ray released: they keep their place." in (
        answer.content.decode()
    )
    leo.refresh_from_db()
    assert leo.status == "waiting" and leo.passes == 0
    event = game.events.filter(kind="passed").latest("id")
    assert "released by the floor: Gave it to a regular" in event.note
    again = persona_client("floor_manager").post(url, {}, **HTMX)
    assert again.status_code == 409 and "has no seat offer running" in again.content.decode()
    # Without a reason, from a floor manager.
    waitlists.call_player(entry=leo, table=one, seat=9, by=floor_manager)
    assert persona_client("floor_manager").post(url, {}, **HTMX).status_code == 200


def test_the_release_message_says_who_the_seat_goes_to(
    persona_client: Any, floor_manager: Any
) -> None:
    """Leo is released; the next player in the room (Kim), not Leo again, is called to the
    other open seat, and the message says so."""
    game, _one, _two, leo = called_leo(floor_manager)
    waitlists.add_to_list(game_list=game, name="Kim Ong", by=floor_manager)
    url = reverse("cardroom:waitlist_release", args=[leo.pk])
    answer = persona_client("staff").post(url, {"reason": "not answering"}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    assert (
        "Offer of Table 1, seat 9 to Leo Ray released: they keep their place for the next seat."
        " Table 2, seat 1 offered to Kim Ong."
    ) in answer.content.decode()


def playing_small_waiting_big(fm: Any) -> dict[str, Any]:
    """Ana Ruiz plays at Table 1 (NLHE 1/2) seat 3 with 1,250 and waits for NLHE 2/5, whose
    Table 5 (buy-in 2,000 to 5,000) has seat 4 open; Bo Li plays at Table 1 too."""
    from cardroom.seats import services as players
    from tests.factories import make_table

    one = make_table(number=1, by=fm, seats=9, min_buy_in=40, max_buy_in=2000)
    five = make_table(
        number=5, by=fm, seats=6, small_blind=2, big_blind=5, min_buy_in=2000, max_buy_in=5000
    )
    for number in (1, 2, 3, 5, 6):
        player = players.find_or_create_player(name=f"Big {number}", by=fm)
        players.seat_player(table=five, player=player, seat=number, buy_in=2000, by=fm)
    ana = players.find_or_create_player(name="Ana Ruiz", by=fm)
    players.seat_player(table=one, player=ana, seat=3, buy_in=1250, by=fm)
    seat(one, fm, "Bo Li", 4)
    big = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=2, big_blind=5, by=fm
    )
    entry = waitlists.add_to_list(game_list=big, name="Ana Ruiz", by=fm)
    return {"one": one, "five": five, "big": big, "entry": entry}


def test_a_player_seated_elsewhere_moves_with_their_chips(floor_manager: Any) -> None:
    """The brush calls Ana from her 1/2 game to the 2/5: she brings her 1,250 and adds what
    the 2/5's minimum needs; not while she is dealt into a hand at Table 1."""
    from cardroom.core.api_errors import Conflict
    from cardroom.seats import hands as cash_hands
    from cardroom.seats import services as players
    from cardroom.seats.models import SeatEvent, TableSeat
    from cardroom.tables import services

    fm = floor_manager
    room = playing_small_waiting_big(fm)
    one, five, entry = room["one"], room["five"], room["entry"]
    assert waitlists.next_eligible(room["big"]) == entry  # "Next", as on the page
    with pytest.raises(players.SeatRefused, match="add at least 750 to reach") as short:
        waitlists.seat_from_list(entry=entry, table=five, seat=4, buy_in=0, by=fm)
    assert "Ana Ruiz has 1,250 at Table 1" in str(short.value)
    with pytest.raises(players.SeatRefused, match="Add at most 3,750"):
        waitlists.seat_from_list(entry=entry, table=five, seat=4, buy_in=4000, by=fm)
    proposal = cash_hands.propose_next_hand(one)
    hand = cash_hands.deal_next_hand(table=one, by=fm, version=proposal["version"])
    with pytest.raises(Conflict, match="dealt into the hand at Table 1: move them after it"):
        waitlists.seat_from_list(entry=entry, table=five, seat=4, buy_in=750, by=fm)
    entry.refresh_from_db()
    assert entry.status == "waiting"
    assert one.seated.get(seat=3, left_at=None).player.name == "Ana Ruiz"
    services.void_hand(hand=hand, by=fm, expected_seq=hand.seq, reason="Misdeal")
    waitlists.seat_from_list(entry=entry, table=five, seat=4, buy_in=750, by=fm)
    entry.refresh_from_db()
    assert entry.status == "seated" and entry.seat is not None
    assert (entry.seat.table_id, entry.seat.seat, entry.seat.stack) == (five.pk, 4, 2000)
    assert not TableSeat.objects.filter(table=one, seat=3, left_at=None).exists()
    moves = SeatEvent.objects.filter(player=entry.player).order_by("id")
    assert [(e.table.number, e.kind, e.amount, e.stack) for e in moves][-3:] == [
        (1, "moved_out", -1250, 0),
        (5, "moved_in", 1250, 1250),
        (5, "added", 750, 2000),
    ]
    seated = room["big"].events.get(kind="seated")
    assert (seated.table_number, seated.seat) == (5, 4)
    assert seated.note == "Moved from Table 1 seat 3 with 1,250, added 750"


def test_the_seat_form_says_what_a_player_seated_elsewhere_brings(
    persona_client: Any, floor_manager: Any
) -> None:
    from cardroom.seats.models import TableSeat

    room = playing_small_waiting_big(floor_manager)
    page = persona_client("staff").get(PAGE).content.decode()
    assert "Moves with 1,250 from Table 1" in page
    assert "playing at Table 1 seat 3" in page  # the badge stays
    url = reverse("cardroom:waitlist_seat", args=[room["entry"].pk])
    short = persona_client("staff").post(url, {"table": 5, "seat": 4, "buy_in": 0}, **HTMX)
    assert short.status_code == 422
    assert "add at least 750" in short.content.decode()
    moved = persona_client("staff").post(url, {"table": 5, "seat": 4, "buy_in": 750}, **HTMX)
    assert moved.status_code == 200, moved.content.decode()
    assert "Ana Ruiz moved from Table 1 seat 3 to Table 5, seat 4" in moved.content.decode()
    live = TableSeat.objects.get(table=room["five"], seat=4, left_at=None)
    assert (live.player.name, live.stack) == ("Ana Ruiz", 2000)


def test_every_answer_carries_what_its_swaps_target_and_never_crosses_the_poll(
    persona_client: Any, floor_manager: Any
) -> None:
    """An action's answer replaces #waitlists and, out of band, the poller (with the version
    read before the lists it carries: the next poll answers 204) and the add form's games; the
    poll's answer the same the other way round. And every form on the page posts in the
    poller's sync queue (hx-sync), so a poll and an action never cross."""
    import re

    game, _one, _two, leo = called_leo(floor_manager)
    client = persona_client("staff")
    page = client.get(PAGE).content.decode()
    body = page.split('hx-sync="#waitlist-poller:drop"', 1)
    assert len(body) == 2, "the forms' sync with the poller is missing"
    before, after = body[0], body[1].split('id="waitlist-poller"', 1)[0]
    assert "hx-post=" not in before.split("<main", 1)[-1] and after.count("hx-post=") >= 5

    def parts(answer: Any) -> dict[str, str]:
        text = answer.content.decode()
        found = dict(re.findall(r'<\w+ id="(waitlists|waitlist-poller|add-choices)"([^>]*)>', text))
        version = re.search(r'data-version="([^"]+)"', text)
        poller = re.search(r'hx-get="/floor/waitlists/\?v=([^"]+)"', text)
        assert version and poller and version.group(1) == poller.group(1)
        found["version"] = version.group(1)
        return found

    url = reverse("cardroom:waitlist_release", args=[leo.pk])
    released = parts(client.post(url, {}, **HTMX))
    assert set(released) == {"waitlists", "waitlist-poller", "add-choices", "version"}
    assert "hx-swap-oob" not in released["waitlists"]
    assert "hx-swap-oob" in released["waitlist-poller"]
    assert "hx-swap-oob" in released["add-choices"]
    assert client.get(PAGE, {"v": released["version"]}, **HTMX).status_code == 204
    waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    polled = parts(client.get(PAGE, {"v": released["version"]}, **HTMX))
    assert "hx-swap-oob" not in polled["waitlist-poller"]
    assert "hx-swap-oob" in polled["waitlists"] and "hx-swap-oob" in polled["add-choices"]
    added = client.post(
        reverse("cardroom:waitlist_add"), {"name": "Ny Lo", "lists": [game.pk]}, **HTMX
    )
    assert 'id="add-form"' in added.content.decode()
    assert {"waitlists", "waitlist-poller"} <= set(parts(added))


def kiosk_done(text: str) -> str:
    """The kiosk's answer, from its heading to the end of the page, without the token."""
    import re

    done = text.split('<main id="main"', 1)[1]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", done)


def test_the_kiosk_says_nothing_about_whether_a_name_is_already_down(
    floor_manager: Any,
) -> None:
    """Someone at the podium types a name that is on the list (added by the floor, alias
    "Ace", first): the kiosk answers exactly as it does for a name nobody has heard of: no
    alias, no place, no "already"; and it neither adds the name twice nor renames the
    player's alias."""
    from django.test import Client

    from cardroom.seats.models import Player
    from cardroom.waitlists.models import WaitlistEntry

    game, _one, _two, _leo = called_leo(floor_manager)
    waitlists.add_to_list(game_list=game, name="Ana Ruiz", alias="Ace", by=floor_manager)
    probe = Client().post("/kiosk/", {"name": "ana  ruiz", "alias": "Spy", "lists": [game.pk]})
    fresh = Client().post("/kiosk/", {"name": "Zed Quinn", "alias": "Spy", "lists": [game.pk]})
    assert probe.status_code == fresh.status_code == 200
    probed, new = kiosk_done(probe.content.decode()), kiosk_done(fresh.content.decode())
    assert probed == new
    for secret in ("Ace", "Ana", "ana", "already", "number", "Leo"):
        assert secret not in probed
    assert "You're on the list, Spy" in probed and "NLHE 1/2" in probed
    ana = Player.objects.get(name="Ana Ruiz")
    assert ana.alias == "Ace"
    assert WaitlistEntry.objects.filter(player=ana, status="waiting").count() == 1


def test_the_kiosk_api_says_nothing_about_whether_a_name_is_already_down(
    floor_manager: Any,
) -> None:
    from rest_framework.test import APIClient

    game, _one, _two, _leo = called_leo(floor_manager)
    waitlists.add_to_list(game_list=game, name="Ana Ruiz", alias="Ace", by=floor_manager)
    kiosk = "/api/v1/kiosk/entries/"
    probe = APIClient().post(kiosk, {"name": "Ana Ruiz", "lists": [game.pk]}, format="json")
    fresh = APIClient().post(kiosk, {"name": "Zed Quinn", "lists": [game.pk]}, format="json")
    assert probe.status_code == fresh.status_code == 201
    assert probe.json() == {"public_name": "A.R.", "lists": [{"list": "NLHE 1/2"}]}
    assert fresh.json() == {"public_name": "Z.Q.", "lists": [{"list": "NLHE 1/2"}]}


def test_a_player_called_from_two_lists_is_flagged_on_both_rows(
    persona_client: Any, floor_manager: Any
) -> None:
    """Hannah is called to Table 2 seat 1 (NLHE 1/2) and Table 3 seat 2 (NLHE 2/5): holding
    both at once must not go unsaid. She may wait on both lists, so the second call is allowed, but
    the call says so and each of her rows names the other seat."""
    from tests.factories import make_table

    fm = floor_manager
    two = make_table(number=2, by=fm, seats=9)
    three = make_table(number=3, by=fm, seats=9, small_blind=2, big_blind=5, min_buy_in=100)
    seat(three, fm, "Seated 3-1", 1)
    small = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=fm
    )
    big = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=2, big_blind=5, by=fm
    )
    first = waitlists.add_to_list(game_list=small, name="Hannah Hill", by=fm)
    second = waitlists.add_to_list(game_list=big, name="Hannah Hill", by=fm)
    waitlists.call_player(entry=first, table=two, seat=1, by=fm)
    url = reverse("cardroom:waitlist_call", args=[second.pk])
    answer = persona_client("staff").post(url, {"table": 3, "seat": 2}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    text = answer.content.decode()
    assert (
        "Hannah Hill called to Table 3, seat 2: 3 minutes to take it."
        " Also called to Table 2 seat 1."
    ) in text
    alone = waitlists.add_to_list(game_list=small, name="Ian Ito", by=fm)
    page = persona_client("staff").get(PAGE).content.decode()
    for row, other in ((first, "Table 3 seat 2"), (second, "Table 2 seat 1")):
        html = page.split(f'id="entry-{row.pk}"', 1)[1].split("</li>", 1)[0]
        assert f"also called to {other}" in html
    assert "also called" not in page.split(f'id="entry-{alone.pk}"', 1)[1].split("</li>")[0]
