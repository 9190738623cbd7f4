"""Tournament pages. Thin views: role check, form, one service call, render.

Every page has its swappable regions as partials of the same template; a refusal from the seat
rules (``DrawError``) comes back as the region with the message (422), or as a flash message
and a redirect without htmx.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from cardroom.core.navigation import redirect_to
from cardroom.core.parsers import whole_number
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import READERS, Role, role_required
from tournaments import (
    balance_checks,
    director_seats,
    draw_services,
    eliminations,
    setup,
    table_hands,
)
from tournaments.chip_counts import reconcile
from tournaments.chip_forms import chips_out
from tournaments.clock.reading import read_clock
from tournaments.draws.errors import DrawError
from tournaments.entrant_pages import LAST_PAGE, entrant_list_context
from tournaments.forms import (
    AnteTypeForm,
    ButtonForm,
    EntrantForm,
    ReinstateForm,
    ReserveSeatForm,
    TournamentForm,
    WrongSeatForm,
)
from tournaments.models import (
    OUT_OF_PLAY,
    BalanceCheck,
    Draw,
    DrawKind,
    DrawStatus,
    Entrant,
    EntrantStatus,
    SeatAssignment,
    Tournament,
    TournamentAnte,
    TournamentStatus,
    TournamentTable,
)
from tournaments.money.models import Method
from tournaments.money.payouts import in_the_money, prize_of, prizes_owed
from tournaments.results import winner
from tournaments.seating import multi_table
from tournaments.table_names import (
    room_number,
    room_numbers,
    said_by_room,
    said_numbers,
    tournament_number,
    where,
)

TABLES_PER_PAGE = 24
MOVES_SHOWN = 200


def tournament_or_404(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def refused(
    request: HtmxRequest,
    exc: DrawError | ValidationError,
    url: str,
    rooms: dict[int, int] | None = None,
) -> HttpResponse:
    """A refusal: the message (with the rules it applies) on the page the director came from.
    ``rooms``: a draw's refusal names tables by the tournament's numbering; said by the room's."""
    text = exc.message if isinstance(exc, DrawError) else " ".join(exc.messages)
    if rooms is not None:
        text = said_by_room(text, rooms)
    if isinstance(exc, DrawError) and exc.citations:
        text += f" ({', '.join(exc.citations)}, {exc.edition})"
    if request.htmx:
        return render(request, "tournaments/refusal.html", {"message": text}, status=422)
    messages.error(request, text)
    return redirect(url)


def act(request: HtmxRequest, url: str, action: Callable[[], Any], done: str = "") -> HttpResponse:
    """Run one service call; on success go to ``url``, on a refusal say why."""
    try:
        action()
    except (DrawError, ValidationError) as exc:
        return refused(request, exc, url)
    if done:
        messages.success(request, done)
    return redirect_to(request, url)


# --- list, create, detail -----------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def tournament_list(request: AuthenticatedRequest) -> HttpResponse:
    tournaments = Tournament.objects.all()
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


