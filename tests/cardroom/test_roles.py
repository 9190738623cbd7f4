"""The one permission helper: superusers hold every role, others their groups' roles; a
refused page names the role it needs."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from cardroom.roles import (
    READERS,
    Role,
    RoleRequired,
    has_role,
    role_required,
    roles_of,
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
        (READERS, "a role on the floor (floor manager, tournament director or staff)"),
    ],
)
def test_who_is_needed_reads_as_the_floor_says_it(roles: tuple[Role, ...], words: str) -> None:
    assert who_is_needed(roles) == words


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("persona", "url", "words"),
    [
        ("staff", "/rulings/new/", "This needs a tournament director."),
        ("floor_manager", "/rulings/new/", "This needs a tournament director."),
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
