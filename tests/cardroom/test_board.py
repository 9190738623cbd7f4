"""The public board (/board/): what counts as running, open seats, no full names, the clock,
strong ETags and 304s, the shared cache's time to live, anonymous access, odd query strings."""

import re
from collections.abc import Iterator
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from cardroom.screens import board
from cardroom.seats.models import Player, TableSeat
from cardroom.tables.models import Table
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


class FakeClock:
    def __init__(self) -> None:
        # Far from any real time.time(): nothing another test cached looks fresh here.
        self.now = 5_000_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(board, "clock", fake)
    board.forget()
    yield fake
    board.forget()


def seat(table: Table, number: int, name: str, alias: str = "") -> TableSeat:
    player = Player.objects.create(name=name, alias=alias)
    return TableSeat.objects.create(table=table, seat=number, player=player, stack=200)


def fill(table: Table, players: int, first: int = 1) -> None:
    for n in range(first, first + players):
        seat(table, n, f"Player{table.number} Number{n}")


def live(client: Client | None = None, inm: str | None = None) -> Any:
    headers = {"If-None-Match": inm} if inm is not None else {}
    return (client or Client()).get(reverse("cardroom:board_live"), headers=headers)


def games(html: str) -> dict[str, str]:
    """Each game card's text, by its stakes-and-game label."""
    cards = re.findall(
        r'<article class="board-game[^"]*" aria-label="([^"]+)">(.*?)</article>', html, re.S
    )
    return {unescape(label): text(body) for label, body in cards}


def text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def test_running_games_count_tables_and_open_seats() -> None:
    one = make_table(number=1, seats=9)
    fill(one, 7)
    two = make_table(number=2, seats=6)
    fill(two, 6)
    five = make_table(
        number=5, seats=9, small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=1000
    )
    fill(five, 2, first=4)
    html = live().content.decode()
    found = games(html)
    assert set(found) == {"1/2 No-limit Hold'em", "5/10 No-limit Hold'em"}
    small = found["1/2 No-limit Hold'em"]
    assert re.search(r"Tables 2 Open seats 2 Waiting 0", small), small
    assert "Table 1 7/9" in small and "Table 2 6/6" in small
    assert re.search(r"Tables 1 Open seats 7 ", found["5/10 No-limit Hold'em"])
    # Cheapest game first.
    assert html.index("1/2 No-limit") < html.index("5/10 No-limit")


