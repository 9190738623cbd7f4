"""Who may do what: the one place that decides permissions for views and API endpoints.

Four groups (created by data migrations): floor managers configure tables and games and
rule at cash tables, tournament directors run tournaments and rule anywhere on the floor,
cashiers take and pay a tournament's money, staff read. Superusers may do all. The README's Roles section is the same table in words.
"""

from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView


class Role(StrEnum):
    FLOOR_MANAGER = "Floor manager"
    DIRECTOR = "Tournament director"
    STAFF = "Staff"
    CASHIER = "Cashier"


#: Every role may read the floor, the tables, the rulings and the tournaments.
READERS: tuple[Role, ...] = (Role.FLOOR_MANAGER, Role.DIRECTOR, Role.STAFF, Role.CASHIER)
#: Who deals hands and enters and voids their actions (the desk and the hands API).
HAND_WRITERS: tuple[Role, ...] = (Role.FLOOR_MANAGER, Role.DIRECTOR)
#: Who enters and corrects a tournament's chip counts (a table's counts at a break, one
#: player's after a dispute): the director, or a floor manager counting a table for them, as
#: they already deal and push its hands at the desk (``HAND_WRITERS``), which write the same
#: counts. Where chips go when they leave a player (to another, or out of play) is a ruling
#: at a tournament's table: the director's alone (``ruling_roles``).
CHIP_COUNTERS: tuple[Role, ...] = (Role.FLOOR_MANAGER, Role.DIRECTOR)
#: Who takes a tournament's money (entries, re-entries, rebuys, add-ons, refunds) and pays its
#: prizes and bounties: the cashier, or the director where the room has no cage. Setting the
#: prices, the payout table and a deal is the director's alone.
MONEY_TAKERS: tuple[Role, ...] = (Role.DIRECTOR, Role.CASHIER)
#: Who logs rulings at all (the ruling form, its citation picker, the rulings API): which of
#: them may log a given ruling depends on its table (``ruling_roles``).
RULING_WRITERS: tuple[Role, ...] = (Role.FLOOR_MANAGER, Role.DIRECTOR)

User = AbstractBaseUser | AnonymousUser


def roles_of(user: Any) -> frozenset[Role]:
    """The roles a user holds, cached on the user object for the request."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    cached: frozenset[Role] | None = getattr(user, "_cardroom_roles", None)
    if cached is None:
        if user.is_superuser:
            cached = frozenset(Role)
        else:
            names = set(user.groups.values_list("name", flat=True))
            cached = frozenset(role for role in Role if role.value in names)
        user._cardroom_roles = cached
    return cached


def has_role(user: Any, *roles: Role) -> bool:
    """True when the user holds any of ``roles`` (superusers hold every role)."""
    return bool(roles_of(user) & set(roles))


def can_read(user: Any) -> bool:
    return has_role(user, *READERS)


def ruling_roles(*, tournament: bool) -> tuple[Role, ...]:
    """Who may log a ruling: at a cash table the floor manager, or a director on the floor;
    at a tournament's table (and amending or appealing a tournament's ruling) the tournament
    director alone, whose decision is the tournament's."""
    return (Role.DIRECTOR,) if tournament else RULING_WRITERS


def may_open_or_close(user: Any, *, opening: bool, tournament_table: bool, in_play: bool) -> bool:
    """Who opens and closes a room table: a floor manager any table; a director the tables a
    tournament uses: open while a tournament in play is drawn to it (so its desk can deal),
    closed once no tournament needs it any more (broken, or the tournament over).
    ``tournament_table``: some tournament uses it; ``in_play``: one still playing there."""
    if has_role(user, Role.FLOOR_MANAGER):
        return True
    if not has_role(user, Role.DIRECTOR) or not tournament_table:
        return False
    return in_play if opening else not in_play


#: A role as the floor says it in a sentence ("This needs a tournament director.").
WHO: dict[Role, str] = {
    Role.FLOOR_MANAGER: "a floor manager",
    Role.DIRECTOR: "a tournament director",
    Role.STAFF: "a member of staff",
    Role.CASHIER: "a cashier",
}


