"""An offer that runs out calls the next player by itself (the
floor did not notice): the page's poll carries the latest offers that ran out, each with who
the timer called in its place, for static/js/waitlists.js to say, light up and chime
(tests/browser/test_waitlist_page.py sees it happen)."""

import re
from typing import Any

import pytest
from django.test.utils import CaptureQueriesContext

from cardroom.waitlists import services as waitlists
from tests.cardroom.test_waitlist_offers import called_leo

pytestmark = pytest.mark.django_db

POLL = "/floor/waitlists/?v=0"
HTMX = {"HTTP_HX_REQUEST": "true"}


def ran_out(html: str) -> list[tuple[str, str, str]]:
    """The lists' offers that ran out: (event id, called entry id, words), newest first."""
    block = re.search(r'<ul id="offers-ran-out" hidden>(.*?)</ul>', html, re.S)
    assert block is not None
    found = r'<li data-event="(\d+)" data-entry="(\d*)">([^<]*)</li>'
    return re.findall(found, block.group(1))


def test_the_poll_after_an_offer_ran_out_says_who_the_timer_called(
    persona_client: Any, floor_manager: Any
) -> None:
    game, _one, _two, leo = called_leo(floor_manager)
    mo = waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    staff = persona_client("staff")
    assert ran_out(staff.get(POLL, **HTMX).content.decode()) == []

    waitlists.lapse_due(leo.call_expires_at)
    html = staff.get(POLL, **HTMX).content.decode()
    expired = game.events.get(kind="offer_expired")
    said = "Offer to Leo Ray ran out: Mo Next called to Table 1, seat 9."
    assert ran_out(html) == [(str(expired.pk), str(mo.pk), said)]
    assert f'data-called="{mo.pk}"' in html  # the open seat's row, for the highlight
    assert f'id="entry-{mo.pk}"' in html


def test_a_second_miss_and_nobody_left_to_call_are_said_too(
    persona_client: Any, floor_manager: Any
) -> None:
    """Leo's second missed offer takes him off the list (its PASSED comes between the expiry
    and the call); Mo's offer then runs out with nobody else waiting."""
    from cardroom.waitlists.models import WaitlistEntry

    game, _one, _two, leo = called_leo(floor_manager)
    mo = waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    WaitlistEntry.objects.filter(pk=leo.pk).update(passes=1)
    waitlists.lapse_due(leo.call_expires_at)
    assert game.events.filter(kind="passed", entry=leo).exists()
    mo.refresh_from_db()
    waitlists.lapse_due(mo.call_expires_at)
    html = persona_client("staff").get(POLL, **HTMX).content.decode()
    words = [(entry, text) for _id, entry, text in ran_out(html)]
    assert words == [
        ("", "Offer to Mo Next ran out: Table 1, seat 9: nobody to call."),
        (str(mo.pk), "Offer to Leo Ray ran out: Mo Next called to Table 1, seat 9."),
    ]


def test_saying_the_offers_that_ran_out_costs_the_same_queries_for_one_or_many(
    persona_client: Any, floor_manager: Any
) -> None:
    from django.db import connection

    from cardroom.waitlists import views as waitlist_views
    from cardroom.waitlists.models import WaitlistEntry

    game, _one, _two, leo = called_leo(floor_manager)
    waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    waitlists.lapse_due(leo.call_expires_at)
    with CaptureQueriesContext(connection) as one:
        assert len(waitlist_views.offers_ran_out(leo.call_expires_at)) == 1
    for n in range(8):
        waitlists.add_to_list(game_list=game, name=f"Late {n}", by=floor_manager)
        first = WaitlistEntry.objects.filter(status="called").get()
        waitlists.lapse_due(first.call_expires_at)
    with CaptureQueriesContext(connection) as many:
        shown = waitlist_views.offers_ran_out(first.call_expires_at)
    assert len(shown) == waitlist_views.RAN_OUT_SHOWN
    assert len(many) == len(one) == 2
