"""The waitlists' API: lists, players, offers, seating with a buy-in, must-move,
starting a table, the room's settings and the kiosk (no log-in, rate-limited), with the
error shape (400 bad input, 422 refused, 409 raced, never 500)."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tasks
from cardroom.waitlists.models import GameList, WaitlistEntry
from tests.factories import make_table

pytestmark = pytest.mark.django_db

LISTS = "/api/v1/waitlists/"
KIOSK = "/api/v1/kiosk/entries/"
NLHE = {"variant": "holdem", "structure": "no_limit", "small_blind": 1, "big_blind": 2}


@pytest.fixture
def fm(api_client_for: Callable[[str], APIClient]) -> APIClient:
    return api_client_for("floor_manager")


@pytest.fixture
def staff_client(api_client_for: Callable[[str], APIClient]) -> APIClient:
    return api_client_for("staff")


def open_nlhe(client: APIClient, **extra: Any) -> dict[str, Any]:
    response = client.post(LISTS, {**NLHE, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def add(client: APIClient, list_id: int, name: str, **extra: Any) -> dict[str, Any]:
    response = client.post(f"{LISTS}{list_id}/entries/", {"name": name, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def test_staff_run_a_list_from_open_to_seated(staff_client: APIClient, staff: Any) -> None:
    table = make_table(number=4, seats=6, max_buy_in=400)
    game = open_nlhe(staff_client)
    assert game["label"] == "NLHE 1/2"
    ana = add(staff_client, game["id"], "Ana Ruiz")
    bo = add(staff_client, game["id"], "Bo Li", source="call_in")
    assert bo["check_in_by"] is not None and bo["source"] == "call_in"
    listed = staff_client.get(f"{LISTS}{game['id']}/").json()
    assert [e["name"] for e in listed["entries"]] == ["Ana Ruiz", "Bo Li"]
    assert len(listed["open_seats"]) == 6
    called = staff_client.post(
        f"/api/v1/waitlist-entries/{ana['id']}/call/", {"table": table.pk, "seat": 3}, format="json"
    )
    assert called.status_code == 200 and called.json()["status"] == "called"
    assert called.json()["called_table"] == 4 and called.json()["call_expires_at"]
    seated = staff_client.post(
        f"/api/v1/waitlist-entries/{ana['id']}/seat/",
        {"table": table.pk, "seat": 3, "buy_in": 250},
        format="json",
    )
    assert seated.status_code == 200, seated.json()
    assert seated.json()["status"] == "seated" and seated.json()["seat"] == {"table": 4, "seat": 3}
    assert TableSeat.objects.get(table=table).stack == 250
    checked = staff_client.patch(
        f"/api/v1/waitlist-entries/{bo['id']}/", {"check_in": True}, format="json"
    )
    assert checked.status_code == 200 and checked.json()["checked_in_at"]
    gone = staff_client.delete(f"/api/v1/waitlist-entries/{bo['id']}/?reason=Went+home")
    assert gone.status_code == 200 and gone.json()["status"] == "removed"


def test_bad_input_is_400_and_refusals_are_422(fm: APIClient) -> None:
    bad = fm.post(LISTS, {**NLHE, "small_blind": "one"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
    assert "small_blind" in bad.json()["error"]["fields"]
    assert fm.post(LISTS, {**NLHE, "big_blind": 1}, format="json").status_code == 400
    game = open_nlhe(fm)
    again = fm.post(LISTS, NLHE, format="json")
    assert again.status_code == 422 and again.json()["error"]["code"] == "waitlist_refused"
    assert fm.post(f"{LISTS}{game['id']}/entries/", {"name": ""}, format="json").status_code == 400
    url = f"{LISTS}{game['id']}/entries/"
    assert fm.post(url, {"name": "Al", "source": "kiosk"}, format="json").status_code == 400
    add(fm, game["id"], "Ana Ruiz")
    dup = fm.post(url, {"name": "ana ruiz"}, format="json")
    assert (
        dup.status_code == 422 and "already on the NLHE 1/2 list" in dup.json()["error"]["message"]
    )
    entry = WaitlistEntry.objects.get()
    no_reason = fm.delete(f"/api/v1/waitlist-entries/{entry.pk}/")
    assert no_reason.status_code == 400
    table = make_table(number=2, seats=6, max_buy_in=400)
    too_much = fm.post(
        f"/api/v1/waitlist-entries/{entry.pk}/seat/",
        {"table": table.pk, "seat": 1, "buy_in": 5000},
        format="json",
    )
    assert too_much.status_code == 422 and "maximum" in too_much.json()["error"]["message"]
    no_table = fm.post(
        f"/api/v1/waitlist-entries/{entry.pk}/seat/",
        {"table": 999999, "seat": 1, "buy_in": 100},
        format="json",
    )
    assert no_table.status_code == 400
    assert fm.get("/api/v1/waitlists/999999/").status_code == 404
    huge = fm.get("/api/v1/waitlist-entries/99999999999999999999999/call/")
    assert huge.status_code in (400, 404, 405)


def test_a_seat_taken_since_the_floor_looked_is_a_409(fm: APIClient, floor_manager: Any) -> None:
    table = make_table(number=1, seats=6)
    game = open_nlhe(fm)
    ana = add(fm, game["id"], "Ana Ruiz")
    players.seat_player(
        table=table,
        player=players.find_or_create_player(name="Someone", by=floor_manager),
        seat=2,
        buy_in=100,
        by=floor_manager,
    )
    taken = fm.post(
        f"/api/v1/waitlist-entries/{ana['id']}/seat/",
        {"table": table.pk, "seat": 2, "buy_in": 100},
        format="json",
    )
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"


def test_only_a_floor_manager_reorders_or_changes_the_room(
    fm: APIClient, staff_client: APIClient, api_client_for: Callable[[str], APIClient]
) -> None:
    game = open_nlhe(fm)
    add(fm, game["id"], "Ana Ruiz")
    bo = add(fm, game["id"], "Bo Li")
    url = f"/api/v1/waitlist-entries/{bo['id']}/"
    body = {"position": 1, "reason": "Was first in the room"}
    assert staff_client.patch(url, body, format="json").status_code == 403
    assert fm.patch(url, {"position": 1}, format="json").status_code == 400
    moved = fm.patch(url, body, format="json")
    assert moved.status_code == 200
    names = [e["name"] for e in fm.get(f"{LISTS}{game['id']}/").json()["entries"]]
    assert names == ["Bo Li", "Ana Ruiz"]
    settings_url = "/api/v1/room-settings/"
    assert staff_client.get(settings_url).json()["offer_minutes"] == 3
    assert staff_client.patch(settings_url, {"offer_minutes": 5}, format="json").status_code == 403
    assert fm.patch(settings_url, {"offer_minutes": 0}, format="json").status_code == 400
    assert fm.patch(settings_url, {"start_rule": "dice"}, format="json").status_code == 400
    changed = fm.patch(
        settings_url, {"offer_minutes": 5, "start_rule": "first_come"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["offer_minutes"] == 5
    director = api_client_for("director")
    assert director.get(LISTS).status_code == 200  # directors read
    assert director.post(LISTS, NLHE, format="json").status_code == 403


def test_a_read_of_the_lists_shows_an_offer_past_its_time_as_ran_out_and_the_beat_moves_it_on(
    fm: APIClient,
) -> None:
    table = make_table(number=1, seats=2)
    game = open_nlhe(fm)
    ana = add(fm, game["id"], "Ana Ruiz")
    add(fm, game["id"], "Bo Li")
    fm.post(
        f"/api/v1/waitlist-entries/{ana['id']}/call/", {"table": table.pk, "seat": 1}, format="json"
    )
    WaitlistEntry.objects.filter(pk=ana["id"]).update(
        call_expires_at=timezone.now() - timedelta(seconds=1)
    )
    # A read writes nothing: the offer is as stored, marked as ran out.
    entries = fm.get(LISTS).json()["results"][0]["entries"]
    assert [(e["name"], e["status"], e["passes"], e["offer_ran_out"]) for e in entries] == [
        ("Ana Ruiz", "called", 0, True),
        ("Bo Li", "waiting", 0, False),
    ]
    # The beat task moves it on: Ana keeps her place, Bo is called to the seat.
    assert tasks.lapse_waitlists() == 1
    entries = fm.get(LISTS).json()["results"][0]["entries"]
    assert [(e["name"], e["status"], e["passes"], e["offer_ran_out"]) for e in entries] == [
        ("Ana Ruiz", "waiting", 1, False),
        ("Bo Li", "called", 0, False),
    ]


def test_must_move_and_start_game_over_the_api(fm: APIClient, floor_manager: Any) -> None:
    main = make_table(number=1, seats=2)
    must = make_table(number=2, seats=2)
    first = players.find_or_create_player(name="First Fay", by=floor_manager)
    players.seat_player(table=must, player=first, seat=2, buy_in=120, by=floor_manager)
    game = open_nlhe(fm, start_threshold=2)
    made = fm.post("/api/v1/must-moves/", {"table": must.pk, "main": game["id"]}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["next_player"] == {"name": "First Fay", "seat": 2, "stack": 120}
    moved = fm.post(f"/api/v1/must-moves/{made.json()['id']}/move-next/", {}, format="json")
    assert moved.json() == {"table": 1, "seat": 1, "stack": 120, "name": "First Fay"}
    empty = fm.post(f"/api/v1/must-moves/{made.json()['id']}/move-next/", {}, format="json")
    assert empty.status_code == 422
    assert fm.post(f"/api/v1/must-moves/{made.json()['id']}/end/").status_code == 200
    assert fm.post(f"/api/v1/must-moves/{made.json()['id']}/end/").status_code == 409
    assert main.seated.count() == 1

    spare = make_table(number=9, seats=4, status="closed", min_buy_in=50)
    start = f"{LISTS}{game['id']}/start-game/"
    assert fm.get(start).json()["ready"] is False
    a, b = add(fm, game["id"], "Ann A"), add(fm, game["id"], "Ben B")
    proposal = fm.get(start).json()
    # Table 2 (its must-move ended, everyone moved) is open and empty: proposed first.
    assert proposal["ready"] and proposal["table"] == must.pk
    assert proposal["players"] == [a["id"], b["id"]]
    bad = fm.post(start, {"table": spare.pk, "buy_ins": {"x": 60}}, format="json")
    assert bad.status_code == 400
    started = fm.post(start, {"table": spare.pk, "buy_ins": {str(a["id"]): 80}}, format="json")
    assert started.status_code == 201, started.json()
    stacks = {s.player.name: s.stack for s in TableSeat.objects.filter(table=spare, left_at=None)}
    assert stacks == {"Ann A": 80, "Ben B": 50}
    assert fm.post(start, {"table": spare.pk}, format="json").status_code == 422
    [record] = fm.get(start).json()["starts"]
    assert record["rule"] == "draw" and record["verified"] is True
    assert record["entrants"] == [a["player"], b["player"]] and len(record["seed"]) == 64
    assert sorted(s["seat"] for s in record["seats_drawn"]) == sorted(
        s.seat for s in TableSeat.objects.filter(table=spare, left_at=None)
    )


@override_settings(CARDROOM_THROTTLE_RATES={"kiosk": "2/min"})
def test_the_kiosk_only_adds_and_is_rate_limited(fm: APIClient) -> None:
    game = open_nlhe(fm)
    plo = fm.post(
        LISTS,
        {"variant": "omaha", "structure": "pot_limit", "small_blind": 2, "big_blind": 5},
        format="json",
    ).json()
    kiosk = APIClient()
    lists = kiosk.get(KIOSK).json()
    assert [(g["label"], g["waiting"]) for g in lists] == [("NLHE 1/2", 0), ("PLO 2/5", 0)]
    added = kiosk.post(
        KIOSK, {"name": "Dana Whitfield", "lists": [game["id"], plo["id"]]}, format="json"
    )
    assert added.status_code == 201, added.json()
    assert added.json() == {
        "public_name": "D.W.",
        "lists": [{"list": "NLHE 1/2"}, {"list": "PLO 2/5"}],
    }
    assert "Dana" not in str(kiosk.get(KIOSK).json())
    entries = WaitlistEntry.objects.filter(player__name="Dana Whitfield")
    assert {(e.source, e.events.get().by) for e in entries} == {("kiosk", None)}
    bad = kiosk.post(KIOSK, {"name": "", "lists": []}, format="json")
    assert bad.status_code == 400
    assert kiosk.post(LISTS, NLHE, format="json").status_code == 401  # nothing else
    # The refused post did not count: Eve is the second name of the minute, Fay the third.
    eve = kiosk.post(KIOSK, {"name": "Eve", "lists": [game["id"]]}, format="json")
    assert eve.status_code == 201
    limited = kiosk.post(KIOSK, {"name": "Fay", "lists": [game["id"]]}, format="json")
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "throttled"
    assert limited["Retry-After"]
    assert not WaitlistEntry.objects.filter(player__name="Fay").exists()


@override_settings(CARDROOM_THROTTLE_RATES={"kiosk": "2/min", "kiosk_refused": "5/min"})
def test_refused_kiosk_posts_have_their_own_higher_cap(fm: APIClient) -> None:
    """A player fumbling the form does not lock the kiosk for the next one; a script
    posting junk is still stopped."""
    game = open_nlhe(fm)
    kiosk = APIClient()
    for _ in range(5):
        assert kiosk.post(KIOSK, {"name": "Gus", "lists": []}, format="json").status_code == 400
    ok = kiosk.post(KIOSK, {"name": "Gus", "lists": [game["id"]]}, format="json")
    assert ok.status_code == 429  # the refusals' cap: 5 a minute
    with override_settings(CARDROOM_THROTTLE_RATES={"kiosk": "2/min", "kiosk_refused": "9/min"}):
        ok = kiosk.post(KIOSK, {"name": "Gus", "lists": [game["id"]]}, format="json")
        assert ok.status_code == 201, ok.json()
        again = kiosk.post(KIOSK, {"name": "", "lists": [game["id"]]}, format="json")
        assert again.status_code == 400  # a refusal, counted apart
        assert (
            kiosk.post(KIOSK, {"name": "Hal", "lists": [game["id"]]}, format="json").status_code
            == 201
        )


def test_the_kiosk_adds_to_all_lists_or_none(fm: APIClient, monkeypatch: Any) -> None:
    game = open_nlhe(fm)
    other = fm.post(
        LISTS,
        {"variant": "omaha", "structure": "pot_limit", "small_blind": 2, "big_blind": 5},
        format="json",
    ).json()
    add(fm, other["id"], "Dana Whitfield")
    twice = APIClient().post(
        KIOSK, {"name": "Dana Whitfield", "lists": [game["id"], other["id"]]}, format="json"
    )
    # Already on one of them: no tell (kiosk_views "Privacy"); added to the other, once each.
    assert twice.status_code == 201
    assert GameList.objects.get(pk=game["id"]).entries.count() == 1
    assert GameList.objects.get(pk=other["id"]).entries.count() == 1
    # A refusal on the second list adds to none (one transaction).
    real = waitlists.add_to_list

    def refuse_the_second(**kwargs: Any) -> Any:
        if kwargs["game_list"].pk == other["id"]:
            raise waitlists.WaitlistRefused("lists", "Refused here.")
        return real(**kwargs)

    monkeypatch.setattr(waitlists, "add_to_list", refuse_the_second)
    late = APIClient().post(
        KIOSK, {"name": "Ely Late", "lists": [game["id"], other["id"]]}, format="json"
    )
    assert late.status_code == 422
    assert not WaitlistEntry.objects.filter(player__name="Ely Late").exists()
    monkeypatch.undo()
    room = fm.patch("/api/v1/room-settings/", {"kiosk_enabled": False}, format="json")
    assert room.status_code == 200
    closed = APIClient().post(KIOSK, {"name": "Fay", "lists": [game["id"]]}, format="json")
    assert closed.status_code == 422 and "kiosk is closed" in closed.json()["error"]["message"]
    names = [e.player.name for e in waitlists.live_entries(GameList.objects.get(pk=game["id"]))]
    assert names == ["Dana Whitfield"]  # not Fay: the kiosk is closed


JUNK: list[Any] = [
    None, "x", 7, -1, 2**63, [], [1], {"name": None}, {"table": "1"}, {"seat": 1.5},
    {"buy_in": True}, {"position": "first", "reason": ""}, {"lists": "all"}, {"buy_ins": []},
    {"check_in": "yes"}, {"to_table": -5, "to_seat": 99}, {"offer_minutes": 10**12},
]  # fmt: skip


def test_junk_never_answers_500(fm: APIClient, floor_manager: Any) -> None:
    table = make_table(number=1, seats=6)
    game = open_nlhe(fm)
    entry = add(fm, game["id"], "Ana Ruiz")
    must = make_table(number=2, seats=6)
    mm = fm.post("/api/v1/must-moves/", {"table": must.pk, "main": game["id"]}, format="json")
    urls = [
        LISTS, f"{LISTS}{game['id']}/entries/", f"{LISTS}{game['id']}/start-game/",
        f"/api/v1/waitlist-entries/{entry['id']}/call/",
        f"/api/v1/waitlist-entries/{entry['id']}/seat/", "/api/v1/must-moves/",
        f"/api/v1/must-moves/{mm.json()['id']}/move-next/", KIOSK,
    ]  # fmt: skip
    wrong = []
    for body in JUNK:
        for url in urls:
            got = fm.post(url, body, format="json").status_code
            if got >= 500:
                wrong.append(f"POST {url} {body!r}: {got}")
        for url in [f"/api/v1/waitlist-entries/{entry['id']}/", "/api/v1/room-settings/"]:
            got = fm.patch(url, body, format="json").status_code
            if got >= 500:
                wrong.append(f"PATCH {url} {body!r}: {got}")
    assert not wrong, "\n".join(wrong)
    assert table.seated.count() == 0
