"""The one permission helper: superusers hold every role, others their groups' roles; a
refused page names the role it needs."""

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from cardroom.core.roles import (
    READERS,
    RULING_WRITERS,
    Role,
    RoleRequired,
    has_role,
    may_open_or_close,
    role_required,
    roles_of,
    ruling_roles,
    who_is_needed,
)


@pytest.mark.django_db
def test_groups_give_roles(floor_manager, director, staff, no_role_user, superuser) -> None:  # type: ignore[no-untyped-def]
    assert roles_of(floor_manager) == {Role.FLOOR_MANAGER}
    assert roles_of(director) == {Role.DIRECTOR}
    assert roles_of(staff) == {Role.STAFF}
    assert roles_of(no_role_user) == set()
    assert roles_of(superuser) == set(Role)
    assert roles_of(AnonymousUser()) == set()
    assert has_role(staff, *READERS) and not has_role(staff, Role.DIRECTOR)


@pytest.mark.django_db
def test_role_required_answers_403_to_other_roles(staff, director) -> None:  # type: ignore[no-untyped-def]
    @role_required(Role.DIRECTOR)
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")

    request = RequestFactory().get("/")
    request.user = director
    assert view(request).status_code == 200
    request.user = staff
    with pytest.raises(PermissionDenied):
        view(request)


@pytest.mark.django_db
def test_the_three_groups_exist_after_migrating() -> None:
    from django.contrib.auth.models import Group

    assert set(Group.objects.values_list("name", flat=True)) >= {r.value for r in Role}


def test_the_refusal_names_the_roles_a_view_needs(staff) -> None:  # type: ignore[no-untyped-def]
    @role_required(Role.FLOOR_MANAGER, Role.DIRECTOR)
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")

    request = RequestFactory().get("/")
    request.user = staff
    with pytest.raises(RoleRequired) as refused:
        view(request)
    assert refused.value.roles == (Role.FLOOR_MANAGER, Role.DIRECTOR)
    assert str(refused.value) == "This needs a floor manager or a tournament director."


@pytest.mark.parametrize(
    ("roles", "words"),
    [
        ((Role.DIRECTOR,), "a tournament director"),
        ((Role.FLOOR_MANAGER,), "a floor manager"),
        ((Role.DIRECTOR, Role.FLOOR_MANAGER), "a floor manager or a tournament director"),
        (READERS, "a role on the floor (floor manager, tournament director, cashier or staff)"),
    ],
)
def test_who_is_needed_reads_as_the_floor_says_it(roles: tuple[Role, ...], words: str) -> None:
    assert who_is_needed(roles) == words


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("persona", "url", "words"),
    [
        ("staff", "/rulings/new/", "This needs a floor manager or a tournament director."),
        ("floor_manager", "/tournaments/new/", "This needs a tournament director."),
        ("staff", "/tables/new/", "This needs a floor manager."),
        ("director", "/tables/new/", "This needs a floor manager."),
        ("no_role_user", "/floor/", "This needs a role on the floor"),
    ],
)
def test_the_403_page_has_the_navigation_and_names_the_role(
    persona_client, persona: str, url: str, words: str
) -> None:  # type: ignore[no-untyped-def]
    response = persona_client(persona).get(url)
    assert response.status_code == 403
    html = response.content.decode()
    assert words in html
    assert '<nav aria-label="Main">' in html and 'href="/rulebook/"' in html
    assert "Ask a floor manager if you need it" not in html
    if persona != "no_role_user":
        assert 'href="/rulings/"' in html and 'href="/floor/"' in html


@pytest.mark.django_db
def test_a_post_refused_for_want_of_a_role_names_it_too(persona_client) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    from tests.factories import make_hand

    hand = make_hand()
    response = persona_client("staff").post(reverse("cardroom:desk_act", args=[hand.pk]), {})
    assert response.status_code == 403
    assert "This needs a floor manager or a tournament director." in response.content.decode()


@pytest.mark.django_db
def test_api_403s_keep_their_json_shape(api_client_for) -> None:  # type: ignore[no-untyped-def]
    response = api_client_for("staff").post("/api/v1/rulings/", {}, format="json")
    assert response.status_code == 403
    assert response.json() == {
        "error": {"code": "permission_denied", "message": "Your role does not allow this."}
    }


