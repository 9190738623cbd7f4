"""Floor pages. Thin views: role check, form, one service call, render."""

import re
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST, require_safe

from cardroom.api_errors import Conflict
from cardroom.converters import IdConverter
from cardroom.desk import action_log, hand_chip_set, own_repeat, reading_words, remember_tap
from cardroom.filters import RulingFilter, TableFilter, filtered
from cardroom.floor import (
    FloorFilter,
    cards,
    filter_query,
    page_cursor,
    poll,
    recent_rulings,
    seatings_at,
    tables_for_floor,
)
from cardroom.forms import (
    PRESETS,
    ActionForm,
    CountForm,
    DealForm,
    RulingForm,
    TableForm,
    VoidForm,
    unconfirmed_void,
)
from cardroom.health import broker_status, database_status, worker_status
from cardroom.models import Hand, HandStatus, Ruling, Table
from cardroom.navigation import redirect_to
from cardroom.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.roles import (
    HAND_WRITERS,
    READERS,
    RULING_WRITERS,
    Role,
    RoleRequired,
    has_role,
    may_open_or_close,
    refusal_context,
    role_required,
)
from cardroom.ruling_services import log_ruling, seat_names
from cardroom.rulings import (
    amendment_draft,
    cited_rules,
    precedents,
    ruling_chain,
    ruling_references,
    write_rulings_csv,
)
from cardroom.seat_views import desk_version, form_error, refused, render_desk
from cardroom.services import (
    SeatedAtClose,
    StaleHand,
    create_table,
    engine_state,
    record_action,
    set_table_status,
    start_hand,
    update_table,
    void_hand,
    void_last_action,
)
from cardroom.table_choices import TableKind
from cardroom.table_history import table_history
from rules.betting import facing_of
from rules.engine.chips import interpret
from rules.engine.errors import BadInput, IllegalAction
from rules.search import search_rules
from tournaments.models import TournamentTable


@require_GET
@never_cache
@login_not_required
def healthz(request: HttpRequest) -> JsonResponse:
    """Database, broker and worker. 503 only when the database is down: without Redis or a
    worker the pages and the betting API keep working, so the app is degraded, not down."""
    database, broker, worker = database_status(), broker_status(), worker_status()
    healthy = database["ok"] and broker["ok"] and worker["ok"]
    status = "ok" if healthy else ("degraded" if database["ok"] else "down")
    return JsonResponse(
        {"status": status, "database": database, "broker": broker, "worker": worker},
        status=200 if database["ok"] else 503,
    )


