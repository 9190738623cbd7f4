"""Demo data for a local run: a log-in per role, the rulebooks, tables, a tournament.

Idempotent: running it again updates what it made instead of duplicating it.
"""

from typing import Any

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.base import BaseCommand

from cardroom.core.roles import Role
from cardroom.tables.forms import PRESETS
from cardroom.tables.models import Table
from cardroom.tables.services import create_table
from tournaments.chip_counts import move_chips
from tournaments.draw_services import draw_initial_seating
from tournaments.eliminations import eliminate_player
from tournaments.models import Tournament
from tournaments.money.prices import set_prices
from tournaments.setup import create_tournament, register_entrants

DEMO_USERS: tuple[tuple[str, str, Role | None], ...] = (
    ("manager", "manager-demo", Role.FLOOR_MANAGER),
    ("director", "director-demo", Role.DIRECTOR),
    ("staff", "staff-demo", Role.STAFF),
    ("cashier", "cashier-demo", Role.CASHIER),
    ("admin", "admin-demo", None),
)


class Command(BaseCommand):
    help = "Create demo users for each role and demo floor data (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        for username, password, role in DEMO_USERS:
            user, _ = User.objects.get_or_create(username=username)
            user.set_password(password)
            user.is_superuser = user.is_staff = role is None
            user.save()
            if role is not None:
                user.groups.set([Group.objects.get(name=role.value)])
        for step in demo_steps():
            step(self)
        make_demo_tables(User.objects.get(username="manager"))
        make_demo_tournament(
            User.objects.get(username="manager"), User.objects.get(username="director")
        )
        self.stdout.write(
            self.style.SUCCESS("Demo data ready. Log in at http://127.0.0.1:8000/login/ as:")
        )
        for username, password, role in DEMO_USERS:
            self.stdout.write(
                f"  {username:<9} / {password:<14} {role.value if role else 'superuser'}"
            )


def demo_steps() -> list[Any]:
    """The other apps' demo loaders, in order (rulebooks first: rulings cite them)."""
    return [lambda cmd: call_command("load_rulebook", stdout=cmd.stdout)]


#: A Saturday-night floor: table number, preset, status, extra settings.
DEMO_TABLES: tuple[tuple[int, str, str, dict[str, Any]], ...] = (
    (1, "1-2-nl", "open", {}),
    (2, "1-2-nl", "open", {"straddle": 4}),
    (3, "2-5-nl", "open", {"straddle": 10, "name": "Feature table"}),
    (4, "5-10-plo", "open", {"pot_round_unit": 5}),
    (5, "4-8-limit", "open", {}),
    (6, "2-5-nl", "closed", {}),
)


def make_demo_tables(manager: User) -> None:
    for number, preset, status, extra in DEMO_TABLES:
        if Table.objects.filter(number=number).exists():
            continue
        settings = {k: v for k, v in PRESETS[preset].items() if k != "label"}
        create_table(by=manager, number=number, status=status, **settings, **extra)


DEMO_TOURNAMENT = "Saturday Deepstack"


def make_demo_tournament(manager: User, director: User) -> None:
    """Three tournament tables (21-23), 22 players drawn to their seats, one already out."""
    if Tournament.objects.filter(name=DEMO_TOURNAMENT).exists():
        return
    settings = {k: v for k, v in PRESETS["1-2-nl"].items() if k != "label"}
    for number in (21, 22, 23):
        if not Table.objects.filter(number=number).exists():
            create_table(by=manager, number=number, status="open", kind="tournament", **settings)
    tournament = create_tournament(
        by=director,
        name=DEMO_TOURNAMENT,
        tables=list(Table.objects.filter(number__in=(21, 22, 23))),
        levels=[
            {"small_blind": 100, "big_blind": 200, "minutes": 20},
            {"small_blind": 200, "big_blind": 400, "minutes": 20},
            {"small_blind": 300, "big_blind": 600, "ante": 600, "minutes": 20},
            {"is_break": True, "minutes": 15},
            {"small_blind": 400, "big_blind": 800, "ante": 800, "minutes": 20},
        ],
        ante_type="big_blind",  # the antes equal the big blind: a big-blind ante (CR-DM.2)
    )
    names = (
        "Ada", "Bea", "Cal", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit",
        "Lou", "Max", "Ned", "Oli", "Pia", "Quin", "Ray", "Sam", "Tess", "Uma", "Vic",
    )  # fmt: skip
    # The money: $100 to the prize pool, $15 house fee, $5 for the staff, one re-entry until
    # the break, an add-on at the break, and a $2,500 guarantee (22 entries fall short of it:
    # the payouts page shows the overlay). Every entry is paid as the player registers.
    set_prices(
        tournament=tournament, by=director, entry_prize=10_000, entry_fee=1_500,
        entry_staff=500, reentry_limit=1, reentry_last_level=3, addon_prize=5_000,
        addon_chips=10_000, addon_limit=1, addon_first_level=3, addon_last_level=4,
        guarantee=250_000,
    )  # fmt: skip
    register_entrants(tournament=tournament, names=names[:12], by=director, method="cash")
    register_entrants(tournament=tournament, names=names[12:], by=director, method="card")
    draw_initial_seating(tournament=tournament, by=director)
    # Number 7 lost a pot at the table away from the desk: the chips go to the player who won
    # it (RRoP-TR.18), then the player is out (a player holding chips is not put out).
    busted = tournament.entrants.get(number=7)
    table = busted.assignments.get(ended_at__isnull=True).table
    taker = table.assignments.filter(ended_at__isnull=True).exclude(entrant=busted).first()
    move_chips(
        from_entrant=busted, to_entrant=taker.entrant if taker else None, chips=busted.chips,
        reason="Lost the pot to the player next to them", by=director,
    )  # fmt: skip
    eliminate_player(entrant=busted, by=director)
