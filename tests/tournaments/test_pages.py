"""Tournament pages: every role reads them, only directors change anything (403 otherwise)."""

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.factories import bust, lose_chips, make_room_tables, make_tournament
from tournaments import draw_services
from tournaments.models import Draw, DrawStatus, EntrantStatus, SeatAssignment, Tournament

pytestmark = pytest.mark.django_db

READ_ONLY = ("staff", "floor_manager")


def page_urls(tournament: Tournament) -> list[str]:
    pk = tournament.pk
    draw = tournament.draws.first()
    urls = [
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[pk]),
        reverse("tournaments:break_screen", args=[pk, 101]),  # the room's number
        reverse("tournaments:draws", args=[pk]),
        reverse("tournaments:balance", args=[pk]),
        reverse("tournaments:clock", args=[pk]),
    ]
    if draw is not None:
        urls += [
            reverse("tournaments:draw_detail", args=[pk, draw.number]),
            reverse("tournaments:draw_verify", args=[pk, draw.number]),
        ]
    return urls


def write_posts(tournament: Tournament) -> list[tuple[str, dict[str, Any]]]:
    pk = tournament.pk
    return [
        (reverse("tournaments:create"), {"name": "X"}),
        (reverse("tournaments:entrant_register", args=[pk]), {"name": "Walk-in"}),
        (reverse("tournaments:entrant_eliminate", args=[pk, 1]), {}),
        (reverse("tournaments:draw_commit", args=[pk]), {"kind": "late_entry"}),
        (reverse("tournaments:draw_deal", args=[pk, 1]), {}),
        (reverse("tournaments:balance_check", args=[pk]), {}),
        (reverse("tournaments:clock_action", args=[pk]), {"action": "start"}),
        (reverse("tournaments:hand_for_hand", args=[pk]), {"hand_for_hand": "on"}),
        (reverse("tournaments:reserve_seat", args=[pk]), {"entrant": 1, "table": 1, "seat": 1}),
        (reverse("tournaments:wrong_seat", args=[pk]), {"entrant": 1}),
        (reverse("tournaments:table_button", args=[pk, 1]), {"seat": 3}),
    ]


@pytest.mark.parametrize("persona", ["staff", "floor_manager", "director", "superuser"])
def test_every_floor_role_reads_the_tournament_pages(
    persona: str, persona_client: Any, seated: Tournament
) -> None:
    client = persona_client(persona)
    for url in page_urls(seated):
        response = client.get(url)
        assert response.status_code == 200, url


def test_without_a_role_the_pages_are_forbidden_and_anonymous_users_log_in(
    persona_client: Any, seated: Tournament
) -> None:
    for url in page_urls(seated):
        assert persona_client("no_role_user").get(url).status_code == 403
        response = persona_client("anonymous").get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("persona", READ_ONLY)
def test_staff_and_floor_managers_cannot_draw_eliminate_or_run_the_clock(
    persona: str, persona_client: Any, seated: Tournament
) -> None:
    client = persona_client(persona)
    before = SeatAssignment.objects.filter(ended_at__isnull=True).count()
    for url, data in write_posts(seated):
        assert client.post(url, data).status_code == 403, url
    assert client.get(reverse("tournaments:create")).status_code == 403
    assert SeatAssignment.objects.filter(ended_at__isnull=True).count() == before
    assert seated.draws.count() == 1


def test_the_audit_page_lists_draws_and_every_seat_move(
    persona_client: Any, seated: Tournament, director: Any
) -> None:
    bust(entrant=seated.entrants.get(number=3), by=director)
    page = persona_client("staff").get(reverse("tournaments:draws", args=[seated.pk])).content
    assert page.count(b"<td>Initial draw ") == 20 and b"<td>Eliminated" in page
    assert b'<span class="citation">TDA-7</span>' in page


def test_readers_see_no_director_buttons(persona_client: Any, seated: Tournament) -> None:
    page = persona_client("staff").get(reverse("tournaments:detail", args=[seated.pk]))
    assert b"Initial draw" not in page.content and b"Break table 1" not in page.content
    assert b"Table map" in page.content