def who_is_needed(roles: Iterable[Role]) -> str:
    """``"a floor manager or a tournament director"``; any role of the floor for readers."""
    wanted = [role for role in Role if role in set(roles)]
    if set(wanted) == set(READERS):
        return "a role on the floor (floor manager, tournament director, cashier or staff)"
    if len(wanted) <= 1:
        return "".join(WHO[role] for role in wanted)
    return ", ".join(WHO[role] for role in wanted[:-1]) + " or " + WHO[wanted[-1]]


class RoleRequired(PermissionDenied):
    """Refused for want of a role: carries the roles the page needs, so the 403 page can say
    who may do it instead of a vague "not allowed"."""

    def __init__(self, *roles: Role, doing: str = "This") -> None:
        self.roles = roles
        super().__init__(f"{doing} needs {who_is_needed(roles)}.")


def refusal_context(exception: Exception | None) -> dict[str, Any]:
    """What the 403 page says: the role needed when the refusal names one, and (unless any
    role would do) who on the floor can do it instead."""
    roles: tuple[Role, ...] = getattr(exception, "roles", ())
    if not roles:
        return {}
    readers = set(roles) == set(READERS)
    return {
        "said": str(exception),  # "Closing Table 21 while its tournament plays needs ..."
        "needed": who_is_needed(roles),
        "ask": None if readers else who_is_needed(roles),
    }


def role_required[R: HttpResponseBase](
    *roles: Role,
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """View decorator: 403 for a signed-in user without one of ``roles``, naming them.

    Anonymous users never reach it: ``LoginRequiredMiddleware`` sends them to log in.
    """

    def decorator(view: Callable[..., R]) -> Callable[..., R]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> R:
            if not has_role(request.user, *roles):
                raise RoleRequired(*roles)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def role_permission(
    *, read: Iterable[Role] = READERS, write: Iterable[Role]
) -> type[BasePermission]:
    """A DRF permission class: safe methods need a ``read`` role, the others a ``write`` role."""
    read_roles, write_roles = tuple(read), tuple(write)

    class RolePermission(BasePermission):
        message = "Your role does not allow this."

        def has_permission(self, request: Request, view: APIView) -> bool:
            if not request.user or not request.user.is_authenticated:
                return False
            wanted = read_roles if request.method in SAFE_METHODS else write_roles
            return has_role(request.user, *wanted)

    RolePermission.__name__ = f"RolePermission_{'_'.join(r.name for r in write_roles)}"
    return RolePermission


#: The main navigation: label, URL name, and whether a reader role is needed to see it.
NAVIGATION: tuple[tuple[str, str, bool], ...] = (
    ("Floor", "cardroom:floor", True),
    ("Waitlist", "cardroom:waitlists", True),
    ("Tables", "cardroom:table_list", True),
    ("Rulings", "cardroom:ruling_list", True),
    ("Tournaments", "tournaments:list", True),
    ("Rulebook", "rules:search", False),
)


def roles_context(request: HttpRequest) -> dict[str, Any]:
    """Template context: what the signed-in user may do, for showing the right buttons.

    Views still check permissions themselves; this only decides what is offered.
    """
    roles = roles_of(getattr(request, "user", None))
    links = [
        (label, reverse(url_name))
        for label, url_name, needs_role in NAVIGATION
        if roles or not needs_role
    ]
    # One current link: the longest that the page's path starts with (/floor/waitlists/ is
    # the waitlists', not the floor's).
    path = getattr(request, "path", "")
    here = max((url for _, url in links if path.startswith(url)), key=len, default=None)
    return {
        "nav_items": [{"label": label, "url": url, "current": url == here} for label, url in links],
        "user_roles": roles,
        "is_floor_manager": Role.FLOOR_MANAGER in roles,
        "is_director": Role.DIRECTOR in roles,
        "can_count_chips": bool(roles & set(CHIP_COUNTERS)),
        "can_log_rulings": bool(roles & set(RULING_WRITERS)),
        "can_read": bool(roles),
    }
