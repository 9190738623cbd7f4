"""Reading the lists writes nothing: the floor's page and its poll, the waitlist API's reads
and the public kiosk's list show an offer whose time has passed as ran out, and a call-in past
its deadline as off the list, as of the moment they are read. Moving them on (the offer's
expiry recorded, the next player called) is the timers' sweep (``cardroom.lapse_waitlists``,
every few seconds) and the writes that decide on the list (a call, a seat, a release), under
their locks."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.screens import board
from cardroom.seats.models import Player
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tasks
from cardroom.waitlists.models import EntrySource, WaitlistEntry, WaitlistEvent
from tests.cardroom.test_waitlist_offers import called_leo

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def ran_out_now(fm: Any) -> dict[str, Any]:
    """Leo Ray's offer of Table 1, seat 9 has run out and Mo Next is next on the list; Cy
    Late's call-in deadline has passed. Nothing has swept the timers yet."""
    game, one, _two, leo = called_leo(fm)
    mo = waitlists.add_to_list(game_list=game, name="Mo Next", by=fm)
    cy = waitlists.add_to_list(game_list=game, name="Cy Late", source=EntrySource.CALL_IN, by=fm)
    past = timezone.now() - timedelta(seconds=1)
    WaitlistEntry.objects.filter(pk=leo.pk).update(call_expires_at=past)
    WaitlistEntry.objects.filter(pk=cy.pk).update(check_in_by=past)
    return {"game": game, "table": one, "leo": leo, "mo": mo, "cy": cy}


def writes_or_locks(sql: str) -> bool:
    """A statement that writes, or takes row locks (PostgreSQL's ``FOR UPDATE``), other than
    the signed-in persona's session."""
    statement = sql.lstrip().upper()
    writes = statement.startswith(("INSERT", "UPDATE", "DELETE", "SAVEPOINT"))
    return (writes or statement.endswith("FOR UPDATE")) and "DJANGO_SESSION" not in statement


def reads(game: Any) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        ("staff", "/floor/waitlists/", {}),
        ("staff", "/floor/waitlists/?v=0", HTMX),
        ("staff", "/api/v1/waitlists/", {}),
        ("staff", f"/api/v1/waitlists/{game.pk}/", {}),
        ("staff", f"/api/v1/waitlists/{game.pk}/entries/", {}),
        ("anonymous", "/api/v1/kiosk/entries/", {}),
    ]


def test_the_lists_reads_write_nothing_and_lock_nothing(
    persona_client: Any, floor_manager: Any
) -> None:
    world = ran_out_now(floor_manager)
    events = WaitlistEvent.objects.count()
    for persona, url, headers in reads(world["game"]):
        client = persona_client(persona)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        writes = [q["sql"] for q in queries if writes_or_locks(q["sql"])]
        assert writes == [], url
    assert WaitlistEvent.objects.count() == events
    statuses = dict(WaitlistEntry.objects.values_list("player__name", "status"))
    assert statuses == {"Leo Ray": "called", "Mo Next": "waiting", "Cy Late": "waiting"}


def test_an_offer_past_its_time_reads_as_ran_out_and_a_late_call_in_as_off_the_list(
    persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    world = ran_out_now(floor_manager)
    game, leo = world["game"], world["leo"]
    page = persona_client("staff").get("/floor/waitlists/").content.decode()
    assert "Leo Ray called · <strong>ran out</strong>" in page
    assert "left to take the seat" not in page  # no countdown on an offer that ran out

    api = api_client_for("staff")
    listed = api.get(f"/api/v1/waitlists/{game.pk}/").json()
    assert listed["waiting"] == 2  # Leo (keeps his place after a first miss) and Mo
    entries = {
        e["name"]: e for e in api.get(f"/api/v1/waitlists/{game.pk}/entries/").json()["results"]
    }
    assert entries["Leo Ray"]["offer_ran_out"] is True
    assert entries["Mo Next"]["offer_ran_out"] is False
    kiosk = persona_client("anonymous").get("/api/v1/kiosk/entries/").json()
    assert [(k["id"], k["waiting"]) for k in kiosk] == [(game.pk, 2)]
    assert WaitlistEntry.objects.get(pk=leo.pk).status == "called"  # as stored: not swept


def test_a_last_offer_run_out_is_off_the_list_for_every_read_before_the_sweep(
    persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    """Leo's offer was his second: once it has run out he is off the list (the sweep will
    record it), for the API's count, the kiosk's and the public board's alike."""
    world = ran_out_now(floor_manager)
    game = world["game"]
    WaitlistEntry.objects.filter(pk=world["leo"].pk).update(passes=1)
    listed = api_client_for("staff").get(f"/api/v1/waitlists/{game.pk}/").json()
    assert listed["waiting"] == 1  # Mo
    kiosk = persona_client("anonymous").get("/api/v1/kiosk/entries/").json()
    assert [(k["id"], k["waiting"]) for k in kiosk] == [(game.pk, 1)]
    [shown] = board.open_lists(timezone.now())
    assert (shown["count"], shown["names"]) == (1, [Player.objects.get(name="Mo Next").public_name])


def test_the_sweep_moves_the_offer_on_and_the_page_says_so(
    persona_client: Any, floor_manager: Any
) -> None:
    world = ran_out_now(floor_manager)
    staff = persona_client("staff")
    version = staff.get("/floor/waitlists/?v=0", **HTMX).content.decode()
    assert tasks.lapse_waitlists() == 2  # Leo's offer and Cy's call-in
    world["mo"].refresh_from_db()
    assert (world["mo"].status, world["mo"].called_seat) == ("called", 9)
    html = staff.get("/floor/waitlists/?v=0", **HTMX).content.decode()
    assert html != version
    assert "Offer to Leo Ray ran out: Mo Next called to Table 1, seat 9." in html


def test_a_seat_from_the_list_after_an_offer_ran_out_moves_it_on_first(
    floor_manager: Any,
) -> None:
    """Nobody has swept the timers: seating Mo Next in the seat Leo's offer held moves Leo's
    offer on first (recorded; Mo is the one the timer calls) and then seats Mo."""
    world = ran_out_now(floor_manager)
    game, mo = world["game"], world["mo"]
    seated = waitlists.seat_from_list(
        entry=mo, table=world["table"], seat=9, buy_in=100, by=floor_manager
    )
    assert seated.status == "seated"
    kinds = list(game.events.order_by("id").values_list("kind", "player__name"))
    assert kinds[-4:] == [
        ("offer_expired", "Leo Ray"),
        ("called", "Mo Next"),
        ("lapsed", "Cy Late"),
        ("seated", "Mo Next"),
    ]


def test_a_release_tapped_after_the_offer_ran_out_before_the_sweep_says_it_ran_out(
    persona_client: Any, floor_manager: Any
) -> None:
    """The tap refused still records what ran out (it is not undone with the refusal), and
    says so rather than "someone else changed this"."""
    world = ran_out_now(floor_manager)
    leo = world["leo"]
    url = f"/floor/waitlists/entries/{leo.pk}/release/"
    late = persona_client("staff").post(url, {"reason": "not here"}, **HTMX)
    assert late.status_code == 409
    text = late.content.decode()
    assert "Someone else" not in text
    assert "The offer of Table 1, seat 9 to Leo Ray ran out at " in text
    assert world["game"].events.filter(kind="offer_expired", entry=leo).exists()
    world["mo"].refresh_from_db()
    assert (world["mo"].status, world["mo"].called_seat) == ("called", 9)