@pytest.mark.django_db
def test_the_403_handler_answers_json_under_the_api(staff) -> None:  # type: ignore[no-untyped-def]
    from cardroom.views import error_403

    request = RequestFactory().get("/api/v1/tables/")
    request.user = staff
    response = error_403(request, RoleRequired(Role.DIRECTOR))
    assert response.status_code == 403
    assert json.loads(response.content) == {
        "error": {"code": "permission_denied", "message": "Your role does not allow this."}
    }


# --- roles that fit a floor ----------------------------------------------------------------


def test_a_cash_ruling_is_a_floor_managers_or_a_directors_a_tournaments_the_directors() -> None:
    assert ruling_roles(tournament=False) == RULING_WRITERS == (Role.FLOOR_MANAGER, Role.DIRECTOR)
    assert ruling_roles(tournament=True) == (Role.DIRECTOR,)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("persona", "opening", "tournament_table", "in_play", "allowed"),
    [
        # A floor manager opens and closes any table.
        ("floor_manager", True, False, False, True),
        ("floor_manager", False, True, True, True),
        # A director: the tables a tournament is drawn to, open while it plays there...
        ("director", True, True, True, True),
        ("director", False, True, True, False),
        # ...closed once no tournament needs it; never a cash table, nor one nobody plays at.
        ("director", False, True, False, True),
        ("director", True, True, False, False),
        ("director", True, False, False, False),
        ("director", False, False, False, False),
        # Staff read only; a superuser does everything.
        ("staff", True, True, True, False),
        ("staff", False, True, False, False),
        ("superuser", False, False, False, True),
    ],
)
def test_who_opens_and_closes_a_table(
    request: pytest.FixtureRequest,
    persona: str,
    opening: bool,
    tournament_table: bool,
    in_play: bool,
    allowed: bool,
) -> None:
    user = request.getfixturevalue(persona)
    assert (
        may_open_or_close(user, opening=opening, tournament_table=tournament_table, in_play=in_play)
        is allowed
    )


@pytest.fixture
def rulebook(db: None) -> None:
    from django.core.management import call_command

    call_command("load_rulebook", verbosity=0)


RULING = {"situation": "Seat 2 pushed out two chips", "decision": "Call", "cite": ["TDA-45"]}


@pytest.fixture
def tables(director) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """A cash table 4, and a tournament's table 101 (closed: nobody opened it yet)."""
    from cardroom.tables.models import Table
    from tests.factories import make_table
    from tests.tournaments.factories import make_tournament

    cash = make_table(number=4)
    tournament = make_tournament(by=director, tables=1, entrants=4, name="Sunday Deepstack")
    Table.objects.filter(number=101).update(status="closed")
    return {"cash": cash, "tournament": tournament, "room": Table.objects.get(number=101)}


@pytest.mark.django_db
def test_a_floor_manager_logs_a_cash_ruling_on_the_page_and_in_the_api(
    rulebook: None, tables: dict[str, Any], persona_client, api_client_for
) -> None:  # type: ignore[no-untyped-def]
    from cardroom.rulings.models import Ruling

    client = persona_client("floor_manager")
    assert client.get("/rulings/new/?table=4").status_code == 200
    assert client.get("/rulings/cite/?q=chips").status_code == 200
    assert client.post("/rulings/new/", {**RULING, "table": 4}).status_code == 302
    api = api_client_for("floor_manager").post(
        "/api/v1/rulings/",
        {"table": 4, "situation": "s", "decision": "d", "citations": [{"rule": "TDA-45"}]},
        format="json",
    )
    assert api.status_code == 201, api.content
    assert [r.director.username for r in Ruling.objects.order_by("pk")] == ["fm", "fm"]


@pytest.mark.django_db
def test_a_tournament_ruling_is_the_directors_alone(
    rulebook: None, tables: dict[str, Any], persona_client, api_client_for
) -> None:  # type: ignore[no-untyped-def]
    from cardroom.rulings.models import Ruling

    page = persona_client("floor_manager").post("/rulings/new/", {**RULING, "table": 101})
    assert page.status_code == 403
    html = page.content.decode()
    # Said on the form, with what was typed kept for the director.
    assert "A ruling at Table 101, a tournament table, needs a tournament director." in html
    assert "Seat 2 pushed out two chips" in html
    body = {"table": 101, "situation": "s", "decision": "d", "citations": [{"rule": "TDA-45"}]}
    api = api_client_for("floor_manager").post("/api/v1/rulings/", body, format="json")
    assert api.status_code == 403
    assert api.json()["error"] == {
        "code": "permission_denied",
        "message": "A ruling at Table 101, a tournament table, needs a tournament director.",
    }
    assert not Ruling.objects.exists()
    assert (
        persona_client("director").post("/rulings/new/", {**RULING, "table": 101}).status_code
        == 302
    )
    assert (
        api_client_for("director").post("/api/v1/rulings/", body, format="json").status_code == 201
    )
    assert persona_client("staff").post("/rulings/new/", {**RULING, "table": 4}).status_code == 403


