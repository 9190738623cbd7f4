"""The one permission helper: superusers hold every role, others their groups' roles."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from cardroom.roles import READERS, Role, has_role, role_required, roles_of


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
