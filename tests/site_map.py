"""Every URL pattern of the site, found by walking the URL configuration, and a room full of
real objects to fill their path parameters (for the permission matrix and the escaping sweep).

``ROUTES`` says which object fills each parameter of each pattern; the tests assert that it
names exactly the patterns the resolver has, so a new URL cannot go untested.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.tournaments.factories import bust

#: Patterns left out of the sweeps, and why (keyed by namespace or name).
SKIPPED: dict[str, str] = {
    "admin": "Django's admin site: its own is_staff log-in and permissions, tested by Django.",
}


@dataclass(frozen=True)
class Pattern:
    name: str  # "namespace:name", or the route when the pattern has no name
    route: str


def _walk(patterns: list[Any], prefix: str, namespace: str | None) -> list[Pattern]:
    found = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            found += _walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            route = prefix + str(entry.pattern)
            name = (f"{namespace}:{entry.name}" if namespace else entry.name) or route
            found.append(Pattern(name=name, route=route))
    return found


def discover() -> dict[str, Pattern]:
    """Every pattern of the root URL configuration, by name, minus ``SKIPPED``."""
    patterns = _walk(get_resolver().url_patterns, "", None)
    kept = [p for p in patterns if p.name.split(":")[0] not in SKIPPED and p.name not in SKIPPED]
    by_name = {p.name: p for p in kept}
    assert len(by_name) == len(kept), "two URL patterns share a name"
    return by_name


#: Pattern name -> {path parameter: key of the world (see ``build_world``)}.
ROUTES: dict[str, dict[str, str]] = {
    "home": {},
    "login": {},
    "admin_login": {},
    "logout": {},
    "healthz": {},
    "favicon": {},
    "schema": {},
    "api-docs": {},
    # floor pages
    "cardroom:table_list": {},
    "cardroom:table_create": {},
    "cardroom:table_validate": {},
    "cardroom:table_detail": {"number": "table_number"},
    "cardroom:table_edit": {"number": "table_number"},
    "cardroom:table_status": {"number": "table_number"},
    "cardroom:desk": {"number": "table_number"},
    "cardroom:desk_deal": {"number": "table_number"},
    "cardroom:desk_act": {"hand_id": "hand"},
    "cardroom:desk_interpret": {"hand_id": "hand"},
    "cardroom:desk_void": {"hand_id": "hand", "what": "void_what"},
    "cardroom:desk_award": {"hand_id": "hand"},
    "cardroom:desk_next": {"number": "table_number"},
    "cardroom:seat_add": {"number": "table_number"},
    "cardroom:seat_change": {"number": "table_number", "seat": "seat", "what": "seat_what"},
    "cardroom:player_names": {"number": "table_number"},
    "cardroom:floor": {},
    "cardroom:floor_updates": {},
    "cardroom:audit": {},
    "cardroom:audit_status": {},
    "cardroom:audit_verify": {},
    "cardroom:board": {},
    "cardroom:board_live": {},
    "cardroom:waitlists": {},
    "cardroom:waitlist_add": {},
    "cardroom:waitlist_open": {},
    "cardroom:waitlist_call": {"entry_id": "waitlist_entry"},
    "cardroom:waitlist_seat": {"entry_id": "waitlist_entry"},
    "cardroom:waitlist_release": {"entry_id": "waitlist_entry"},
    "cardroom:waitlist_check_in": {"entry_id": "waitlist_entry"},
    "cardroom:waitlist_remove": {"entry_id": "waitlist_entry"},
    "cardroom:waitlist_reorder": {"entry_id": "waitlist_entry"},
    "cardroom:waitlist_start": {"list_id": "game_list"},
    "cardroom:must_move_create": {},
    "cardroom:must_move_action": {"must_move_id": "must_move", "what": "must_move_what"},
    "cardroom:kiosk": {},
    "cardroom:ruling_list": {},
    "cardroom:ruling_export": {},
    "cardroom:ruling_create": {},
    "cardroom:ruling_cite_search": {},
    "cardroom:ruling_cite_add": {},
    "cardroom:ruling_detail": {"ruling_id": "ruling"},
    "cardroom:player_search": {},
    "cardroom:player_detail": {"player_id": "player"},
    "cardroom:player_bar": {"player_id": "player"},
    # rulebook pages
    "rules:search": {},
    "rules:house_rule_create": {},
    "rules:rule_detail": {"citation_id": "rule"},
    "rules:house_rule_edit": {"citation_id": "house_rule"},
    "rules:import": {},
    "rules:import_preview": {"token": "import_preview"},
    "rules:edition": {"code": "room_book", "number": "edition"},
    # tournament pages
    "tournaments:list": {},
    "tournaments:create": {},
    "tournaments:detail": {"pk": "tournament"},
    "tournaments:entrant_register": {"pk": "tournament"},
    "tournaments:entrant_eliminate": {"pk": "tournament", "number": "entrant"},
    "tournaments:entrant_reinstate": {"pk": "tournament", "number": "entrant"},
    "tournaments:seat_card": {"pk": "tournament", "number": "entrant"},
    "tournaments:last_draw_cards": {"pk": "tournament"},
    "tournaments:count_correct": {"pk": "tournament", "number": "entrant"},
    "tournaments:chips_move": {"pk": "tournament", "number": "entrant"},
    "tournaments:table_counts": {"pk": "tournament", "number": "tournament_table"},
    "tournaments:registration_close": {"pk": "tournament"},
    "tournaments:reserve_seat": {"pk": "tournament"},
    "tournaments:wrong_seat": {"pk": "tournament"},
    "tournaments:hand_for_hand": {"pk": "tournament"},
    "tournaments:ante_type": {"pk": "tournament"},
    "tournaments:table_button": {"pk": "tournament", "number": "tournament_table"},
    "tournaments:break_screen": {"pk": "tournament", "room": "tournament_room_table"},
    "tournaments:draws": {"pk": "tournament"},
    "tournaments:draw_commit": {"pk": "tournament"},
    "tournaments:draw_detail": {"pk": "tournament", "number": "draw"},
    "tournaments:draw_deal": {"pk": "tournament", "number": "draw"},
    "tournaments:draw_verify": {"pk": "tournament", "number": "draw"},
    "tournaments:balance": {"pk": "tournament"},
    "tournaments:balance_check": {"pk": "tournament"},
    "tournaments:balance_apply": {"pk": "tournament", "check_id": "balance_check"},
    "tournaments:results": {"pk": "tournament"},
    "tournaments:results_csv": {"pk": "tournament"},
    "tournaments:deal": {"pk": "tournament"},
    "tournaments:payouts": {"pk": "tournament"},
    "tournaments:payouts_edit": {"pk": "tournament"},
    "tournaments:payout_pay": {"pk": "tournament", "number": "entrant"},
    "tournaments:payout_slip": {"pk": "tournament", "number": "entrant"},
    "tournaments:money": {"pk": "tournament"},
    "tournaments:money_prices": {"pk": "tournament"},
    "tournaments:money_pay": {"pk": "tournament", "number": "entrant"},
    "tournaments:deal_record": {"pk": "tournament"},
    "tournaments:deal_sheet": {"pk": "raced_tournament"},
    "tournaments:bounties": {"pk": "tournament"},
    "tournaments:bounty_pay": {"pk": "tournament", "number": "entrant"},
    "tournaments:clock": {"pk": "tournament"},
    "tournaments:clock_action": {"pk": "tournament"},
    "tournaments:structure_time": {"pk": "tournament"},
    "tournaments:structure_step": {"pk": "tournament", "level_id": "level"},
    "tournaments:structure_insert": {"pk": "tournament"},
    "tournaments:structure_add": {"pk": "tournament"},
    "tournaments:chip_set": {"pk": "tournament"},
    "tournaments:chip_save": {"pk": "tournament"},
    "tournaments:chip_delete": {"pk": "tournament"},
    "tournaments:chip_race": {"pk": "tournament", "number": "tournament_table"},
    "tournaments:chip_race_result": {"pk": "raced_tournament", "race_id": "chip_race"},
    "tournaments:clock_display": {"pk": "tournament"},
    "tournaments:clock_state": {"pk": "tournament"},
    "tournaments:reconciliation": {"pk": "tournament"},
    "tournaments:money_day": {},
    # API
    "api:table-list": {},
    "api:table-detail": {"pk": "table_pk"},
    "api:ruling-list": {},
    "api:ruling-detail": {"pk": "ruling"},
    "api:tournament-list": {},
    "api:tournament-detail": {"pk": "tournament"},
    "api:betting-evaluate": {},
    "api:betting-interpret": {},
    "api:betting-award": {},
    "api:deals-quote": {},
    "api:table-hands": {"table_id": "table_pk"},
    "api:table-betting-evaluate": {"table_id": "table_pk"},
    "api:hand-detail": {"pk": "hand"},
    "api:hand-actions": {"hand_id": "hand"},
    "api:hand-void-last": {"hand_id": "hand"},
    "api:hand-void": {"hand_id": "hand"},
    "api:rule-list": {},
    "api:rule-detail": {"citation_id": "rule"},
    "api:tournament-entrants": {"pk": "tournament"},
    "api:tournament-eliminate": {"pk": "tournament", "number": "entrant"},
    "api:tournament-eliminations": {"pk": "tournament"},
    "api:tournament-reinstate": {"pk": "tournament", "number": "entrant"},
    "api:tournament-reinstatements": {"pk": "tournament"},
    "api:tournament-chips": {"pk": "tournament"},
    "api:tournament-count": {"pk": "tournament", "number": "entrant"},
    "api:tournament-chips-move": {"pk": "tournament", "number": "entrant"},
    "api:tournament-payments": {"pk": "tournament"},
    "api:tournament-table-counts": {"pk": "tournament", "number": "tournament_table"},
    "api:tournament-registration-close": {"pk": "tournament"},
    "api:tournament-seating": {"pk": "tournament"},
    "api:tournament-moves": {"pk": "tournament"},
    "api:tournament-draws": {"pk": "tournament"},
    "api:tournament-draw": {"pk": "tournament", "number": "draw"},
    "api:tournament-draw-deal": {"pk": "tournament", "number": "draw"},
    "api:tournament-draw-verify": {"pk": "tournament", "number": "draw"},
    "api:tournament-balance": {"pk": "tournament"},
    "api:tournament-balance-apply": {"pk": "tournament", "check_id": "balance_check"},
    "api:tournament-reservations": {"pk": "tournament"},
    "api:tournament-wrong-seat": {"pk": "tournament"},
    "api:tournament-button": {"pk": "tournament", "number": "tournament_table"},
    "api:tournament-hand-for-hand": {"pk": "tournament"},
    "api:tournament-ante": {"pk": "tournament"},
    "api:tournament-clock": {"pk": "tournament"},
    "api:tournament-structure": {"pk": "tournament"},
    "api:tournament-structure-time": {"pk": "tournament"},
    "api:tournament-structure-add": {"pk": "tournament"},
    "api:tournament-structure-step": {"pk": "tournament", "level_id": "level"},
    "api:tournament-structure-delete": {"pk": "tournament", "level_id": "level"},
    "api:table-seats": {"table_id": "table_pk"},
    "api:table-seat": {"table_id": "table_pk", "seat": "seat"},
    "api:table-next-hand": {"table_id": "table_pk"},
    "api:hand-award": {"hand_id": "hand"},
    "api:player-search": {},
    "api:waitlists": {},
    "api:waitlist": {"list_id": "game_list"},
    "api:waitlist-entries": {"list_id": "game_list"},
    "api:waitlist-start-game": {"list_id": "game_list"},
    "api:entry": {"entry_id": "waitlist_entry"},
    "api:entry-call": {"entry_id": "waitlist_entry"},
    "api:entry-seat": {"entry_id": "waitlist_entry"},
    "api:must-moves": {},
    "api:must-move-end": {"must_move_id": "must_move"},
    "api:must-move-next": {"must_move_id": "must_move"},
    "api:room-settings": {},
    "api:kiosk-entries": {},
}


def url_of(name: str, world: dict[str, Any]) -> str:
    return reverse(name, kwargs={param: world[key] for param, key in ROUTES[name].items()})


def plain(field: str) -> str:
    return f"Plain words for {field}"


def build_world(*, text: Callable[[str], str] = plain) -> dict[str, Any]:
    """A room with one of everything a URL can name, each free-text field set to
    ``text(field)`` (give it markup to check escaping). Built through the services, as the
    pages do."""
    from django.core.management import call_command

    from cardroom.core.roles import Role
    from cardroom.rulings.services import log_ruling
    from cardroom.tables.services import (
        record_action,
        start_hand,
        update_table,
        void_hand,
        void_last_action,
    )
    from rules import imports
    from rules.services import create_house_rule
    from tests.factories import make_table, make_user
    from tests.tournaments.factories import make_tournament
    from tournaments import balance_checks, director_seats, draw_services, eliminations, setup
    from tournaments.models import Entrant, SeatAssignment, TournamentTable

    call_command("load_rulebook", verbosity=0)
    manager = make_user(username="world-fm", role=Role.FLOOR_MANAGER)
    director = make_user(username="world-td", role=Role.DIRECTOR)
    cashier = make_user(username="world-cashier", role=Role.CASHIER)

    table = make_table(number=7, by=manager, name=text("table.name"))
    update_table(table=table, by=manager, max_buy_in=300)  # a second row in its history
    seats = [{"seat": s, "stack": 200} for s in (1, 2, 3)]
    # Hand 1: an action taken back, then the whole hand called dead.
    dead = start_hand(table=table, by=manager, button=1, seats=seats)
    record_action(hand=dead, by=manager, expected_seq=0, seat=1, action="fold")
    void_last_action(hand=dead, by=manager, expected_seq=1, reason=text("action.void_reason"))
    void_hand(hand=dead, by=manager, expected_seq=2, reason=text("hand.void_reason"))
    # Hand 2, in progress, with a voided action on record.
    hand = start_hand(table=table, by=manager, button=1, seats=seats)
    record_action(hand=hand, by=manager, expected_seq=0, seat=1, action="call")
    void_last_action(hand=hand, by=manager, expected_seq=1, reason=text("action.void_reason"))
    hand.refresh_from_db()
    ruling = log_ruling(
        table=table, director=director, hand=hand, seats=[1], situation=text("ruling.situation"),
        decision=text("ruling.decision"), citations=[("TDA-45", text("citation.note"))],
    )  # fmt: skip
    house = create_house_rule(
        by=manager, title=text("house_rule.title"), text=text("house_rule.text")
    )
    # The room's own rulebook, imported from a file: one edition saved, the next previewed.
    room_book = (
        f"Rule 1: Phones {text('room_rule.title')}\n{text('room_rule.text')}\n"
        f"Example 1: {text('room_rule.example')}\n"
    ).encode()
    edition = imports.confirm_import(
        draft=imports.stage_import(
            by=manager, name="room.txt", data=room_book, code="ROOM", label="2025"
        ),
        by=manager,
    )
    preview = imports.stage_import(
        by=manager, name="room.md", data=room_book + b"Rule 2: Phones\nNo calls.\n",
        code="ROOM", label="2026",
    )  # fmt: skip

    tournament = make_tournament(by=director, tables=3, entrants=16, name=text("tournament.name"))
    seated, out = setup.register_entrants(
        tournament=tournament, names=[text("entrant.name"), text("entrant.name") + " again"],
        by=director, special_needs=text("entrant.special_needs"),
    )  # fmt: skip
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    # TDA 9 once play has begun: the player moves to the reserved seat (a move with the reason).
    first_table = TournamentTable.objects.get(tournament=tournament, number=1)
    taken = set(
        SeatAssignment.objects.filter(table=first_table, ended_at__isnull=True).values_list(
            "seat", flat=True
        )
    )
    free = min(set(range(1, first_table.seats + 1)) - taken)
    director_seats.reserve_seat(
        entrant=seated, table=first_table, seat=free, reason=text("reservation.reason"),
        by=director,
    )  # fmt: skip
    director_seats.correct_wrong_seat(
        entrant=seated, found_table=3, found_seat=9, note=text("seat_move.note"), by=director
    )
    bust(entrant=Entrant.objects.get(pk=out.pk), by=director)
    # An "Out" clicked by mistake, undone by the director (the reason is free text).
    misclicked = Entrant.objects.get(tournament=tournament, number=1)
    bust(entrant=misclicked, by=director)
    eliminations.reinstate_player(
        entrant=misclicked, by=director, reason=text("reinstatement.reason")
    )
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    race = chip_race(director, text)
    # The raced table's three agree a deal (the deal sheet's page).
    from tournaments.money.deals import record_deal

    record_deal(
        tournament=race.tournament, method="icm", prizes=[500, 300, 200], play_for=0,
        agreed=list(race.tournament.entrants.values_list("pk", flat=True)), by=director,
    )  # fmt: skip
    # The cash game's waitlist: a list for the table's game, a call-in on it.
    from cardroom.waitlists import services as waitlists

    game_list = waitlists.open_list(
        variant=table.variant, structure=table.structure, small_blind=table.small_blind,
        big_blind=table.big_blind, by=manager,
    )  # fmt: skip
    waiting = waitlists.add_to_list(
        game_list=game_list, name=text("player.name"), alias=text("player.alias")[:40],
        source="call_in", by=manager,
    )  # fmt: skip
    from cardroom.waitlists.tables import create_must_move

    must_move = create_must_move(table=table, main=game_list, by=manager)
    # Two players in the table's seat map: the seat API's seat 4 and a proposal.
    from cardroom.seats import services as players

    for number, name in ((4, "Ana Ruiz"), (5, "Bo Lind")):
        player = players.find_or_create_player(name=name, by=manager)
        players.seat_player(table=table, player=player, seat=number, buy_in=100, by=manager)
    showdown = showdown_table(manager, text)
    return {
        "manager": manager,
        "director": director,
        "cashier": cashier,
        "table_number": table.number,
        "table_pk": table.pk,
        "hand": hand.pk,
        "void_what": "last",
        "ruling": ruling.pk,
        "rule": "TDA-45",
        "house_rule": house.citation_id,
        "import_preview": preview.token,
        "room_book": edition.rulebook.code,
        "edition": edition.number,
        "tournament": tournament.pk,
        "raced_tournament": race.tournament_id,
        "chip_race": race.pk,
        # The last step of its structure (the clock page's editor changes it).
        "level": tournament.levels.order_by("-number").values_list("pk", flat=True)[0],
        "tournament_table": 1,
        # The same table by its one name, the room's number (the break screen's address).
        "tournament_room_table": tournament.tables.get(number=1).table.number,
        "draw": 1,
        "entrant": seated.number,
        "balance_check": check.pk,
        "game_list": game_list.pk,
        "waitlist_entry": waiting.pk,
        "player": waiting.player_id,
        "seat": 4,
        "seat_what": "out",
        "must_move": must_move.pk,
        "must_move_what": "move",
        "showdown_table_number": showdown.number,
    }


def chip_race(director: Any, text: Callable[[str], str]) -> Any:
    """A one-table tournament whose 25s left play at its break, raced at the table."""
    from tests.tournaments.factories import make_tournament
    from tournaments import colour_ups, draw_services
    from tournaments.clock.services import advance_level

    levels = [
        {"small_blind": 25, "big_blind": 50, "minutes": 20},
        {"is_break": True, "minutes": 10},
        {"small_blind": 100, "big_blind": 200, "minutes": 20},
    ]
    raced = make_tournament(by=director, tables=1, entrants=3, first_table=401, levels=levels,
                            name=text("tournament.name") + " colour-up")  # fmt: skip
    draw_services.draw_initial_seating(tournament=raced, by=director)
    colour_ups.save_chip(tournament=raced, value=25, colour=text("chip.colour")[:30],
                         removed_at=2, by=director)  # fmt: skip
    colour_ups.save_chip(tournament=raced, value=100, colour="black", removed_at=None,
                         by=director)  # fmt: skip
    advance_level(tournament=raced, by=director)
    return colour_ups.run_chip_race(table=raced.tables.get(), by=director)


def showdown_table(manager: Any, text: Callable[[str], str]) -> Any:
    """Table 9, three players from its seat map checked down to the showdown: its desk shows
    the showdown's taps (a form no other desk of the world shows)."""
    from cardroom.seats import services as players
    from cardroom.tables import play as table_play
    from cardroom.tables.services import engine_state, record_action
    from tests.factories import make_table

    table = make_table(number=9, by=manager, name=text("table.name"))
    for number, name in ((1, "Cy Diaz"), (2, "Di Eng"), (3, "Ed Fox")):
        player = players.find_or_create_player(name=name, by=manager)
        players.seat_player(table=table, player=player, seat=number, buy_in=100, by=manager)
    hand = table_play.deal(table=table, by=manager)
    while (state := engine_state(hand)).to_act is not None:
        seat = state.to_act
        action = "call" if state.street_wager.get(seat, 0) < state.current_bet else "check"
        record_action(hand=hand, by=manager, expected_seq=hand.seq, seat=seat, action=action)
        hand.refresh_from_db()
    return table