def test_a_director_creates_a_tournament_from_the_form(persona_client: Any) -> None:
    tables = make_room_tables(count=3, first=601)
    client = persona_client("director")
    assert client.get(reverse("tournaments:create")).status_code == 200
    bad = client.post(reverse("tournaments:create"), {"name": "Bad", "levels": "100-200"})
    assert bad.status_code == 422 and b"small/big minutes" in bad.content
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Sunday Major", "variant": "holdem", "structure": "no_limit",
            "seats_per_table": 9, "starting_stack": 30000, "balancing_policy": "tda",
            "tables": [t.pk for t in tables], "levels": "100/200 20\nbreak 10\n200/400/400 20",
            "break_order": "602, 603, 601", "balancing_order": "",  # the tables' room numbers
        },
    )  # fmt: skip
    tournament = Tournament.objects.get(name="Sunday Major")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=[tournament.pk])
    assert tournament.break_order == [2, 3, 1] and tournament.levels.count() == 3
    assert tournament.levels.get(number=2).is_break


def test_the_director_commits_then_deals_the_initial_draw(
    persona_client: Any, director: Any
) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=12)
    client = persona_client("director")
    detail = reverse("tournaments:detail", args=[tournament.pk])
    assert b"Initial draw" in client.get(detail).content
    response = client.post(
        reverse("tournaments:draw_commit", args=[tournament.pk]), {"kind": "initial"}
    )
    draw = tournament.draws.get()
    assert response["Location"] == reverse("tournaments:draw_detail", args=[tournament.pk, 1])
    page = client.get(response["Location"]).content.decode()
    assert draw.commitment in page and draw.seed not in page and "Deal the draw" in page
    client.post(reverse("tournaments:draw_deal", args=[tournament.pk, 1]))
    draw.refresh_from_db()
    page = client.get(reverse("tournaments:draw_detail", args=[tournament.pk, 1])).content.decode()
    assert draw.status == DrawStatus.REVEALED and draw.seed in page
    verify = client.get(
        reverse("tournaments:draw_verify", args=[tournament.pk, 1]), headers={"HX-Request": "true"}
    )
    assert b"Verified" in verify.content and b"<html" not in verify.content