def test_phantom_games_are_not_shown_as_running(fake_clock: FakeClock) -> None:
    """A closed table, an open table with nobody or one player, a tournament table: none is a
    game running. A table dealt without a seat map runs while its hands are recent."""
    make_table(number=3, status="closed")  # closed, no players
    closed_with_players = make_table(number=4, status="open")
    fill(closed_with_players, 3)
    Table.objects.filter(pk=closed_with_players.pk).update(status="closed")
    make_table(number=6)  # open, nobody seated
    lonely = make_table(number=7)
    seat(lonely, 1, "Solo Player")
    make_table(number=8, kind="tournament", min_buy_in=2000, max_buy_in=20000)
    html = live().content.decode()
    assert games(html) == {}
    assert "No cash games running right now." in html

    dealt = make_table(number=9, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
    hand = make_hand(table=dealt, stacks={1: 500, 2: 500, 5: 500})
    fake_clock.now += board.SHARED_TTL
    found = games(live().content.decode())
    assert re.search(r"Tables 1 Open seats 6 ", found["2/5 No-limit Hold'em"])
    # Ten minutes after its last hand started, a table without a seat map is not running.
    type(hand).objects.filter(pk=hand.pk).update(
        started_at=timezone.now() - timedelta(minutes=board.RECENT_HAND_MINUTES, seconds=5)
    )
    fake_clock.now += board.SHARED_TTL
    assert games(live().content.decode()) == {}


def test_a_voided_hand_does_not_make_a_table_run(fake_clock: FakeClock) -> None:
    """A one-off hand dealt with typed stacks and then voided: nobody plays there, so no game
    runs (no phantom "5/10 PLO, Table 4 2/9"). A dealt hand before it still counts,
    with its own seats, never the voided hand's."""
    from django.contrib.auth.models import User

    from cardroom.tables.models import Hand, HandStatus
    from cardroom.tables.services import void_hand

    by = User.objects.get_or_create(username="factory")[0]
    table = make_table(
        number=4, variant="omaha", structure="pot_limit",
        small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=1000,
    )  # fmt: skip
    hand = make_hand(table=table, stacks={1: 500, 2: 500})
    void_hand(hand=hand, by=by, expected_seq=hand.seq, reason="Misdeal")
    assert games(live().content.decode()) == {}

    played = make_hand(table=table, stacks={1: 500, 2: 500, 3: 500})
    Hand.objects.filter(pk=played.pk).update(state=HandStatus.COMPLETE)
    voided = make_hand(table=table, stacks={1: 500, 2: 500})
    void_hand(hand=voided, by=by, expected_seq=voided.seq, reason="Fouled deck")
    fake_clock.now += board.SHARED_TTL
    found = games(live().content.decode())["5/10 Pot-limit Omaha"]
    assert "Table 4 3/9" in found and re.search(r"Open seats 6 ", found), found


def wait(game_list: Any, *names: str, status: str = "waiting") -> None:
    from cardroom.waitlists.models import WaitlistEntry

    start = game_list.entries.count()
    for position, name in enumerate(names, start=start + 1):
        player = Player.objects.create(name=name.split("|")[0], alias=name.partition("|")[2])
        WaitlistEntry.objects.create(
            game_list=game_list, player=player, position=position, status=status
        )


def game_list(small: int = 1, big: int = 2, label: str = "NLHE 1/2") -> Any:
    from cardroom.waitlists.models import GameList

    return GameList.objects.create(small_blind=small, big_blind=big, label=label)


def test_waitlists_by_initials_or_alias_in_order() -> None:
    fill(make_table(number=1), 9)
    nl = game_list()
    wait(nl, "Ana Ruiz", "Bartholomew Quince|Bart", "Celia de la Ormond")
    wait(nl, "Dan Called", status="called")
    wait(nl, "Gone Away", status="removed")
    big = game_list(5, 10, "NLHE 5/10")  # nobody plays it yet
    wait(big, "Eve Long")
    found = games(live().content.decode())
    small = found["1/2 No-limit Hold'em"]
    assert "Tables 1 Open seats 0 Waiting 4" in small
    html = live().content.decode()
    lists = re.findall(r'<ol class="board-waiting"[^>]*>(.*?)</ol>', html, re.S)
    waiting = [[unescape(n) for n in re.findall(r"<li>(.*?)</li>", ol)] for ol in lists]
    assert waiting == [["A.R.", "Bart", "C.D.L.O.", "D.C."], ["E.L."]]
    assert (
        found["5/10 No-limit Hold'em"] == "5/10 No-limit Hold'em Not running yet · 1 waiting E.L."
    )
    # Running games first, then lists waiting for a table.
    html = live().content.decode()
    assert html.index("1/2 No-limit") < html.index("Not running yet")


def test_no_full_name_anywhere() -> None:
    table = make_table(number=1)
    seat(table, 1, "Ana Ruiz")
    seat(table, 2, "Bartholomew Quince", alias="Bart")
    seat(table, 3, "Celia Ormond")
    wait(game_list(), "Dora Pennyworth", "Edmund Black|Eddie B")
    for response in (live(), Client().get(reverse("cardroom:board"))):
        html = response.content.decode()
        for word in (
            "Ana",
            "Ruiz",
            "Bartholomew",
            "Quince",
            "Celia",
            "Ormond",
            "Dora",
            "Penny",
            "Edmund",
        ):
            assert word not in html
        assert "D.P." in html and "Eddie B" in html
        assert "Table 1 3/9" in text(html)
        assert "Ana" not in text(html) and "Ruiz" not in text(html)


def test_strong_etag_and_304() -> None:
    fill(make_table(number=1), 4)
    first = live()
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert first["Cache-Control"] == f"public, max-age={board.MAX_AGE}"
    again = live(inm=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert again["Cache-Control"] == f"public, max-age={board.MAX_AGE}"
    # A list of tags, a weak form of ours, and "*" all match (RFC 9110: weak comparison).
    assert live(inm=f'"other", {etag}').status_code == 304
    assert live(inm=f"W/{etag}").status_code == 304
    assert live(inm="*").status_code == 304
    # Someone else's tag, or junk: the full board.
    for header in ('"0000"', "garbage", '""', ",,,", "W/"):
        response = live(inm=header)
        assert response.status_code == 200, header
        assert response.content == first.content
    # The page has its own tag.
    page = Client().get(reverse("cardroom:board"))
    assert page.status_code == 200 and page["ETag"] != etag
    page_again = Client().get(reverse("cardroom:board"), headers={"If-None-Match": page["ETag"]})
    assert page_again.status_code == 304
    # Django's conditional answer, so the other validators work as RFC 9110 says too.
    stale = Client().get(reverse("cardroom:board"), headers={"If-Match": '"0000"'})
    assert stale.status_code == 412
    head = Client().head(reverse("cardroom:board_live"), headers={"If-None-Match": etag})
    assert head.status_code == 304 and head["ETag"] == etag


def test_a_seat_change_shows_once_the_cache_expires(fake_clock: FakeClock) -> None:
    table = make_table(number=1)
    fill(table, 3)
    before = live()
    assert "Open seats 6" in games(before.content.decode())["1/2 No-limit Hold'em"]
    seat(table, 9, "Late Arrival")
    # Within the time to live: the same bytes (thousands of polls cost no query)...
    fake_clock.now += 0.5
    assert live().content == before.content
    # ...and a poll with the old tag is still a 304 until then.
    assert live(inm=before["ETag"]).status_code == 304
    # Once the cache expires (at most SHARED_TTL seconds), the change shows.
    fake_clock.now += board.SHARED_TTL
    after = live(inm=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert "Open seats 5" in games(after.content.decode())["1/2 No-limit Hold'em"]


def test_another_process_shares_the_build(
    fake_clock: FakeClock, django_assert_num_queries: Any
) -> None:
    """A second web process (its memo empty) takes the build from the shared cache (here the
    database cache: the versions and the build, two queries)."""
    fill(make_table(number=1), 3)
    first = live()
    board.forget()  # as another process
    fake_clock.now += 0.2
    with django_assert_num_queries(2):
        second = live()
    assert second["ETag"] == first["ETag"]
    with django_assert_num_queries(1):  # this process's memo: the versions alone
        live()


@pytest.mark.usefixtures("shared_memory_cache")
def test_an_unchanged_poll_reads_no_database(
    fake_clock: FakeClock, django_assert_num_queries: Any
) -> None:
    """With the shared cache outside the database (Redis in production), a poll whose board
    has not changed, in this process or another, and its conditional form, make no query."""
    fill(make_table(number=1), 3)
    first = live()
    with django_assert_num_queries(0):
        assert live().content == first.content
        assert live(inm=first["ETag"]).status_code == 304
        board.forget()  # as another process
        fake_clock.now += 0.2
        assert live()["ETag"] == first["ETag"]


def committed(capture: Any, write: Any) -> Any:
    """``write`` as its own transaction, committed: its on-commit work runs."""
    from django.db import transaction

    with capture(execute=True), transaction.atomic():
        return write()


@pytest.mark.usefixtures("shared_memory_cache")
def test_every_change_the_board_shows_shows_at_the_next_poll(
    fake_clock: FakeClock,
    director: Any,
    floor_manager: Any,
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    """A seat taken, a table's stakes edited by ``update()``, a list opened and joined, a
    tournament's clock started: each shows at the very next poll, within the time to live, and
    the poll after it is again free."""
    from cardroom.waitlists import services as waitlists
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock

    table = committed(django_capture_on_commit_callbacks, lambda: make_table(number=1))
    committed(django_capture_on_commit_callbacks, lambda: fill(table, 3))
    tournament = committed(
        django_capture_on_commit_callbacks,
        lambda: make_tournament(by=director, tables=1, entrants=9),
    )
    seen = [live()]

    def shows(write: Any, piece: str) -> None:
        committed(django_capture_on_commit_callbacks, write)
        fake_clock.now += 0.01  # well inside SHARED_TTL
        answer = live(inm=seen[-1]["ETag"])
        assert answer.status_code == 200, piece
        assert piece in text(answer.content.decode())
        seen.append(answer)
        with django_assert_num_queries(0):
            assert live(inm=answer["ETag"]).status_code == 304

    def sit_down() -> None:
        from cardroom.seats import services as players

        player = players.find_or_create_player(name="Late Arrival", by=floor_manager)
        players.seat_player(table=table, player=player, seat=9, buy_in=100, by=floor_manager)

    shows(sit_down, "Open seats 5")
    shows(
        lambda: Table.objects.filter(pk=table.pk).update(small_blind=2, big_blind=5),
        "2/5 No-limit Hold'em",
    )
    game_list = []
    shows(
        lambda: game_list.append(
            waitlists.open_list(
                variant="holdem", structure="no_limit", small_blind=5, big_blind=10,
                by=floor_manager,
            )
        ),
        "Not running yet",
    )  # fmt: skip
    shows(
        lambda: waitlists.add_to_list(
            game_list=game_list[0], name="Nadia Kowalski", source="floor", by=floor_manager
        ),
        "N.K.",
    )
    shows(lambda: start_clock(tournament=tournament, by=director), "Level 1")


@pytest.mark.usefixtures("shared_memory_cache")
def test_a_change_rolled_back_does_not_move_the_board_on(
    fake_clock: FakeClock, django_capture_on_commit_callbacks: Any
) -> None:
    from django.db import transaction

    table = committed(django_capture_on_commit_callbacks, lambda: make_table(number=1))
    committed(django_capture_on_commit_callbacks, lambda: fill(table, 3))
    version = board.board_version()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        Table.objects.filter(pk=table.pk).update(small_blind=2, big_blind=5)
        raise RuntimeError
    assert callbacks == [] and board.board_version() == version


def test_anonymous_and_cacheable_by_anyone() -> None:
    fill(make_table(number=1), 2)
    for name in ("cardroom:board", "cardroom:board_live"):
        response = Client().get(reverse(name))
        assert response.status_code == 200
        assert "Cookie" not in response.get("Vary", "")
        assert not response.cookies  # no session, no CSRF cookie: the same bytes for everyone
        assert response["Cache-Control"].startswith("public")
    page = Client().get(reverse("cardroom:board")).content.decode()
    assert "<script" in page and 'src="/static/js/board.js"' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page), "no inline script (CSP)"
    assert "style=" not in page


def test_signed_in_viewers_get_the_same_bytes(staff: Any) -> None:
    fill(make_table(number=1), 2)
    anonymous = live()
    client = Client()
    client.force_login(staff)
    assert live(client).content == anonymous.content


@pytest.mark.parametrize(
    "query",
    [
        "?x=1",
        "?fragment=1&fragment=2",
        "?%ff%fe=%c3%28",
        "?" + "a" * 5000,
        "?page=-1&limit=99999999999999999999",
        "?q=<script>alert(1)</script>",
        "?;;&&==",
    ],
)
def test_odd_query_strings_are_ignored(query: str) -> None:
    fill(make_table(number=1), 2)
    for name in ("cardroom:board", "cardroom:board_live"):
        response = Client().get(reverse(name) + query)
        assert response.status_code == 200, query
        assert b"<script>alert" not in response.content


def test_methods() -> None:
    assert Client().head(reverse("cardroom:board")).status_code == 200
    assert Client().post(reverse("cardroom:board")).status_code == 405
    assert Client().get(reverse("cardroom:board") + "?a=%00").status_code == 400


def test_tournament_clock_is_the_same_instant_at_every_build(director: Any) -> None:
    from django.db.models import F

    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.models import Tournament

    tournament = make_tournament(by=director, tables=1, entrants=9, name="Friday Turbo")
    start_clock(tournament=tournament, by=director)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=25)
    )
    now = timezone.now()
    first = board.build(now)
    second = board.build(now + timedelta(milliseconds=1234))
    assert first.live == second.live  # nothing ticks in the HTML: the tag holds
    html = first.live.decode()
    assert "Friday Turbo" in html
    assert "Level 2" in html and "200 / 400" in html
    ends = int(re.search(r'data-ends-at="(\d+)"', html).group(1))  # type: ignore[union-attr]
    started = Tournament.objects.get(pk=tournament.pk).level_started_at
    assert started is not None
    assert abs(ends - (started + timedelta(minutes=40)).timestamp() * 1000) < 1
    assert "Players <strong>9</strong> / 9" in html


def test_paused_clock_shows_time_left(director: Any) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import pause_clock, start_clock

    tournament = make_tournament(by=director, tables=1, entrants=3, name="Paused Event")
    start_clock(tournament=tournament, by=director)
    pause_clock(tournament=tournament, by=director)
    html = live().content.decode()
    assert re.search(r'class="board-time">(19:5\d|20:00)</span>', html), html
    assert "Paused" in html


def test_without_the_cache_every_answer_is_built(settings: Any) -> None:
    settings.CARDROOM_BOARD_CACHE = False
    table = make_table(number=1)
    fill(table, 2)
    first = live()
    assert "ETag" not in first and first["Cache-Control"] == "no-store"
    seat(table, 5, "Newly Seated")
    assert "Open seats 6" in games(live().content.decode())["1/2 No-limit Hold'em"]


def test_a_list_change_shows_without_waiting_for_the_shared_cache(
    fake_clock: FakeClock, floor_manager: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The waitlists bump the board version: the shared copy is keyed by it, so only this
    process's one-second memo stands between a new name and the board."""
    from cardroom.waitlists import services as waitlists

    fill(make_table(number=1), 9)
    with django_capture_on_commit_callbacks(execute=True):
        nl = waitlists.open_list(
            variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
        )
    before = live()
    with django_capture_on_commit_callbacks(execute=True):
        waitlists.add_to_list(game_list=nl, name="Nadia Kowalski", source="floor", by=floor_manager)
    fake_clock.now += 0.1  # well inside SHARED_TTL
    after = live(inm=before["ETag"])
    assert after.status_code == 200
    assert "Waiting 1" in games(after.content.decode())["1/2 No-limit Hold'em"]
    assert "N.K." in after.content.decode() and "Nadia" not in after.content.decode()


def test_a_call_in_past_its_deadline_is_not_shown(floor_manager: Any) -> None:
    from cardroom.waitlists.models import WaitlistEntry

    fill(make_table(number=1), 9)
    nl = game_list()
    wait(nl, "Kept Waiting", "Late Caller")
    WaitlistEntry.objects.filter(player__name="Late Caller").update(
        source="call_in", check_in_by=timezone.now() - timedelta(minutes=1)
    )
    html = live().content.decode()
    assert "K.W." in html and "L.C." not in html


def test_a_seat_map_table_everyone_left_is_not_running(fake_clock: FakeClock) -> None:
    """Its last hand (dealt from the seat map: it has names) is recent, but nobody is there."""
    from cardroom.tables.services import start_hand

    table = make_table(number=2)
    fill(table, 3)
    from django.contrib.auth.models import User

    start_hand(
        table=table, by=User.objects.get(username="factory"), button=1,
        seats=[{"seat": n, "stack": 200} for n in (1, 2, 3)],
        names={"1": "A", "2": "B", "3": "C"},
    )  # fmt: skip
    assert "Table 2 3/9" in games(live().content.decode())["1/2 No-limit Hold'em"]
    TableSeat.objects.filter(table=table).update(left_at=timezone.now())
    fake_clock.now += board.SHARED_TTL
    assert games(live().content.decode()) == {}


def test_a_seated_tournament_with_its_clock_stopped_shows_one_state(director: Any) -> None:
    """Seated, clock not started: "Seated" above "Not started", never "Running"; once the
    clock runs the tournament reads "Running"."""
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(by=director, tables=1, entrants=3, name="Saturday Deepstack")
    draw_initial_seating(tournament=tournament, by=director)
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.clock_state == "stopped"
    html = board.build(timezone.now()).live.decode()
    assert "· Seated</p>" in html and "Not started" in html and "· Running" not in html
    start_clock(tournament=tournament, by=director)
    html = board.build(timezone.now()).live.decode()
    assert "· Running</p>" in html and "Not started" not in html