@role_required(Role.DIRECTOR)
def tournament_create(request: AuthenticatedRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = setup.create_event(by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"{tournament} created.")
            return redirect_to(request, reverse("tournaments:detail", args=[tournament.pk]))
    status = 422 if form.is_bound else 200
    return render(request, "tournaments/form.html", {"form": form}, status=status)


def detail_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    tables = Paginator(tournament.tables.select_related("table"), TABLES_PER_PAGE).get_page(
        request.GET.get("tables")
    )
    live = SeatAssignment.objects.filter(
        tournament=tournament, ended_at__isnull=True, table__in=list(tables)
    ).select_related("entrant")
    seats: dict[int, dict[int, SeatAssignment]] = {}
    for assignment in live:
        seats.setdefault(assignment.table_id, {})[assignment.seat] = assignment
    table_map = [
        {
            "table": table,
            "seats": [(n, seats.get(table.pk, {}).get(n)) for n in range(1, table.seats + 1)],
            "players": len(seats.get(table.pk, {})),
        }
        for table in tables
    ]
    levels = list(tournament.levels.all())
    # Every table named by the room's number, the one name people see (``table_names``).
    rooms = room_numbers(tournament.pk)
    reinstatements = [
        (row, room_number(rooms, row.table_number))
        for row in tournament.reinstatements.select_related("entrant", "by")[:20]
    ]
    check = tournament.balance_checks.first()
    return {
        **published_orders(tournament, rooms),
        "to_break": said_numbers(rooms, check.tables_to_break)
        if check and check.tables_to_break
        else "",
        "tournament": tournament,
        "table_page": tables,
        "table_map": table_map,
        # Who is waiting, seated or out, a tab each with its count (``entrant_pages``).
        **entrant_list_context(tournament, request.GET.get("tab", ""), request.GET.get("entrants")),
        "waiting": tournament.entrants.filter(status=EntrantStatus.REGISTERED).count(),
        "live_count": tournament.entrants.exclude(status__in=OUT_OF_PLAY).count(),
        "eliminations": place_rows(tournament),
        "reinstatements": reinstatements,
        "clock": read_clock(tournament, levels),
        "check": check,
        "open_draw": tournament.draws.filter(status=DrawStatus.COMMITTED).first(),
        "entrant_form": EntrantForm(tournament=tournament),
        "reinstate_form": ReinstateForm(),
        "reserve_form": ReserveSeatForm(),
        "wrong_seat_form": WrongSeatForm(),
        "ante_form": AnteTypeForm(initial={"ante_type": tournament.ante_type}),
        "has_antes": any(level.ante for level in levels),
        # Hand-for-hand (TDA RP-8): which tables have played this hand; offered while play is
        # on two tables or more.
        "hand_round": table_hands.hand_for_hand_round(tournament),
        "multi_table": multi_table(tournament),
        # The finish: the winner named, and the controls that no longer apply gone.
        "complete": tournament.status == TournamentStatus.COMPLETE,
        "winner": winner(tournament),
        # Do the chips add up: entries x starting stack against the counts and the chips out.
        "chip_check": reconcile(tournament),
    }


def place_rows(tournament: Tournament, limit: int = 50) -> list[dict[str, Any]]:
    """Standing eliminations, latest first, with the finishing place: shared on one
    hand-for-hand hand (RP-8), none yet while registration is open (TDA 8)."""
    standing = tournament.eliminations.standing()
    rows = list(
        standing.select_related("entrant", "by").order_by(
            F("entrant__place").asc(nulls_last=True), "-id"
        )[:limit]
    )
    per_hand = dict(
        standing.filter(hand_for_hand_hand__isnull=False, entrant__place__isnull=False)
        .values_list("hand_for_hand_hand")
        .annotate(n=Count("id"))
        .values_list("hand_for_hand_hand", "n")
    )
    reentered = set(
        tournament.entrants.filter(reentry_of__in=[row.entrant_id for row in rows]).values_list(
            "reentry_of_id", flat=True
        )
    )
    rooms = room_numbers(tournament.pk)
    # In the money: the prize at once, with its slip (``money.payouts``).
    owed = {o.entrant.pk: o for o in prizes_owed(tournament)}
    result = []
    for row in rows:
        place, shared = row.entrant.place, per_hand.get(row.hand_for_hand_hand or -1, 1)
        if place is None:
            label = "not yet (registration open)" if tournament.registration_open else "—"
        elif shared > 1:
            label = f"{place}–{place + shared - 1} (shared, same hand)"
        else:
            label = str(place)
        # A player who re-entered is in on the new entry: this one is not undone (TDA 1).
        can_undo = (
            row.entrant.status == EntrantStatus.ELIMINATED and row.entrant_id not in reentered
        )
        room = rooms.get(row.table_number)
        result.append(
            {
                "elimination": row, "label": label, "can_undo": can_undo, "room": room,
                "prize": owed.get(row.entrant_id),
            }
        )  # fmt: skip
    return result


@require_GET
@role_required(*READERS)
def tournament_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    partial = {"table-map", "entrant-list", "eliminations", "clock-panel"}
    name = request.GET.get("part", "")
    template = "tournaments/detail.html" + (f"#{name}" if name in partial and request.htmx else "")
    return render(request, template, detail_context(request, tournament))


# --- entrants -----------------------------------------------------------------------------------


@require_POST
@role_required(Role.DIRECTOR)
def entrant_register(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Register the names typed or pasted, one a line, each on its own: those refused come back
    with their reasons, left in the box. With htmx only the results and the entrants are
    swapped, never the box: the director types the next name while this one is on its way."""
    tournament = tournament_or_404(pk)
    form = EntrantForm(request.POST, tournament=tournament)
    results: list[setup.Registration] = []
    if form.is_valid():
        data = form.cleaned_data
        results = setup.register_list(
            tournament=tournament, names=data["name"], by=request.user,
            alternate=data["alternate"], reentry_of=data["reentry_of"],
            method=data["method"] or Method.CASH,
        )  # fmt: skip
    refused = [row for row in results if row.refusal]
    # 422 only when nothing was written: a list partly registered is a 200 that says which
    # names were refused (a 422 never leaves rows behind).
    status = 200 if any(row.entrant for row in results) else 422
    if request.htmx:
        return registration_answer(request, tournament, form, results, status)
    if not refused and form.is_valid():
        for row in results:
            entrant = row.entrant
            if entrant is not None:
                messages.success(request, f"{entrant.name} registered (#{entrant.number}).")
        return redirect(reverse("tournaments:detail", args=[pk]))
    # Without JavaScript: the page again, the refused names left in the box with their reasons.
    left = "\n".join(row.name for row in refused) if form.is_valid() else request.POST.get("name")
    initial = {"name": left, "alternate": request.POST.get("alternate") == "on"}
    context = {
        **detail_context(request, tournament),
        "entrant_form": EntrantForm(initial=initial, tournament=tournament),
        "form_errors": form,
        "results": results,
        "box_invalid": True,
    }
    return render(request, "tournaments/detail.html", context, status=status)


def registration_answer(
    request: HtmxRequest,
    tournament: Tournament,
    form: EntrantForm,
    results: list[setup.Registration],
    status: int,
) -> HttpResponse:
    """The results line by line (the names refused go back into the box, ahead of whatever was
    typed since), and out of band the entrants at the page of the newest, and the re-entry
    choices once a re-entry has used one."""
    refused = [row.name for row in results if row.refusal]
    if not form.is_valid():
        refused = [request.POST.get("name", "")]
    context: dict[str, Any] = {
        "tournament": tournament, "results": results, "form_errors": form,
        "refused_names": "\n".join(name for name in refused if name), "oob": True,
    }  # fmt: skip
    parts = [render_to_string("tournaments/detail.html#registration-results", context, request)]
    if any(row.entrant for row in results):
        # All entrants at their last page: the newest entries are seen at once.
        context.update(entrant_list_context(tournament, "all", LAST_PAGE))
        parts.append(render_to_string("tournaments/detail.html#entrant-list", context, request))
    if any(row.entrant and row.entrant.reentry_of_id for row in results):
        context["entrant_form"] = EntrantForm(tournament=tournament)
        parts.append(render_to_string("tournaments/detail.html#reentry-field", context, request))
        context["eliminations"] = place_rows(tournament)
        parts.append(render_to_string("tournaments/detail.html#eliminations", context, request))
    return HttpResponse("".join(parts), status=status)


@require_POST
@role_required(Role.DIRECTOR)
def entrant_eliminate(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
    url = reverse("tournaments:detail", args=[pk])
    try:
        eliminations.eliminate_player(entrant=entrant, by=request.user)
    except eliminations.ChipsLeft as exc:
        # A player holding chips is not put out: the table map comes back with the count and
        # the two ways out (to a player, or out of play, with a reason: RRoP-TR.18).
        refused_out = {
            **detail_context(request, entrant.tournament),
            "move": {**chips_out(entrant), "message": exc.message},
        }
        template = (
            "tournaments/detail.html#table-map" if request.htmx else "tournaments/detail.html"
        )
        return render(request, template, refused_out, status=409)
    except DrawError as exc:
        return refused(request, exc, url)
    if not request.htmx:
        owed = prize_of(Entrant.objects.get(pk=entrant.pk))
        paid = f" {in_the_money(owed)}: print the slip under Eliminations." if owed else ""
        messages.success(request, f"{entrant.name} eliminated.{paid}")
        return redirect(url)
    if Tournament.objects.filter(pk=pk, status=TournamentStatus.COMPLETE).exists():
        # The heads-up bust: the whole page changes (the winner named, the controls that no
        # longer apply gone), not only the table map.
        owed = prize_of(Entrant.objects.get(pk=entrant.pk))
        paid = f" {in_the_money(owed)}." if owed else ""
        messages.success(request, f"{entrant.name} eliminated: the tournament is complete.{paid}")
        return HttpResponseClientRefresh()
    context = {
        **detail_context(request, entrant.tournament),
        "flash": f"{entrant.name} eliminated.",
        "in_money": prize_of(Entrant.objects.get(pk=entrant.pk)),
        "undo": entrant.number,  # focus goes to the way back from a misclick
    }
    # The table map, and out of band the entrants and eliminations (where the undo is).
    parts = [
        render_to_string("tournaments/detail.html#table-map", context, request),
        *(
            render_to_string(f"tournaments/detail.html#{name}", {**context, "oob": True}, request)
            for name in ("entrant-list", "eliminations")
        ),
    ]
    return HttpResponse("".join(parts))


@require_POST
@role_required(Role.DIRECTOR)
def entrant_reinstate(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """Undo a mistaken elimination: an audited correction, the elimination row stays."""
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
    form = ReinstateForm(request.POST)
    url = reverse("tournaments:detail", args=[pk])
    if not form.is_valid():
        return refused(request, ValidationError("Say why the elimination is undone."), url)
    return act(
        request, url,
        lambda: eliminations.reinstate_player(
            entrant=entrant, by=request.user, reason=form.cleaned_data["reason"]
        ),
        f"{entrant.name} is back in the tournament: elimination undone.",
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def registration_close(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    return act(
        request, reverse("tournaments:detail", args=[pk]),
        lambda: eliminations.close_registration(tournament=tournament, by=request.user),
        "Registration and re-entry are closed: finishing places are fixed from now on.",
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def reserve_seat(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    form = ReserveSeatForm(request.POST)
    url = reverse("tournaments:detail", args=[pk])
    if not form.is_valid():
        messages.error(request, "Give the entry number, table, seat and the special need.")
        return redirect_to(request, url)
    data = form.cleaned_data
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=data["entrant"])
    # The director types the table's one name, the room's number.
    table = get_object_or_404(
        TournamentTable.objects.select_related("table"), tournament_id=pk,
        table__number=data["table"],
    )  # fmt: skip
    return act(
        request, url,
        lambda: director_seats.reserve_seat(
            entrant=entrant, table=table, seat=data["seat"], reason=data["reason"], by=request.user
        ),
        f"{table} seat {data['seat']} reserved for {entrant.name} (TDA 9).",
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def wrong_seat(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    form = WrongSeatForm(request.POST)
    url = reverse("tournaments:detail", args=[pk])
    if not form.is_valid():
        messages.error(request, "Give the entry number and where the player was found.")
        return redirect_to(request, url)
    data = form.cleaned_data
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=data.pop("entrant"))
    # Found at the room's table the director names: the tournament's number for it.
    found = tournament_number(pk, data.pop("found_table"))
    if found is None:
        messages.error(request, "That table is not one of this tournament's: give its number.")
        return redirect_to(request, url)
    return act(
        request, url,
        lambda: director_seats.correct_wrong_seat(
            entrant=entrant, by=request.user, found_table=found, **data
        ),
        f"{entrant.name} moves to the assigned seat with the current stack (TDA 7).",
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def table_button(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    table = get_object_or_404(TournamentTable, tournament_id=pk, number=number)
    form = ButtonForm(request.POST)
    url = reverse("tournaments:detail", args=[pk])
    if not form.is_valid():
        messages.error(request, "Give the button's seat.")
        return redirect_to(request, url)
    return act(
        request, url,
        lambda: director_seats.set_button(table=table, seat=form.cleaned_data["seat"], by=request.user),
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def hand_for_hand(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    what = request.POST.get("hand_for_hand", "")
    url = reverse("tournaments:detail", args=[pk])
    if what == "next":
        # "force": the director answered the page's question (3 of 4 tables have played:
        # release the next hand anyway?); without it a table still playing refuses it.
        force = request.POST.get("force") == "on"
        return act(
            request, url,
            lambda: table_hands.next_hand_for_hand(
                tournament=tournament, by=request.user, force=force
            ),
            "The next hand-for-hand hand is released (TDA RP-8).",
        )  # fmt: skip
    on = what == "on"
    return act(
        request, url,
        lambda: eliminations.set_hand_for_hand(tournament=tournament, on=on, by=request.user),
        "Hand-for-hand announced (TDA RP-8)." if on else "Hand-for-hand is over.",
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def ante_type(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Who pays the levels' antes: every player, or the big blind (CR-DM.2), from the next
    hand dealt."""
    tournament = tournament_or_404(pk)
    form = AnteTypeForm(request.POST)
    url = reverse("tournaments:detail", args=[pk])
    if not form.is_valid():
        messages.error(request, "Choose per-player antes or a big-blind ante.")
        return redirect_to(request, url)
    chosen = form.cleaned_data["ante_type"]
    label = TournamentAnte(chosen).label
    return act(
        request, url,
        lambda: setup.set_ante_type(tournament=tournament, ante_type=chosen, by=request.user),
        f"Antes: {label}. From the next hand dealt.",
    )  # fmt: skip


# --- draws --------------------------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def break_screen(request: AuthenticatedRequest, pk: int, room: int) -> HttpResponse:
    """Step 0 of breaking a table: who is at it, and the button to show the seat cards. The
    table is named by the room's number, its one name, in the page's address too."""
    table = get_object_or_404(
        TournamentTable.objects.select_related("table", "tournament"), tournament_id=pk,
        table__number=room,
    )  # fmt: skip
    players = SeatAssignment.objects.filter(table=table, ended_at__isnull=True).select_related(
        "entrant"
    )
    return render(
        request, "tournaments/break.html",
        {"tournament": table.tournament, "table": table, "players": players},
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def draw_commit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Seal a seed and publish its commitment (for a break: show the seat cards)."""
    tournament = tournament_or_404(pk)
    kind = request.POST.get("kind", "")
    table = request.POST.get("table", "")
    back = request.POST.get("back", "")
    if not (back.startswith("/") and url_has_allowed_host_and_scheme(back, None)):
        # Only a page of this site (anything else was a 500 in ``redirect``, or an open
        # redirect): the tournament's page otherwise.
        back = reverse("tournaments:detail", args=[pk])
    if kind not in DrawKind.values:
        return refused(request, ValidationError("Choose a kind of draw."), back)
    try:
        draw = draw_services.commit_draw(
            tournament=tournament, kind=kind, by=request.user,
            table=whole_number(table, 6),
        )  # fmt: skip
    except DrawError as exc:
        return refused(request, exc, back, room_numbers(pk))
    return redirect_to(request, reverse("tournaments:draw_detail", args=[pk, draw.number]))


@require_POST
@role_required(Role.DIRECTOR)
def draw_deal(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    draw = get_object_or_404(Draw, tournament_id=pk, number=number)
    url = reverse("tournaments:draw_detail", args=[pk, number])
    try:
        draw_services.deal_draw(draw=draw, by=request.user)
    except (DrawError, ValidationError) as exc:
        return refused(request, exc, url, room_numbers(pk))
    return redirect_to(request, url)


@require_GET
@role_required(*READERS)
def draw_list(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    rooms = room_numbers(tournament.pk)
    moves = [
        {
            "move": move,
            "from": where(rooms, move.from_table, move.from_seat) if move.from_table else "—",
            "to": where(rooms, move.to_table, move.to_seat) if move.to_table else "—",
            "note": said_by_room(move.note, rooms),
        }
        for move in tournament.moves.select_related("entrant", "by", "draw")[:MOVES_SHOWN]
    ]
    return render(
        request, "tournaments/draws.html",
        {
            "tournament": tournament,
            "draws": tournament.draws.select_related("committed_by"),
            "moves": moves,
        },
    )  # fmt: skip


@require_GET
@role_required(*READERS)
def draw_detail(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    draw = get_object_or_404(
        Draw.objects.select_related("tournament"), tournament_id=pk, number=number
    )
    return render(request, "tournaments/draw.html", draw_context(draw))


def draw_context(draw: Draw) -> dict[str, Any]:
    """The draw as the dealer follows it: seat cards shown, the stack, the cards dealt."""
    names = dict(draw.tournament.entrants.values_list("number", "name"))
    pure = draw.inputs["input"]
    steps = (draw.result or {}).get("steps", {})
    # The record keeps the tournament's numbering (it replays with it); the sheet says the
    # room's, the one name of each table.
    rooms = room_numbers(draw.tournament_id)

    def said(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**seat, "table": room_number(rooms, seat["table"])} for seat in seats]

    result = [
        {**row, "name": names.get(row["player"], row["player"])}
        for row in said((draw.result or {}).get("result", []))
    ]
    breaking = pure.get("breaking_table")
    return {
        "tournament": draw.tournament,
        "draw": draw,
        "breaking": room_number(rooms, breaking) if breaking else None,
        "rooms": sorted(rooms.items()),
        "shown": said(pure.get("receiving_seats") or pure.get("open_seats") or []),
        "players": [{"player": p, "name": names.get(p, p)} for p in pure.get("players", [])],
        "cards": [
            {**c, "name": names.get(c["player"], c["player"])} for c in steps.get("cards", [])
        ],
        "stack": said(steps.get("stack", [])),
        "result": result,
        "waits": said(draw.inputs.get("context", {}).get("waits_for_button", [])),
    }


@require_GET
@role_required(*READERS)
def draw_verify(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    draw = get_object_or_404(Draw, tournament_id=pk, number=number)
    verification = draw_services.verify_draw(draw)
    template = "tournaments/draw.html#verification" if request.htmx else "tournaments/draw.html"
    context = {**draw_context(draw), "verification": verification}
    return render(request, template, context)


# --- balancing ----------------------------------------------------------------------------------


def published_orders(tournament: Tournament, rooms: dict[int, int]) -> dict[str, str]:
    """The break and balancing orders (TDA 11-C) in the room's numbers: "103, 102 and 101"."""
    return {
        "break_order": said_numbers(rooms, tournament.break_order)
        if tournament.break_order
        else "",
        "balancing_order": (
            said_numbers(rooms, tournament.balancing_order) if tournament.balancing_order else ""
        ),
    }


@require_GET
@role_required(*READERS)
def balance(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    check = tournament.balance_checks.first()
    names = dict(tournament.entrants.values_list("number", "name"))
    rooms = room_numbers(tournament.pk)
    # Where each player of the check sits now: a move already made reads "Done".
    now_at = {
        number: (table, seat)
        for number, table, seat in SeatAssignment.objects.filter(
            tournament=tournament,
            ended_at__isnull=True,
            entrant__number__in=[m["player"] for m in (check.moves if check else [])],
        ).values_list("entrant__number", "table__number", "seat")
    }
    moves = [
        {
            **m,
            "name": names.get(m["player"], m["player"]),
            "from_label": where(rooms, m["from"]["table"], m["from"]["seat"]),
            "to_label": where(rooms, m["to"]["table"], m["to"]["seat"]),
            "reason": said_by_room(m.get("reason", ""), rooms),
            "done": now_at.get(m["player"]) == (m["to"]["table"], m["to"]["seat"]),
        }
        for m in (check.moves if check else [])
    ]
    stale = check is not None and check.seating_version != tournament.seating_version
    done = bool(moves) and all(m["done"] for m in moves)
    counts = [(where(rooms, int(t)), n) for t, n in (check.counts.items() if check else [])]
    context = {
        "tournament": tournament, "check": check, "moves": moves, "stale": stale,
        "done": done, "counts": counts, **published_orders(tournament, rooms),
        "to_break": [(n, room_number(rooms, n)) for n in (check.tables_to_break if check else [])],
        "to_halt": said_numbers(rooms, check.tables_to_halt) if check and check.tables_to_halt else "",
    }  # fmt: skip
    return render(request, "tournaments/balance.html", context)


@require_POST
@role_required(Role.DIRECTOR)
def balance_check(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament_or_404(pk)  # a 404 for a tournament that does not exist, not a 500 in the service
    url = reverse("tournaments:balance", args=[pk])
    return act(request, url, lambda: balance_checks.check_balance(tournament_id=pk))


@require_POST
@role_required(Role.DIRECTOR)
def balance_apply(request: AuthenticatedRequest, pk: int, check_id: int) -> HttpResponse:
    check = get_object_or_404(BalanceCheck, tournament_id=pk, pk=check_id)
    url = reverse("tournaments:balance", args=[pk])
    try:
        made = balance_checks.apply_balance(check=check, by=request.user)
    except (DrawError, ValidationError) as exc:
        return refused(request, exc, url, room_numbers(pk))
    # Said where the floor person walks them: the room's table first.
    rooms = room_numbers(check.tournament_id)
    messages.success(request, f"{len(made)} move{pluralize(len(made))} made.")
    for move in made:
        table, seat = move.to_table or 0, move.to_seat
        messages.success(
            request,
            f"{move.entrant.name} moved to {where(rooms, table, seat)}.",
        )
    return redirect_to(request, url)