def test_eliminating_from_the_table_map_swaps_the_map(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    url = reverse("tournaments:entrant_eliminate", args=[seated.pk, 4])
    lose_chips(seated.entrants.get(number=4))  # the desk's last hand took them
    response = client.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b'id="table-map"' in response.content and b"<html" not in response.content
    assert seated.entrants.get(number=4).status == EntrantStatus.ELIMINATED
    again = client.post(url, headers={"HX-Request": "true"})
    assert again.status_code == 422 and b"not seated" in again.content


def test_breaking_a_table_on_the_break_screen(persona_client: Any, director: Any) -> None:
    tournament = make_tournament(by=director, tables=3, entrants=15)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    client = persona_client("director")
    screen = client.get(reverse("tournaments:break_screen", args=[tournament.pk, 103]))
    assert b"Step 1: show the seat cards" in screen.content
    response = client.post(
        reverse("tournaments:draw_commit", args=[tournament.pk]),
        {"kind": "break_table", "table": "3"},
    )
    draw = Draw.objects.get(tournament=tournament, kind="break_table")
    page = client.get(response["Location"]).content.decode()
    assert "Step 2: deal the cards" in page
    for seat in draw.inputs["input"]["receiving_seats"]:  # the room's tables, 101 on
        assert f"Table {100 + seat['table']} · Seat {seat['seat']}" in page
    client.post(reverse("tournaments:draw_deal", args=[tournament.pk, draw.number]))
    page = client.get(response["Location"]).content.decode()
    draw.refresh_from_db()
    for row in draw.result["result"]:
        assert f'<td class="playing-card">{row["card"]}</td>' in page
    assert tournament.tables.get(number=3).status == "broken"


def test_a_refused_break_says_why_with_the_rule(persona_client: Any, seated: Tournament) -> None:
    client = persona_client("director")
    back = reverse("tournaments:break_screen", args=[seated.pk, 103])
    response = client.post(
        reverse("tournaments:draw_commit", args=[seated.pk]),
        {"kind": "break_table", "table": "3", "back": back},
        follow=True,
    )
    assert b"open seats" in response.content and b"TDA-10" in response.content


def test_balancing_suggestions_apply_with_one_click(persona_client: Any, director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=18)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    at_two = SeatAssignment.objects.filter(table__number=2, ended_at__isnull=True)
    for assignment in list(at_two.select_related("entrant"))[:3]:
        bust(entrant=assignment.entrant, by=director)
    client = persona_client("director")
    client.post(reverse("tournaments:balance_check", args=[tournament.pk]))
    page = client.get(reverse("tournaments:balance", args=[tournament.pk])).content.decode()
    check = tournament.balance_checks.first()
    assert check is not None and "Apply 1 move" in page and "TDA 11-A" in page
    client.post(reverse("tournaments:balance_apply", args=[tournament.pk, check.pk]))
    assert tournament.moves.filter(reason="balance").count() == 1


def test_the_clock_runs_pauses_and_moves_on(persona_client: Any, seated: Tournament) -> None:
    client = persona_client("director")
    action = reverse("tournaments:clock_action", args=[seated.pk])
    for step in ("start", "pause", "resume"):
        assert client.post(action, {"action": step}).status_code == 302
    assert client.post(action, {"action": "advance", "confirm": "1"}).status_code == 302
    seated.refresh_from_db()
    assert seated.level_number == 2 and seated.clock_state == "running"
    face = client.get(
        reverse("tournaments:clock", args=[seated.pk]), headers={"HX-Request": "true"}
    )
    assert b"Level 2" in face.content and b"200 / 400" in face.content
    refused = client.post(action, {"action": "resume"}, follow=True)
    assert b"not paused" in refused.content


def test_registering_and_drawing_a_late_entry(persona_client: Any, seated: Tournament) -> None:
    client = persona_client("director")
    client.post(reverse("tournaments:entrant_register", args=[seated.pk]), {"name": "Walk-in"})
    walk_in = seated.entrants.get(name="Walk-in")
    assert walk_in.late
    response = client.post(
        reverse("tournaments:draw_commit", args=[seated.pk]), {"kind": "late_entry"}
    )
    client.post(response["Location"].replace("/draws/2/", "/draws/2/deal/"))
    walk_in.refresh_from_db()
    assert walk_in.status == EntrantStatus.SEATED


def test_hand_for_hand_reserve_wrong_seat_and_button_forms(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    pk = seated.pk
    client.post(reverse("tournaments:hand_for_hand", args=[pk]), {"hand_for_hand": "on"})
    seated.refresh_from_db()
    assert seated.hand_for_hand
    assignment = SeatAssignment.objects.get(entrant__number=1, ended_at__isnull=True)
    client.post(
        reverse("tournaments:wrong_seat", args=[pk]),
        {"entrant": 1, "found_table": 100 + assignment.table.number % 3 + 1, "found_seat": 9},
    )
    assert seated.moves.filter(reason="wrong_seat").count() == 1
    client.post(reverse("tournaments:table_button", args=[pk, 2]), {"seat": 5})
    assert seated.tables.get(number=2).button == 5
    open_seat = next(
        s for s in range(1, 10)
        if not SeatAssignment.objects.filter(table__number=1, seat=s, ended_at__isnull=True).exists()
    )  # fmt: skip
    client.post(
        reverse("tournaments:reserve_seat", args=[pk]),
        {"entrant": 2, "table": 101, "seat": open_seat, "reason": "Needs the end seat"},
    )
    moved = SeatAssignment.objects.get(entrant__number=2, ended_at__isnull=True)
    assert (moved.table.number, moved.seat) == (1, open_seat)


def test_balancing_names_room_tables_and_shows_the_moves_done(
    persona_client: Any, director: Any
) -> None:
    """The tournament's tables sit at room tables 21/22 (room tables 1 and 2 may be cash
    games): every place a person walks says the room's table, its one name; after Apply the
    page says the moves are done, not the same move again under "check again"."""
    tournament = make_tournament(by=director, tables=2, entrants=18, first_table=21)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    at_two = SeatAssignment.objects.filter(table__number=2, ended_at__isnull=True)
    for assignment in list(at_two.select_related("entrant"))[:3]:
        bust(entrant=assignment.entrant, by=director)
    client = persona_client("director")
    client.post(reverse("tournaments:balance_check", args=[tournament.pk]))
    check = tournament.balance_checks.first()
    assert check is not None and len(check.moves) == 1
    move = check.moves[0]
    frm, to = move["from"], move["to"]
    url = reverse("tournaments:balance", args=[tournament.pk])
    page = client.get(url).content.decode()
    going = f"Table {20 + to['table']} seat {to['seat']}"
    assert f"Table {20 + frm['table']} seat {frm['seat']}" in page
    assert going in page and "Table 21: 9" in page and "To do" in page
    done = client.post(
        reverse("tournaments:balance_apply", args=[tournament.pk, check.pk]), follow=True
    ).content.decode()
    name = tournament.entrants.get(number=move["player"]).name
    assert f"{name} moved to Table {20 + to['table']} seat {to['seat']}." in done
    assert 'id="balance-done"' in done and f"{name} moved to {going}" in done
    assert "check again" not in done and "Apply 1 move" not in done
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Table 22 seat" in detail  # the eliminations list
