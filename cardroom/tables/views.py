"""Floor pages. Thin views: role check, form, one service call, render."""

from typing import Any, cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.converters import typed_id
from cardroom.core.form_errors import add_errors
from cardroom.core.navigation import redirect_to
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import (
    HAND_WRITERS,
    READERS,
    Role,
    RoleRequired,
    has_role,
    may_open_or_close,
    role_required,
)
from cardroom.screens.floor import cards, seatings_at, tables_for_floor
from cardroom.seats.views import desk_version, form_error, refused, render_desk
from cardroom.tables.choices import TableKind
from cardroom.tables.desk import hand_chip_set, own_repeat, reading_words, remember_tap
from cardroom.tables.filters import TableFilter, filtered
from cardroom.tables.forms import (
    PRESETS,
    ActionForm,
    CountForm,
    DealForm,
    TableForm,
    VoidForm,
    unconfirmed_void,
)
from cardroom.tables.history import table_history
from cardroom.tables.models import Hand, Table
from cardroom.tables.services import (
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
from rules.betting import facing_of
from rules.engine.chips import interpret
from rules.engine.errors import BadInput, IllegalAction
from tournaments import table_hands
from tournaments.models import TournamentTable

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
    version = desk_version(table, hand, table_hands.tournament_table_for(table))
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
    # The hand as the action left it (its actions and their replay with it): not read again.
    return render_desk(request, hand.table, entered.hand)


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