@pytest.mark.django_db
def test_a_floor_manager_does_not_amend_a_tournaments_ruling(
    rulebook: None, tables: dict[str, Any], director, persona_client
) -> None:  # type: ignore[no-untyped-def]
    from cardroom.rulings.services import log_ruling

    ruling = log_ruling(
        table=tables["room"], director=director, situation="s", decision="d",
        citations=[("TDA-45", "")],
    )  # fmt: skip
    detail = persona_client("floor_manager").get(f"/rulings/{ruling.pk}/").content.decode()
    assert "Amend or record appeal" not in detail
    amended = persona_client("floor_manager").post(
        f"/rulings/new/?amends={ruling.pk}", {**RULING, "table": 101, "kind": "amendment"}
    )
    assert amended.status_code == 403
    assert (
        "Amend or record appeal"
        in persona_client("director").get(f"/rulings/{ruling.pk}/").content.decode()
    )


@pytest.mark.django_db
def test_a_director_opens_the_closed_table_their_tournament_was_drawn_to(
    tables: dict[str, Any], persona_client
) -> None:  # type: ignore[no-untyped-def]
    tournament, room = tables["tournament"], tables["room"]
    page = f"/tournaments/{tournament.pk}/"
    director = persona_client("director")
    assert "Open room table 101" in director.get(page).content.decode()
    opened = director.post("/tables/101/status/", {"status": "open", "back": page})
    assert opened.status_code == 302 and opened["Location"] == page
    room.refresh_from_db()
    assert room.status == "open"
    assert "Open room table 101" not in director.get(page).content.decode()
    # While the tournament plays there, closing it is a floor manager's call.
    closing = director.post("/tables/101/status/", {"status": "closed"})
    assert closing.status_code == 403
    assert "Closing Table 101 while its tournament plays needs a floor manager." in (
        closing.content.decode()
    )
    # A cash table is never the director's to open or close; staff open nothing.
    assert director.post("/tables/4/status/", {"status": "closed"}).status_code == 403
    assert (
        persona_client("staff").post("/tables/101/status/", {"status": "closed"}).status_code == 403
    )
    room.refresh_from_db()
    assert room.status == "open"


@pytest.mark.django_db
def test_a_director_closes_a_table_once_its_tournament_no_longer_needs_it(
    tables: dict[str, Any], persona_client
) -> None:  # type: ignore[no-untyped-def]
    from tournaments.models import Tournament, TournamentStatus

    room = tables["room"]
    room.status = "open"
    room.save(update_fields=["status"])
    Tournament.objects.filter(pk=tables["tournament"].pk).update(status=TournamentStatus.COMPLETE)
    director = persona_client("director")
    card = director.post(
        "/tables/101/status/", {"status": "closed", "from": "floor"}, headers={"HX-Request": "true"}
    )
    assert card.status_code == 200
    room.refresh_from_db()
    assert room.status == "closed"
    # Opening it again is not: no tournament is drawn to it any more.
    assert director.post("/tables/101/status/", {"status": "open"}).status_code == 403


def floor_card(html: str, number: int) -> str:
    start = html.index(f'<article id="card-{number}"')
    return html[start : html.index("</article>", start)]


@pytest.mark.django_db
def test_the_floor_cards_offer_each_role_what_it_may_do(
    tables: dict[str, Any], persona_client
) -> None:  # type: ignore[no-untyped-def]
    director = persona_client("director").get("/floor/").content.decode()
    assert 'name="status" value="open"' in floor_card(director, 101)  # their tournament's
    assert 'action="/tables/4/status/"' not in floor_card(director, 4)  # a cash table
    assert "/rulings/new/?table=101" in floor_card(director, 101)
    manager = persona_client("floor_manager").get("/floor/").content.decode()
    assert "/rulings/new/?table=4" in floor_card(manager, 4)
    assert "/rulings/new/?table=101" not in floor_card(manager, 101)  # the director's
    assert 'action="/tables/4/status/"' in floor_card(manager, 4)
    staff = persona_client("staff").get("/floor/").content.decode()
    assert "/rulings/new/" not in staff and "/status/" not in staff