@require_safe
@login_not_required
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the SVG icon."""
    return redirect(static("favicon.svg"))


def error_403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 403, refusal_context(exception))


def error_404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 404)


def error_500(request: HttpRequest) -> HttpResponse:
    return _error(request, 500)


def _error(
    request: HttpRequest, status: int, context: dict[str, Any] | None = None
) -> HttpResponse:
    if request.path.startswith("/api/"):
        messages = {403: "Your role does not allow this.", 404: "Not found.", 500: "Server error."}
        codes = {403: "permission_denied", 404: "not_found", 500: "server_error"}
        return JsonResponse(
            {"error": {"code": codes[status], "message": messages[status]}}, status=status
        )
    return render(request, f"cardroom/errors/{status}.html", context, status=status)


# --- tables ---------------------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def table_list(request: AuthenticatedRequest) -> HttpResponse:
    tables = TableFilter(request.GET or None, queryset=Table.objects.all())
    template = "cardroom/table_list.html#table-rows" if request.htmx else "cardroom/table_list.html"
    shown = with_tournaments(list(filtered(tables)))
    return render(request, template, {"form": tables.form, "tables": shown})


def with_tournaments(tables: list[Table]) -> list[Table]:
    """Each tournament table with ``playing``: the tournament in play there and its clock (a
    ``floor.Seating``), or None. The list shows that game, not the table's cash settings, which
    do not apply while a tournament plays there (not "1/2 NL Hold'em, buy-in 40-200" for
    tables playing 300/600 with an ante)."""
    tournament_tables = [t.pk for t in tables if t.kind == TableKind.TOURNAMENT]
    playing = seatings_at(tournament_tables, timezone.now()) if tournament_tables else {}
    for table in tables:
        table.playing = playing.get(table.pk)  # type: ignore[attr-defined]
    return tables


@require_GET
@role_required(*READERS)
def table_detail(request: AuthenticatedRequest, number: int) -> HttpResponse:
    table = get_object_or_404(Table, number=number)
    context = {"table": table, "history": table_history(table)}
    return render(request, "cardroom/table_detail.html", context)


@role_required(Role.FLOOR_MANAGER)
def table_create(request: AuthenticatedRequest) -> HttpResponse:
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            table = create_table(by=request.user, **form.changed_values())
            messages.success(request, f"{table} saved: {table.game_label}.")
            return redirect_to(request, reverse("cardroom:table_list"))
        return render_form(request, form, status=422)
    preset = PRESETS.get(request.GET.get("preset", ""), {})
    initial = {k: v for k, v in preset.items() if k != "label"}
    initial.setdefault("number", (Table.objects.aggregate(n=Max("number"))["n"] or 0) + 1)
    return render_form(request, TableForm(initial=initial))


@role_required(Role.FLOOR_MANAGER)
def table_edit(request: AuthenticatedRequest, number: int) -> HttpResponse:
    table = get_object_or_404(Table, number=number)
    if request.method == "POST":
        form = TableForm(request.POST, instance=Table.objects.get(pk=table.pk))
        if form.is_valid():
            confirm = request.POST.get("confirm_seated") == "1"
            try:
                update_table(
                    table=table, by=request.user, confirm_seated=confirm, **form.changed_values()
                )
            except ValidationError as exc:  # SeatedAtClose: the form asks "Close anyway?"
                add_errors(form, exc)
                asked = isinstance(exc, SeatedAtClose)
                return render_form(request, form, table=table, status=422, confirm_close=asked)
            messages.success(request, f"{table} updated.")
            return redirect_to(request, reverse("cardroom:table_detail", args=[table.number]))
        return render_form(request, form, table=table, status=422)
    return render_form(request, TableForm(instance=table), table=table)


@require_POST
@role_required(Role.FLOOR_MANAGER)
def table_validate(request: AuthenticatedRequest) -> HttpResponse:
    """Inline validation as fields change: each field's errors, swapped out of band, nothing
    saved."""
    instance = None
    if number := request.POST.get("editing"):
        # Junk finds none: Django reads ``number=None`` as ``number__isnull=True``.
        instance = Table.objects.filter(number=cast(int, typed_id(number))).first()
    form = TableForm(request.POST, instance=instance)
    valid = form.is_valid()
    return render(
        request,
        "cardroom/table_form.html#form-errors",
        {"form": form, "validated": valid, "oob": True},
        status=200 if valid else 422,
    )


@require_POST
@role_required(Role.FLOOR_MANAGER, Role.DIRECTOR)
def table_status(request: AuthenticatedRequest, number: int) -> HttpResponse:
    """Quick open/close from the table list, a floor card (re-rendered in place) or the
    tournament's table map. A director opens and closes only the tables of a tournament
    (``roles.may_open_or_close``): the desk of a table their tournament was drawn to deals
    only once it is open."""
    table = get_object_or_404(Table, number=number)
    check_status_right(request.user, table, request.POST.get("status", ""))
    error, status, confirm_close = None, 200, False
    try:
        table = set_table_status(
            table=table,
            by=request.user,
            status=request.POST.get("status", ""),
            confirm_seated=request.POST.get("confirm_seated") == "1",
        )
    except SeatedAtClose as exc:  # the card asks "Close anyway?" naming who is seated (a
        # question, not a refusal: 200; the API, which cannot ask, answers 409)
        error, confirm_close = " ".join(exc.messages), True
    except ValidationError as exc:
        error, status = " ".join(exc.messages), 422
    if not request.htmx:
        if error:
            messages.error(request, error)
        back = request.POST.get("back", "")
        if back.startswith("/") and url_has_allowed_host_and_scheme(back, None):
            return redirect(back)  # the tournament's page, where its director opened it
        return redirect(
            "cardroom:floor" if request.POST.get("from") == "floor" else "cardroom:table_list"
        )
    if request.POST.get("from") == "floor":
        card = cards(tables_for_floor().filter(pk=table.pk))[0]
        context: dict[str, Any] = {
            "card": card, "row_error": error, "confirm_close": confirm_close,
        }  # fmt: skip
        return render(request, "cardroom/floor.html#card", context, status=status)
    [table] = with_tournaments([table])
    context = {"table": table, "row_error": error, "confirm_close": confirm_close}
    return render(request, "cardroom/table_list.html#table-row", context, status=status)


def check_status_right(user: Any, table: Table, status: str) -> None:
    """403 naming who may, unless ``user`` may open or close ``table`` as asked (an unknown
    status goes on to the service's 422 for anyone with a right to this table)."""
    in_play = TournamentTable.objects.in_play().filter(table=table).exists()
    tournament_table = table.kind == TableKind.TOURNAMENT or in_play
    allowed = {
        opening: may_open_or_close(
            user, opening=opening, tournament_table=tournament_table, in_play=in_play
        )
        for opening in (True, False)
    }
    wanted = {"open": [True], "closed": [False]}.get(status, [True, False])
    if any(allowed[opening] for opening in wanted):
        return
    if status == "closed" and in_play:
        raise RoleRequired(Role.FLOOR_MANAGER, doing=f"Closing {table} while its tournament plays")
    raise RoleRequired(Role.FLOOR_MANAGER, doing=f"Opening or closing {table}, not a tournament's")


def render_form(
    request: HtmxRequest, form: TableForm, *, table: Table | None = None, status: int = 200,
    confirm_close: bool = False,
) -> HttpResponse:  # fmt: skip
    template = "cardroom/table_form.html#table-form" if request.htmx else "cardroom/table_form.html"
    context = {"form": form, "table": table, "presets": PRESETS, "confirm_close": confirm_close}
    return render(request, template, context, status=status)


# --- the betting desk -----------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def desk(request: AuthenticatedRequest, number: int) -> HttpResponse:
    table = get_object_or_404(Table, number=number)
    hand = table.hands.order_by("-number").first()
    version = desk_version(table, hand)
    if request.htmx and request.GET.get("seq") == version:
        return HttpResponse(status=204)  # polling: nothing changed, nothing re-rendered
    return render_desk(request, table, hand, version=version)


@require_POST
@role_required(*HAND_WRITERS)
def desk_deal(request: AuthenticatedRequest, number: int) -> HttpResponse:
    table = get_object_or_404(Table, number=number)
    form = DealForm(request.POST, table=table)
    if form.is_valid():
        try:
            hand = start_hand(table=table, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            add_errors(form, exc)
        except Conflict as exc:  # the seat map's last hand is not awarded yet (not_awarded)
            return refused(request, table, exc)
        else:
            return render_desk(request, table, hand)
    return render_desk(request, table, None, deal_form=form, status=422)


@require_POST
@role_required(*HAND_WRITERS)
def desk_act(request: AuthenticatedRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return render_desk(request, hand.table, hand, refusal=form_refusal(form), status=422)
    device = request.session.session_key or ""
    try:
        entered = record_action(hand=hand, by=request.user, **form.cleaned_data)
    except StaleHand as exc:  # another device entered first: said in a dealer's words
        if own_repeat(exc.hand, device=device, by=request.user, **form.cleaned_data):
            # This device's own second tap: the first went in; the desk as it is now.
            return render_desk(request, hand.table, exc.hand)
        return refused(request, hand.table, exc)
    except Conflict as exc:  # awarded on another device
        return refused(request, hand.table, exc)
    except IllegalAction as exc:
        refusal = {"message": exc.message, "citations": exc.citations, "code": exc.code}
        refusal["out_of_turn"] = form.cleaned_data["out_of_turn"]  # keeps its form open
        return render_desk(request, hand.table, hand, refusal=refusal, status=422)
    except ValidationError as exc:
        return render_desk(
            request, hand.table, hand, refusal={"message": " ".join(exc.messages)}, status=422
        )
    remember_tap(entered, device)
    return render_desk(request, hand.table, Hand.objects.get(pk=hand.pk))


@require_POST
@role_required(*HAND_WRITERS)
def desk_void(request: AuthenticatedRequest, hand_id: int, what: str) -> HttpResponse:
    # The last action or the hand, nothing else: any other word in the address voided the hand.
    if what not in ("last", "hand"):
        raise Http404("Void the last action (void/last/) or the hand (void/hand/).")
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    form = VoidForm(request.POST)
    if not form.is_valid():
        return render_desk(request, hand.table, hand, refusal=form_refusal(form), status=422)
    data = form.cleaned_data
    confirm = data.pop("confirm_hand")
    if what == "hand" and (asked := unconfirmed_void(hand.number, confirm)):
        return render_desk(request, hand.table, hand, refusal={"message": asked}, status=422)
    service = void_last_action if what == "last" else void_hand
    try:
        service(hand=hand, by=request.user, **data)
    except StaleHand as exc:  # another device entered first: said in a dealer's words
        return refused(request, hand.table, exc)
    except Conflict as exc:  # awarded on another device
        return refused(request, hand.table, exc)
    except ValidationError as exc:
        return render_desk(
            request, hand.table, hand, refusal={"message": " ".join(exc.messages)}, status=422
        )
    return render_desk(request, hand.table, Hand.objects.get(pk=hand.pk))


def form_refusal(form: Any) -> dict[str, Any]:
    return {"message": " ".join(form_error(form).messages)}


# --- the floor dashboard --------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def floor(request: AuthenticatedRequest) -> HttpResponse:
    filters = FloorFilter(request.GET or None)
    now = timezone.now()  # before the read: the first poll asks for what changed since
    shown = cards(tables_for_floor(filters), now)
    context = {
        "form": filters.form,
        "cards": shown,
        "feed": recent_rulings(),
        "cursor": page_cursor(shown, now),
        "query": filter_query(filters),
    }
    # A new filter swaps the grid and the poller with it (the poller carries the filter).
    template = "cardroom/floor.html#filtered" if request.htmx else "cardroom/floor.html"
    return render(request, template, context)


@require_GET
@never_cache
@role_required(*READERS)
def floor_updates(request: AuthenticatedRequest) -> HttpResponse:
    """Polled by every open dashboard with its filter and a fixed-size cursor (``v``) that the
    answer replaces: re-renders the cards that changed, or the grid if its tables changed."""
    filters = FloorFilter(request.GET)
    update = poll(filters, request.GET.get("v", ""))
    context = {
        "update": update,
        "cursor": update.cursor,
        "feed": update.feed,
        "query": filter_query(filters),
    }
    return render(request, "cardroom/floor.html#floor-updates", context)


# --- rulings --------------------------------------------------------------------------------


def ruling_queryset() -> Any:
    return Ruling.objects.select_related(
        "table", "tournament", "director", "hand", "amends"
    ).prefetch_related("citations__rule")


@require_GET
@role_required(*READERS)
def ruling_list(request: AuthenticatedRequest) -> HttpResponse:
    rulings = RulingFilter(request.GET or None, queryset=ruling_queryset())
    context = {
        "form": rulings.form,
        "rulings": filtered(rulings)[:200],
        "query": request.GET.urlencode(),
    }
    template = "cardroom/rulings.html#ruling-rows" if request.htmx else "cardroom/rulings.html"
    return render(request, template, context)


@require_GET
@role_required(*READERS)
def ruling_export(request: AuthenticatedRequest) -> HttpResponse:
    rulings = filtered(RulingFilter(request.GET or None, queryset=ruling_queryset()))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="rulings.csv"'
    write_rulings_csv(response, rulings)
    return response


@require_GET
@role_required(*READERS)
def ruling_detail(request: AuthenticatedRequest, ruling_id: int) -> HttpResponse:
    ruling = get_object_or_404(ruling_queryset(), pk=ruling_id)
    context = {"ruling": ruling, "chain": ruling_chain(ruling), "room": settings.CARDROOM_NAME}
    template = (
        "cardroom/ruling_print.html" if "print" in request.GET else "cardroom/ruling_detail.html"
    )
    return render(request, template, context)


@role_required(*RULING_WRITERS)
def ruling_create(request: AuthenticatedRequest) -> HttpResponse:
    amends = None
    if amends_id := request.GET.get("amends") or request.POST.get("amends"):
        if typed_id(amends_id) is None:
            raise Http404("No ruling has that number.")
        amends = get_object_or_404(Ruling, pk=amends_id)
    if request.method == "POST":
        form = RulingForm(request.POST)
        if form.is_valid():
            try:
                ruling = log_ruling(
                    director=request.user, amends=amends, **ruling_inputs(form, amends, request)
                )
            except RoleRequired as exc:
                # Not this log-in's ruling (a tournament table's is the director's): said on
                # the form, with what was typed kept, for the one who may log it.
                form.add_error("table", str(exc))
                return render_ruling_form(request, form, amends, status=403)
            except ValidationError as exc:
                add_errors(form, exc)
            else:
                messages.success(request, f"{ruling} logged.")
                return redirect_to(request, reverse("cardroom:ruling_detail", args=[ruling.pk]))
        return render_ruling_form(request, form, amends, status=422)
    if amends is not None:
        initial, cited = amendment_draft(amends)
        return render_ruling_form(request, RulingForm(initial=initial, cited=cited), amends)
    form = RulingForm(initial={"table": request.GET.get("table"), "hand": request.GET.get("hand")})
    return render_ruling_form(request, form, amends)


def typed_id(value: Any) -> int | None:
    """A number as typed into a query string or a form (valid or not): None unless it is one
    a database id can hold, so junk finds nothing instead of failing in the query (a 500)."""
    text = "" if value is None else str(value).strip()
    return int(text) if re.fullmatch(IdConverter.regex, text) else None


def add_errors(form: Any, exc: ValidationError) -> None:
    """A service's errors on the form: on their field when the form shows it, else on top
    (a hidden field's, such as the hand a ruling is about, would not be seen)."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for field, errors in exc.message_dict.items():
        shown = field in form.fields and not form.fields[field].widget.is_hidden
        form.add_error(field if shown else None, errors)


def ruling_inputs(form: RulingForm, amends: Ruling | None, request: HttpRequest) -> dict[str, Any]:
    data = form.cleaned_data
    found = ruling_references(table=data["table"], hand=data["hand"], action=data["action"])
    kind = (data.get("kind") or "amendment") if amends else "ruling"
    return {
        "table": found["table"], "hand": found["hand"], "action": found["action"],
        "seats": data["seats"],
        "situation": data["situation"], "decision": data["decision"],
        "citations": data["citations"], "kind": kind,
        "request_key": data.get("request_key") or None,
    }  # fmt: skip


def render_ruling_form(
    request: HtmxRequest, form: RulingForm, amends: Ruling | None, *, status: int = 200
) -> HttpResponse:
    table_number = typed_id(form["table"].value())
    table = Table.objects.filter(number=table_number).first() if table_number else None
    hand_id = typed_id(form["hand"].value())
    hand = Hand.objects.filter(pk=hand_id).prefetch_related("actions").first() if hand_id else None
    cited = cited_rules([c for c, _ in form.cited])
    notes = dict(form.cited)
    context: dict[str, Any] = {
        "form": form, "amends": amends, "table": table, "hand": hand,
        "cited": [(rule, notes.get(rule.citation_id, "")) for rule in cited],
        "precedents": precedents([rule.citation_id for rule in cited]),
        "seat_choices": seat_choices(table, hand, amends, form.seat_values()),
    }  # fmt: skip
    if hand is not None:
        # The picker says each action as the desk's log does ("Seat 1 Ana Ruiz goes all-in
        # for 400"), never its stored codes ("seat 1 all_in").
        context["action_lines"] = [
            (line["action"].seq, line["text"], line["action"].voided_at is not None)
            for line in action_log(hand, list(hand.actions.all()))
        ]
    if hand is not None and hand.state == HandStatus.IN_PROGRESS:
        # "What does this count as?" for the hand in dispute, as on the desk.
        context["count_form"] = CountForm(chip_set=hand_chip_set(hand, hand.table))
    template = (
        "cardroom/ruling_form.html#ruling-form" if request.htmx else "cardroom/ruling_form.html"
    )
    return render(request, template, context, status=status)


def seat_choices(
    table: Table | None, hand: Hand | None, amends: Ruling | None, ticked: set[int]
) -> list[dict[str, Any]]:
    """The ruling form's seat picker: each seat of the hand (as dealt) or of the table, with
    who sits there ("Seat 3 · Alice"), ticked as posted."""
    if table is None:
        return []
    about = hand if hand is not None and hand.table_id == table.pk else None
    names = seat_names(table, hand=about, amends=amends)
    numbers = sorted(entry["seat"] for entry in about.seats) if about else range(1, table.seats + 1)
    return [{"seat": n, "name": names.get(n, ""), "ticked": n in ticked} for n in numbers]


@require_GET
@role_required(*RULING_WRITERS)
def ruling_cite_search(request: AuthenticatedRequest) -> HttpResponse:
    """Autocomplete for citations: rulebook search by words or by id."""
    query = request.GET.get("q", "").strip()
    hits = search_rules(query, limit=8) if len(query) >= 2 else []
    return render(request, "cardroom/ruling_form.html#cite-results", {"hits": hits, "query": query})


@require_GET
@role_required(*RULING_WRITERS)
def ruling_cite_add(request: AuthenticatedRequest) -> HttpResponse:
    """Add a rule to the ruling being written; precedents citing the same rules come along."""
    wanted, already = request.GET.get("id", ""), request.GET.getlist("cite")
    rules = cited_rules([*already, wanted])
    new_rule = next((rule for rule in rules if rule.citation_id == wanted), None)
    if new_rule is None:
        return HttpResponse("Not a rule in the rulebook.", status=422)
    if wanted in already:
        return HttpResponse(status=204)  # cited once (its pinpoint says where); nothing to add
    context = {
        "new_rule": new_rule,
        "precedents": precedents([r.citation_id for r in rules]),
        "oob": True,
    }
    return render(request, "cardroom/ruling_form.html#cite-added", context)


@require_POST
@role_required(*READERS)
def desk_interpret(request: AuthenticatedRequest, hand_id: int) -> HttpResponse:
    """ "What does this count as?": the chips tapped and the words ticked, read by the engine.
    Writes nothing, so every reader may use it."""
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    form = CountForm(request.POST, chip_set=hand_chip_set(hand, hand.table))
    context: dict[str, Any] = {"hand": hand, "table": hand.table, "count_form": form}
    # At the desk only (the ruling form's reader has no action panel to swap), kept by every
    # answer of the reader, its reading may be entered as the action.
    context["on_desk"] = request.POST.get("on_desk") == "1"
    status = 200
    if form.is_valid() and form.cleaned_data["chips"] and not form.cleaned_data["adding"]:
        try:
            state = engine_state(hand)
            reading = interpret(facing_of(state), form.physical())
            context["reading"] = reading
            context["reading_words"] = reading_words(reading.action, reading.to)
            # The reading entered as the action of the seat to act, through the action
            # panel's view (desk_act) with this hand's step, for those who enter actions.
            context["to_act"] = state.to_act
            context["can_write"] = has_role(request.user, *HAND_WRITERS)
        except (IllegalAction, BadInput) as exc:
            context["reading_error"] = exc
            status = 422
    elif not form.is_valid():
        status = 422
    return render(request, "cardroom/desk.html#count-helper", context, status=status)
