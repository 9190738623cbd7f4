"""The floor dashboard: every table as a card, a constant number of queries, live updates."""

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.core.changes import OVERLAP, Change
from cardroom.rulings.models import Ruling
from cardroom.screens.floor import poll
from cardroom.tables.models import Hand, Table
from cardroom.tables.services import (
    engine_state,
    record_action,
    set_table_status,
    void_hand,
    void_last_action,
)
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


def queries_for(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def floor_with(n: int, floor_manager: Any) -> None:
    existing = Table.objects.count()
    for number in range(existing + 1, n + 1):
        table = make_table(number=number, by=floor_manager)
        if number % 3 == 0:
            make_hand(table=table, by=floor_manager)


def card_of(html: str, number: int) -> str:
    return html.split(f'id="card-{number}"')[1].split("</article>")[0]


def cursor_of(html: str) -> str:
    found = re.search(r'id="poller"[^>]*? hx-get="[^"]*v=([0-9]+\.[0-9]+\.[0-9a-f]{12})"', html)
    assert found, "the page has no poller with a cursor"
    return found.group(1)


def age_everything(minutes: int = 5) -> None:
    """Make every stamp old, so only what the test changes next counts as a change."""
    from cardroom.core import audit
    from tournaments.models import SeatAssignment, Tournament

    past = timezone.now() - timedelta(minutes=minutes)
    Table.objects.update(updated_at=past)
    Hand.objects.update(updated_at=past)
    SeatAssignment.objects.update(started_at=past)
    SeatAssignment.objects.filter(ended_at__isnull=False).update(ended_at=past)
    Tournament.objects.update(updated_at=past)
    Change.objects.update(at=past)  # the feed's changes: before the test's cursor
    # Clock events are an append-only audit log: emptied only in its deliberate exception.
    with audit.maintenance(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_clockevent")


def test_query_count_does_not_grow_with_the_number_of_tables(
    persona_client: Any, floor_manager: Any
) -> None:
    client = persona_client("staff")
    floor_with(10, floor_manager)
    ten = queries_for(client, "/floor/")
    ten_poll = queries_for(client, "/floor/updates/?v=1.abcdefabcdef")  # a stale page: the grid
    floor_with(100, floor_manager)
    hundred = queries_for(client, "/floor/")
    hundred_poll = queries_for(client, "/floor/updates/?v=1.abcdefabcdef")
    assert ten == hundred
    assert ten_poll == hundred_poll
    age_everything()
    html = client.get("/floor/").content.decode()
    assert html.count('class="card table-card') == 100
    # A quiet poll from an up-to-date page reads the stamps and renders nothing.
    quiet = client.get(f"/floor/updates/?v={cursor_of(html)}").content.decode()
    assert quiet.count("table-card") == 0


def test_cards_show_the_hand_in_progress(persona_client: Any, floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="raise", to=6)
    html = persona_client("staff").get("/floor/").content.decode()
    assert "Hand #1: <strong>preflop</strong>, pot <strong>9</strong>" in html


def test_a_cards_pot_is_grouped_as_the_desk_shows_it(
    persona_client: Any, floor_manager: Any
) -> None:
    hand = make_hand(by=floor_manager, stacks={1: 5000, 2: 5000, 3: 5000})
    record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="raise", to=1200)
    html = persona_client("staff").get("/floor/").content.decode()
    assert "pot <strong>1,203</strong>" in html


def test_filters(persona_client: Any, floor_manager: Any) -> None:
    make_table(number=1, by=floor_manager)
    make_table(number=2, by=floor_manager, kind="tournament")
    html = (
        persona_client("staff")
        .get("/floor/?tournament=yes", HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert 'id="card-2"' in html and 'id="card-1"' not in html
    # The filtered grid comes with a new poller that carries the filter (and no old cursor).
    poller = html.split('id="poller"')[1].split(">")[0]
    assert "tournament=yes" in poller and 'hx-swap-oob="true"' in poller


def test_updates_send_only_what_changed_and_replace_the_cursor(
    persona_client: Any, floor_manager: Any
) -> None:
    make_table(number=1, by=floor_manager)
    two = make_table(number=2, by=floor_manager)
    client = persona_client("staff")
    age_everything()
    cursor = cursor_of(client.get("/floor/").content.decode())
    set_table_status(table=two, by=floor_manager, status="closed")
    html = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert 'id="card-2"' in html and "Closed" in card_of(html, 2)
    assert 'id="card-1"' not in html and 'id="floor-cards"' not in html
    new = cursor_of(html)
    assert len(new) == len(cursor) and new != cursor
    assert "since=" not in html and html.count("v=") == 1  # replaced, never appended


@pytest.mark.parametrize("bad", ["", "garbage", "1.zz", "99999999999999999999.abcdefabcdef"])
def test_an_unreadable_or_stale_cursor_gets_the_whole_grid(
    persona_client: Any, floor_manager: Any, bad: str
) -> None:
    make_table(number=1, by=floor_manager)
    response = persona_client("staff").get("/floor/updates/", {"v": bad})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="floor-cards" class="cards" hx-swap-oob="true"' in html
    assert 'id="card-1"' in html


def test_every_change_a_floor_person_cares_about_reaches_the_card(
    floor_manager: Any, director: Any
) -> None:
    """Deal, action, street, pot, hand end, voids, open/close, ruling, seat change, level change
    (by hand and on time): each makes the next poll send that card, and only it."""
    from django.core.management import call_command

    from cardroom.rulings.services import log_ruling
    from cardroom.tables.services import start_hand
    from tests.tournaments.factories import bust, make_tournament
    from tournaments.clock.services import advance_level
    from tournaments.draw_services import draw_initial_seating

    call_command("load_rulebook", verbosity=0)
    cash = make_table(number=1, by=floor_manager)
    make_table(number=2, by=floor_manager)  # never changes: never sent
    tournament = make_tournament(by=director, tables=2, entrants=12, first_table=41)
    draw_initial_seating(tournament=tournament, by=director)

    def changes(change: Any, number: int, *, also: tuple[int, ...] = ()) -> None:
        age_everything()
        cursor = poll({}, "").cursor
        versions = {card.table.number: card.version for card in poll({}, "").grid or []}
        change()
        update = poll({}, cursor)
        assert update.grid is None
        sent = {card.table.number: card.version for card in update.changed}
        # The card changed; a tournament-wide write may resend its other tables, no more.
        assert number in sent and set(sent) <= {number, *also}, f"{change.__name__}: {sent}"
        assert sent[number] != versions[number], "the page would skip the new card"

    hand = make_hand(table=cash, by=floor_manager)
    changes(lambda: void_hand(hand=hand, by=floor_manager, expected_seq=0, reason="Misdeal"), 1)
    state: dict[str, Any] = {}

    def deal() -> None:
        seats = [{"seat": s, "stack": 200} for s in (1, 2, 3)]
        state["hand"] = start_hand(table=cash, by=floor_manager, button=1, seats=seats)

    def act(seat: int, action: str, to: int | None = None) -> Any:
        def step() -> None:
            h = Hand.objects.get(pk=state["hand"].pk)
            record_action(hand=h, by=floor_manager, expected_seq=h.seq, seat=seat, action=action,
                          to=to)  # fmt: skip

        step.__name__ = f"{action} by seat {seat}"
        return step

    def void_last() -> None:
        h = Hand.objects.get(pk=state["hand"].pk)
        void_last_action(hand=h, by=floor_manager, expected_seq=h.seq, reason="Wrong seat")

    changes(deal, 1)
    changes(act(1, "call"), 1)  # the pot
    changes(void_last, 1)
    changes(act(1, "call"), 1)
    changes(act(2, "call"), 1)
    changes(act(3, "check"), 1)  # the street: the flop
    changes(act(2, "fold"), 1)
    changes(act(3, "fold"), 1)  # the hand ends
    changes(lambda: set_table_status(table=cash, by=floor_manager, status="closed"), 1)

    def ruling() -> None:
        log_ruling(table=Table.objects.get(number=41), director=director, situation="Seat 2 "
                   "acted out of turn.", decision="Action stands.", citations=[("TDA-45", "")])  # fmt: skip

    changes(ruling, 41)
    out = tournament.assignments.filter(table__number=1, ended_at__isnull=True).first()
    assert out is not None
    changes(lambda: bust(entrant=out.entrant, by=director), 41, also=(42,))
    tournament.refresh_from_db()

    age_everything()
    cursor = poll({}, "").cursor
    advance_level(tournament=tournament, by=director)
    update = poll({}, cursor)
    assert sorted(card.table.number for card in update.changed) == [41, 42]
    assert all(card.level and card.level.number == 2 for card in update.changed)


def test_a_level_reached_on_time_reaches_the_cards_without_any_write(director: Any) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(by=director, tables=1, entrants=6, first_table=41)
    draw_initial_seating(tournament=tournament, by=director)
    start_clock(tournament=tournament, by=director)
    age_everything(minutes=1)
    later = timezone.now() + timedelta(minutes=20, seconds=1)  # level 1 lasts 20 minutes
    cursor = poll({}, "", now=later - timedelta(seconds=3)).cursor
    update = poll({}, cursor, now=later)
    assert [card.table.number for card in update.changed] == [41]
    level = update.changed[0].level
    assert level is not None and (level.small_blind, level.big_blind) == (200, 400)
    # Sent once: the next poll, even within the feed's overlap, has nothing new.
    again = poll({}, update.cursor, now=later + timedelta(seconds=3))
    assert again.changed == []
    quiet = poll({}, again.cursor, now=later + OVERLAP + timedelta(seconds=3))
    assert quiet.changed == []
    # Past the last level the structure has run out: the card says so once (play goes on at
    # the last level, no more levels scheduled), then stays quiet (a page that last asked
    # longer ago than the change feed keeps gets the whole grid).
    tournament.refresh_from_db()
    structure = sum((level.duration for level in tournament.levels.all()), timedelta())
    assert tournament.level_started_at is not None
    done = tournament.level_started_at - tournament.level_elapsed + structure + timedelta(seconds=1)
    finished = poll({}, poll({}, quiet.cursor, now=done - timedelta(seconds=3)).cursor, now=done)
    assert [
        (card.seating.level_label, card.seating.clock.state)
        for card in finished.changed
        if card.seating
    ] == [("Level 3: 300/600 ante 600", "finished")]
    settled = poll({}, poll({}, finished.cursor, now=done + OVERLAP).cursor, now=done + OVERLAP)
    assert settled.changed == []


def test_a_filter_never_gets_a_card_it_does_not_show(floor_manager: Any) -> None:
    """A change outside the filter sends nothing; a table joining or leaving the filter sends
    the whole grid (never an out-of-band card the page has no place for)."""
    inside = make_table(number=1, by=floor_manager, status="open")
    outside = make_table(number=2, by=floor_manager, status="closed")
    only_open = {"status": "open"}
    age_everything()
    cursor = poll(only_open, "").cursor
    update = poll(only_open, cursor)
    assert update.grid is None and update.changed == []
    make_hand(table=inside, by=floor_manager)
    Table.objects.filter(pk=outside.pk).update(updated_at=timezone.now())
    update = poll(only_open, cursor)
    assert [card.table.number for card in update.changed] == [1]
    set_table_status(table=outside, by=floor_manager, status="open")  # joins the filter
    update = poll(only_open, update.cursor)
    assert update.grid is not None and [c.table.number for c in update.grid] == [1, 2]
    assert update.changed == []


def test_a_ruling_updates_the_feed(floor_manager: Any, director: Any) -> None:
    from django.core.management import call_command

    from cardroom.rulings.services import log_ruling

    call_command("load_rulebook", verbosity=0)
    table = make_table(number=1, by=floor_manager)
    age_everything()
    cursor = poll({}, "").cursor
    assert poll({}, cursor).feed is None
    log_ruling(table=table, director=director, situation="A chip fell.", decision="Play on.",
               citations=[("TDA-45", "")])  # fmt: skip
    update = poll({}, cursor)
    assert update.feed and update.feed[0] == Ruling.objects.get()


@pytest.mark.parametrize("persona", ["staff", "director"])
def test_only_floor_managers_open_and_close_from_a_card(
    persona_client: Any, persona: str, floor_manager: Any
) -> None:
    make_table(number=1, by=floor_manager, status="open")
    assert (
        persona_client(persona)
        .post("/tables/1/status/", {"status": "closed", "from": "floor"})
        .status_code
        == 403
    )
    response = persona_client("floor_manager").post(
        "/tables/1/status/", {"status": "closed", "from": "floor"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and 'id="card-1"' in response.content.decode()
    assert Table.objects.get(number=1).status == "closed"


def test_anonymous_go_to_log_in_and_no_role_is_403(persona_client: Any) -> None:
    for url in ("/floor/", "/floor/updates/"):
        assert persona_client("anonymous").get(url).status_code == 302
        assert persona_client("no_role_user").get(url).status_code == 403


def test_tournament_cards_show_the_tournament_level_and_who_is_seated_now(
    persona_client: Any, director: Any, floor_manager: Any
) -> None:
    from tests.tournaments.factories import bust, make_tournament
    from tournaments.clock.services import advance_level
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(by=director, tables=2, entrants=11, first_table=41,
                                 name="Sunday Turbo")  # fmt: skip
    draw_initial_seating(tournament=tournament, by=director)
    make_tournament(by=director, tables=1, first_table=51, name="Other Event")
    cash = make_table(number=3, by=floor_manager)
    make_table(number=60, by=floor_manager, kind="tournament")
    hand = make_hand(table=cash, by=floor_manager)  # three players dealt in
    record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="fold")
    record_action(hand=hand, by=floor_manager, expected_seq=1, seat=2, action="fold")
    client = persona_client("staff")
    html = client.get("/floor/").content.decode()
    card_41 = card_of(html, 41)
    assert "Sunday Turbo" in card_41
    live = tournament.assignments.filter(table__number=1, ended_at__isnull=True)
    seats = sorted(live.values_list("seat", flat=True))
    assert f"Seats: <strong>{len(seats)}/9</strong>" in card_41
    open_seats = [str(s) for s in range(1, 10) if s not in seats]
    assert f"open {', '.join(open_seats)}" in card_41
    # The tournament's level, not the room table's cash settings (1/2).
    assert "Level 1: 100/200" in card_41 and "1/2" not in card_41
    # A room table set aside for tournaments, none playing there: no cash blinds either.
    card_60 = card_of(html, 60)
    assert "No tournament playing" in card_60 and "1/2" not in card_60
    card_3 = card_of(html, 3)
    assert "No hand in progress" in card_3
    assert f"Seats: <strong>3/{cash.seats}</strong>" in card_3  # between hands: the last hand
    # One tournament's tables only.
    only = client.get(f"/floor/?tournament={tournament.pk}", HTTP_HX_REQUEST="true").text
    assert 'id="card-41"' in only and 'id="card-42"' in only
    assert 'id="card-51"' not in only and 'id="card-3"' not in only
    assert "Other Event" in client.get("/floor/").text  # offered in the filter
    # An elimination and a new level change the card on the next poll.
    cursor = cursor_of(html)
    bust(entrant=live.first().entrant, by=director)  # type: ignore[union-attr]
    advance_level(tournament=tournament, by=director)
    after = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert f"Seats: <strong>{len(seats) - 1}/9</strong>" in card_of(after, 41)
    assert "Level 2: 200/400" in card_of(after, 41)


def poll_queries(client: Any, cursor: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/floor/updates/", {"v": cursor}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return len(captured), response.content.decode()


def test_a_poll_reads_what_changed_in_the_same_queries_however_many_tables(
    persona_client: Any, floor_manager: Any
) -> None:
    """A poll from the page sends only the card changed after it, and a poll after that none:
    an exact mark on the change feed, not a time overlap (which sent the card again for 10 s)."""
    client = persona_client("staff")
    counts = []
    for size in (5, 20):
        floor_with(size, floor_manager)
        # The tables' own writes settled (on PostgreSQL an earlier test's rolled-back ids are
        # gaps, passed once older than a commit can lag).
        age_everything()
        cursor = cursor_of(client.get("/floor/").content.decode())
        quiet_queries, quiet = poll_queries(client, cursor)
        assert quiet.count("table-card") == 0 and 'id="floor-cards"' not in quiet
        table = Table.objects.get(number=2)
        set_table_status(
            table=table, by=floor_manager, status="closed" if table.status == "open" else "open"
        )
        changed_queries, changed = poll_queries(client, cursor_of(quiet))
        assert re.findall(r'<article id="card-(\d+)"', changed) == ["2"]
        again_queries, again = poll_queries(client, cursor_of(changed))
        assert again.count("table-card") == 0
        counts.append((quiet_queries, changed_queries, again_queries))
    assert counts[0] == counts[1], counts


def test_a_change_still_being_written_holds_the_mark_until_it_shows(floor_manager: Any) -> None:
    """Ids are handed out before a transaction commits: a gap in the feed is a change that may
    still show, so the mark stays below it (the changes after it are read again) until it
    shows or is older than a commit can lag."""
    from django.db.models import Max

    from cardroom.core.changes import changes_after

    make_table(number=1, by=floor_manager)
    now = timezone.now()
    mark = Change.objects.aggregate(last=Max("pk"))["last"]
    first = Change.objects.create(topic="table", item=1, at=now, pk=mark + 1)
    Change.objects.create(topic="table", item=2, at=now, pk=mark + 3)  # mark + 2 pending
    after = changes_after(mark, now)
    assert after is not None and after.mark == first.pk and after.found == {"table": {1, 2}}
    again = changes_after(after.mark, now)
    assert again is not None and again.mark == first.pk and again.found == {"table": {2}}
    # The missing change never showed (rolled back): once older than the overlap, passed.
    later = changes_after(after.mark, now + OVERLAP)
    assert later is not None and later.mark == mark + 3
    assert changes_after(later.mark, now + OVERLAP) == type(later)({}, mark + 3)


def test_a_cursor_marked_past_the_feed_gets_the_whole_grid(
    persona_client: Any, floor_manager: Any
) -> None:
    from django.db.models import Max

    make_table(number=1, by=floor_manager)
    client = persona_client("staff")
    millis, _, held = cursor_of(client.get("/floor/").content.decode()).split(".")
    past = Change.objects.aggregate(last=Max("pk"))["last"] + 1
    _, html = poll_queries(client, f"{millis}.{past:019d}.{held}")
    assert 'id="floor-cards" class="cards" hx-swap-oob="true"' in html


def test_a_big_room_is_split_in_sections_the_floor_picks_each_polled_alone(
    persona_client: Any, floor_manager: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.screens import floor

    monkeypatch.setattr(floor, "SECTION", 3)
    floor_with(7, floor_manager)
    age_everything()
    client = persona_client("staff")
    first = client.get("/floor/").content.decode()
    assert re.findall(r'<article id="card-(\d+)"', first) == ["1", "2", "3"]
    assert ">Tables 1–3</a>" in first and ">Tables 7–7</a>" in first
    assert 'href="/floor/?section=3" aria-current' not in first
    last = client.get("/floor/", {"section": "3"}).content.decode()
    assert re.findall(r'<article id="card-(\d+)"', last) == ["7"]
    assert 'href="/floor/?section=3" aria-current="page"' in last
    poller = last.split('id="poller"')[1].split(">")[0]
    assert "section=3" in poller
    # A change in another section is not this section's; one in it is.
    set_table_status(table=Table.objects.get(number=2), by=floor_manager, status="closed")
    quiet = client.get(f"/floor/updates/?section=3&v={cursor_of(last)}").content.decode()
    assert "table-card" not in quiet
    set_table_status(table=Table.objects.get(number=7), by=floor_manager, status="closed")
    changed = client.get(f"/floor/updates/?section=3&v={cursor_of(quiet)}").content.decode()
    assert re.findall(r'<article id="card-(\d+)"', changed) == ["7"]
    for odd in ("0", "x", "²", "999999"):  # no such section: the first, or none past the end
        assert client.get("/floor/", {"section": odd}).status_code == 200


def test_a_poll_sends_fifty_changed_cards_in_the_queries_it_sends_two_in(
    persona_client: Any, floor_manager: Any, director: Any
) -> None:
    """A poll's queries do not grow with the cards it sends: what a card shows is read once
    for all of them (hands and their actions, tournaments and their clocks, seat maps), never
    a query a card. Fifty cards, as a poll carries at the largest events' rate of change: cash
    and tournament tables, hands in progress at them with actions taken."""
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.eliminations import close_registration
    from tournaments.table_hands import deal_tournament_hand

    floor_with(30, floor_manager)  # cash tables 1-30, a hand at every third
    tournament = make_tournament(by=director, tables=20, entrants=60, first_table=101)
    draw_initial_seating(tournament=tournament, by=director)
    close_registration(tournament=tournament, by=director)
    start_clock(tournament=tournament, by=director)
    for table in Table.objects.filter(number__gt=100):
        hand = deal_tournament_hand(table=table, by=director)
        seat = engine_state(hand).to_act
        record_action(hand=hand, by=director, expected_seq=0, seat=seat, action="call")
    age_everything()
    client = persona_client("staff")
    cursor = cursor_of(client.get("/floor/").content.decode())
    sent = []
    for numbers in ([3, 101], [*range(1, 31), *range(101, 121)]):
        # Written as any write is: the feed's triggers see each row.
        Table.objects.filter(number__in=numbers).update(updated_at=timezone.now())
        queries, html = poll_queries(client, cursor)
        cards = re.findall(r'<article id="card-(\d+)"', html)
        assert sorted(map(int, cards)) == numbers
        assert "Level 1: 100/200" in card_of(html, 101) and "pot <strong>" in card_of(html, 3)
        sent.append(queries)
        cursor = cursor_of(html)
    assert sent[0] == sent[1], sent
