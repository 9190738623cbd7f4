"""The betting desk of a table that runs all night: what the desk shows between
and after hands (the seat map, the next hand's proposal, the showdown, the award), and the
dealer's posts that change them: seat a player, add chips, sit out, return, leave; deal the
proposal or a correction of it; push the pots from the winners tapped. Thin views: a form,
one service call (``cardroom.seats.services`` for the seat map, ``cardroom.tables.play`` for the
hands), the desk re-rendered; a refusal is a 422 with its message, a race lost a 409 with
the desk as it is now. The desk's words for the seat map and the proposal are
``cardroom.seats.words``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import HAND_WRITERS, READERS, has_role, role_required
from cardroom.seats import services as players
from cardroom.seats.models import Player, SeatEvent, TableSeat
from cardroom.seats.words import agree_with_proposal, proposal_view, seat_map, tournament_news
from cardroom.tables import play as table_play
from cardroom.tables.choices import TableKind, TableStatus
from cardroom.tables.desk import (
    MAX_STACK,
    TapError,
    action_log,
    award_rows,
    correction_words,
    desk_view,
    hand_chip_set,
    showdown_from_taps,
    showdown_view,
)
from cardroom.tables.forms import CountForm, DealForm
from cardroom.tables.models import Hand, HandStatus, Table
from cardroom.tables.services import award_hand, engine_state
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.state import HandState
from tournaments import table_hands
from tournaments.clock.reading import read_clock
from tournaments.models import SeatAssignment, TournamentTable

# --- what the desk shows ----------------------------------------------------------------------


def render_desk(
    request: HtmxRequest,
    table: Table,
    hand: Hand | None,
    *,
    deal_form: DealForm | None = None,
    refusal: dict[str, Any] | None = None,
    status: int = 200,
    version: str | None = None,
) -> HttpResponse:
    """The desk; ``version``: its ``desk_version`` when the caller has just read it."""
    # The hand replayed once for the whole desk (its seats and log, and the showdown): by the
    # write that just moved it, else here (``engine_state``).
    state = engine_state(hand) if hand is not None and hand.state != "voided" else None
    # The tournament playing here, looked up once for the version and the session.
    tournament_table = table_hands.tournament_table_for(table)
    if tournament_table is not None:
        # Its levels read once: the clock for the version, the proposal's level.
        prefetch_related_objects([tournament_table.tournament], "levels")
    session = session_context(table, hand, state, tournament_table)
    if deal_form is None and session["mode"] == "typed":
        deal_form = DealForm(table=table)  # only a typed-stack desk shows the deal form
    context = {
        "table": table,
        "hand": hand,
        "desk": desk_view(hand, state) if hand is not None and state is not None else None,
        # The dealer's correction of the proposed button or blinds, with the reason.
        "correction": correction_words(hand) if hand is not None else "",
        "deal_form": deal_form,
        "refusal": refusal,
        "can_write": has_role(request.user, *HAND_WRITERS),
        "count_form": CountForm(chip_set=hand_chip_set(hand, table)),
        "desk_version": desk_version(table, hand, tournament_table) if version is None else version,
        **session,
    }
    if not request.htmx:
        return render(request, "cardroom/desk.html", context, status=status)
    response = render(request, "cardroom/desk.html#desk", context, status=status)
    # The desk alone, without the white space around it: an outerHTML swap puts the answer's
    # text nodes in the page beside the new desk and nothing takes them out (two a tap).
    response.content = response.content.strip()
    return response


def desk_version(table: Table, hand: Hand | None, tournament_table: TournamentTable | None) -> str:
    """What the desk's poll is keyed on (``?seq=``): the last hand and its step, the seat
    map's last change (every seating, chips, sitting out, return, leaving is a SeatEvent)
    and, at a tournament table (``tournament_table``: ``table_hands.tournament_table_for``),
    its seating (moves, eliminations), the clock's level and the hand-for-hand hand with how
    many tables have pushed it. A second device sees a change between hands, not only the
    next deal's."""
    parts = [f"{hand.pk}:{hand.seq}" if hand is not None else "none"]
    last_event = SeatEvent.objects.filter(table=table).order_by("-pk").values_list("pk").first()
    if last_event is not None:
        parts.append(f"s{last_event[0]}")
    if tournament_table is not None:
        tournament = tournament_table.tournament
        clock = read_clock(tournament, list(tournament.levels.all()))
        level = clock.level.number if clock.level is not None else 0
        parts.append(f"t{tournament.seating_version}.{level}")
        # Hand-for-hand: another table's push releases this one's Deal (or counts one more).
        parts.append(table_hands.hand_for_hand_mark(tournament))
    return "/".join(parts)


def session_context(
    table: Table,
    hand: Hand | None,
    state: HandState | None,
    tournament_table: TournamentTable | None,
) -> dict[str, Any]:
    """The seat map (cash) or the entrants (tournament), the showdown or the award of the
    last hand, and the next hand's proposal when no hand is in progress. A table with no
    seat map and no tournament deals with typed stacks (``typed``). ``state``: the hand
    replayed (``engine_state``; None for no hand or a voided one); ``tournament_table``: the
    tournament playing here (``table_hands.tournament_table_for``)."""
    # A tournament's table has no cash seat map (its seats are the tournament's).
    seated = players.live_seats(table) if tournament_table is None else []
    mode = "tournament" if tournament_table is not None else "seated" if seated else "typed"
    if mode == "typed" and hand is not None and hand.names and not hand.settled:
        mode = "seated"  # the players left, the hand they were dealt still needs its award
    context: dict[str, Any] = {"mode": mode, "seat_map": None, "entrants": None}
    # A cash table that has had a seat map and is empty now: the typed-stack deal is folded
    # away behind a disclosure, so nobody deals a nameless hand by mistake.
    context["typed_folded"] = (
        mode == "typed"
        and table.kind != TableKind.TOURNAMENT
        and SeatEvent.objects.filter(table=table).exists()
    )
    if mode == "tournament" and tournament_table is not None:
        context["entrants"] = [
            {"seat": a.seat, "name": a.entrant.name, "chips": a.entrant.chips}
            for a in SeatAssignment.objects.filter(table=tournament_table, ended_at__isnull=True)
            .select_related("entrant")
            .order_by("seat")
        ]
        if hand is not None and state is not None and not hand.settled:
            names = hand.names or {}
            for entrant in context["entrants"]:  # dealt in: the chips behind now
                if names.get(str(entrant["seat"])) == entrant["name"]:
                    entrant["behind"] = state.stacks.get(entrant["seat"])
        context["tournament"] = tournament_table.tournament
        if hand is not None and hand.result:
            context["news"] = tournament_news(tournament_table.tournament, hand)
    elif table.kind != TableKind.TOURNAMENT:
        context["seat_map"] = seat_map(table, seated)
        if hand is not None and hand.names and not hand.settled:
            dealt = {entry["seat"] for entry in hand.seats}
            for row in context["seat_map"]:  # their chips are in play (players.add_chips)
                row["in_hand"] = not row["open"] and row["seat"] in dealt
                if row["in_hand"] and state is not None:
                    # What the dealer sees in front of the player: the stack behind now.
                    row["behind"] = state.stacks.get(row["seat"])
    if hand is not None:
        context["showdown"] = showdown_view(
            hand, variant=table.variant, run_it_twice=table.run_it_twice, state=state
        )
        context["awarded"] = award_rows(hand) if hand.result else None
    between = hand is None or hand.state != HandStatus.IN_PROGRESS
    awaiting_award = hand is not None and bool(hand.names) and not hand.settled
    if mode != "typed" and between and not awaiting_award and table.status != TableStatus.OPEN:
        # A closed (or broken) table deals nothing: say so where the Deal button would be.
        status = table.get_status_display().lower()
        context["proposal_error"] = (
            f"Table {status}: {table} deals no hands until the floor opens it."
        )
    elif mode != "typed" and between and not awaiting_award:
        try:
            # The live seats just read for the seat map: the proposal deals from them.
            proposal = table_play.propose_at(table, tournament_table, seated)
            context["proposal"] = proposal_view(table, proposal, seated)
            if context["seat_map"]:
                agree_with_proposal(table, context["seat_map"], context["proposal"])
        except (ValidationError, BadInput, Conflict, IllegalAction) as exc:
            context["proposal_error"] = message_of(exc)
    return context


def message_of(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    if isinstance(exc, Conflict | BadInput | IllegalAction):
        return str(exc.message)
    return str(exc)


#: Conflict codes that mean another device changed the table first (a race lost); any other
#: 409 is the table's state refusing the request now (``in_hand``, ``not_awarded``, ...;
#: ``player_seated`` too: the player almost always sits at another table, no race about it).
RACES = frozenset(
    {
        "stale", "seat_map_changed", "seating_changed", "seat_changed", "seat_taken",
        "seat_open", "awarded", "dealt_meanwhile", "sitting_out", "playing",
        "entry_changed", "seat_offered",
    }
)  # fmt: skip


def refused(
    request: HtmxRequest,
    table: Table,
    exc: Exception,
    *,
    status: int | None = None,
    kept: dict[str, Any] | None = None,
) -> HttpResponse:
    """The desk as it is now, with the refusal on top: 409 for a race lost, else 422.
    ``kept``: the seat form's values, shown again in its seat's open form to put right."""
    code = status or (409 if isinstance(exc, Conflict) else 422)
    citations = getattr(exc, "citations", ())
    hand = table.hands.order_by("-number").first()
    refusal = {
        "message": race_words(exc) if getattr(exc, "code", "") == "stale" else message_of(exc),
        "citations": citations,
        # "Someone else got there first" only for a race lost; a 409 the table's state
        # answers (a seat dealt into the hand, a hand not awarded yet) is "Not now".
        "conflict": code == 409 and getattr(exc, "code", "") in RACES,
        "not_now": code == 409 and getattr(exc, "code", "") not in RACES,
        "kept": kept or {},
    }
    return render_desk(request, table, hand, refusal=refusal, status=code)


def race_words(exc: Exception) -> str:
    """A hand changed since this desk showed it (``services.StaleHand``), in a dealer's words:
    the service's own message counts the hand's steps, which mean nothing at the table. The
    hand is read again after the refusal to say what changed (its latest action, who entered
    it) and who is to act now, so the next key press is not made for a seat unawares."""
    stale = getattr(exc, "hand", None)
    if not isinstance(stale, Hand):
        return (
            "The hand was changed on another device (an action, a void or the push) before"
            " this arrived. Check it and enter again if it still stands."
        )
    hand = Hand.objects.filter(pk=stale.pk).first() or stale
    words = [f"Hand #{hand.number} was changed on another device."]
    try:
        actions = list(hand.actions.select_related("entered_by", "voided_by"))
        log = action_log(hand, actions) if actions else []
        if log:
            last = log[-1]
            entry = last["action"]
            if entry.voided_at is not None:
                by = entry.voided_by
                text = f"{last['text']} was voided" + (f" ({by})" if by is not None else "")
            else:
                by = entry.entered_by
                text = str(last["text"]) + (f" ({by})" if by is not None else "")
            words.append(f"Latest: {text}.")
        if hand.awarded_at is not None:
            words.append("Its pots have been pushed.")
        elif hand.state == HandStatus.VOIDED:
            words.append("It was called dead.")
        else:
            to_act = engine_state(hand).to_act
            if to_act is not None:
                words.append(f"Seat {to_act} is now to act.")
    except (IllegalAction, BadInput, ValueError, KeyError):  # say what is sure, never a 500
        pass
    words.append("Check it and enter again if it still stands.")
    return " ".join(words)


def latest(request: HtmxRequest, table: Table) -> HttpResponse:
    return render_desk(request, table, table.hands.order_by("-number").first())


# --- the next hand ----------------------------------------------------------------------------


class NextHandForm(forms.Form):
    """Deal the proposal; or, with ``correct``, the dealer's button and blinds and why."""

    correct = forms.BooleanField(required=False)
    button = forms.IntegerField(required=False, min_value=1)
    small = forms.IntegerField(required=False, min_value=0)  # 0: a dead small blind
    big = forms.IntegerField(required=False, min_value=1)
    reason = forms.CharField(required=False, max_length=REASON_MAX, strip=True)
    version = forms.CharField(required=False, max_length=200)
    straddle_offered = forms.BooleanField(required=False)
    straddle = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kept: dict[str, Any] = {"version": data.get("version") or ""}
        if data.get("straddle_offered"):
            kept["straddle"] = bool(data.get("straddle"))
        if not data.get("correct"):
            return kept
        if not data.get("reason"):
            raise forms.ValidationError("Say why the proposal is corrected.")
        # The service reads small 0 as a dead small blind.
        return {
            **kept,
            "button": data.get("button"),
            "small": data.get("small"),
            "big": data.get("big"),
            "reason": data["reason"],
        }


@require_POST
@role_required(*HAND_WRITERS)
def desk_next(request: AuthenticatedRequest, number: int) -> HttpResponse:
    table = get_object_or_404(Table, number=number)
    form = NextHandForm(request.POST)
    if not form.is_valid():
        return refused(request, table, form_error(form))
    try:
        hand = table_play.deal(table=table, by=request.user, **form.cleaned_data)
    except Conflict as exc:
        if exc.code == "not_awarded" and form.cleaned_data.get("version"):
            # The proposal was shown with no hand to award: another device dealt since.
            last = table.hands.order_by("-number").first()
            exc = Conflict("dealt_meanwhile", f"{last} was just dealt on another device.")
        return refused(request, table, exc)
    except (ValidationError, BadInput, IllegalAction) as exc:
        return refused(request, table, exc)
    return render_desk(request, table, hand)


# --- the showdown -----------------------------------------------------------------------------


@require_POST
@role_required(*HAND_WRITERS)
def desk_award(request: AuthenticatedRequest, hand_id: int) -> HttpResponse:
    """Push the pots: the winners tapped per pot become the award's showdown."""
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    table = hand.table
    expected = whole_number(request.POST.get("expected_seq", ""), 18)
    if expected is None:
        return refused(
            request, table, ValidationError("The push came without its hand: reload the desk.")
        )
    view = showdown_view(hand, variant=table.variant, run_it_twice=table.run_it_twice)
    try:
        showdown = None
        if view is not None and not view["complete"]:
            taps = tapped(request.POST)
            # Run it twice (RRoP-14.17) when the table offers it and board 2 was tapped.
            twice = view["twice"] and any(key.startswith("2-") and taps[key] for key in taps)
            showdown = showdown_from_taps(view, taps, twice=twice)
        if hand.names:
            settled = table_play.settle(
                hand=hand, by=request.user, expected_seq=expected, showdown=showdown
            )
        else:  # typed stacks: no seat map to carry the chips to
            settled = award_hand(
                hand=hand, by=request.user, expected_seq=expected, showdown=showdown
            )
    except TapError as exc:
        return refused(request, table, ValidationError(str(exc)))
    except (ValidationError, Conflict, BadInput, IllegalAction) as exc:
        return refused(request, table, exc)
    last = table.hands.order_by("-number").first()
    if last is not None and (last.pk, last.seq) == (settled.pk, settled.seq):
        last = settled  # the hand as the award left it: its actions and replay not read again
    return render_desk(request, table, last)


def tapped(post: Any) -> dict[str, set[int]]:
    """``{"1-high-0": {3}, ...}`` from the showdown form's tapped seats."""
    taps: dict[str, set[int]] = {}
    for key in post:
        if key.count("-") != 2 or key.split("-")[1] not in ("high", "low"):
            continue
        # A tap that is no seat number ("²") taps nobody: the pot is then said to be unwon.
        seats = {whole_number(v, 2) for v in post.getlist(key)}
        taps[key] = {seat for seat in seats if seat is not None}
    return taps


# --- the seat map -----------------------------------------------------------------------------


class SeatForm(forms.Form):
    seat = forms.IntegerField(min_value=1)
    name = forms.CharField(max_length=120, strip=True, label="Player")
    buy_in = forms.IntegerField(min_value=1, max_value=MAX_STACK, label="Buy-in")
    wait = forms.BooleanField(required=False)


class ChipsForm(forms.Form):
    amount = forms.IntegerField(min_value=1, max_value=MAX_STACK)


class CorrectStackForm(forms.Form):
    """A stack typed wrong: the chips in front as counted, and why."""

    stack = forms.IntegerField(min_value=0, max_value=MAX_STACK)
    reason = forms.CharField(max_length=REASON_MAX, strip=True)


def form_error(form: forms.Form) -> ValidationError:
    """A refused form's errors in the words on the page: each field by its label ("Raise to:
    Enter a whole number."), never by its internal name ("to: ...")."""
    lines = []
    for field, errors in form.errors.items():
        words = " ".join(str(e) for e in errors)
        if field == "__all__":
            lines.append(words)
            continue
        label = form.fields[field].label or field.replace("_", " ").capitalize()
        lines.append(f"{label}: {words}")
    return ValidationError(lines)


@require_POST
@role_required(*HAND_WRITERS)
def seat_add(request: AuthenticatedRequest, number: int) -> HttpResponse:
    """Seat a player (an existing player by name, or a new one) with a buy-in."""
    table = get_object_or_404(Table, number=number)
    form = SeatForm(request.POST)
    kept = {key: request.POST.get(key, "")[:120] for key in ("seat", "name", "buy_in", "wait")}
    if not form.is_valid():
        kept["invalid"] = next(iter(form.errors))  # the field the focus goes back to
        return refused(request, table, form_error(form), kept=kept)
    data = form.cleaned_data
    try:
        with transaction.atomic():  # a seat refused leaves no new player record behind
            player = players.find_or_create_player(name=data["name"], by=request.user)
            players.seat_player(
                table=table,
                player=player,
                seat=data["seat"],
                buy_in=data["buy_in"],
                by=request.user,
                waits_for_big_blind=data["wait"],
            )
    except (ValidationError, Conflict, BadInput) as exc:
        fields = list(getattr(exc, "error_dict", {}))
        name = "name" in fields or getattr(exc, "code", "") == "player_seated"
        kept["invalid"] = "name" if name else ""
        return refused(request, table, exc, kept=kept)
    return latest(request, table)


@require_POST
@role_required(*HAND_WRITERS)
def seat_change(request: AuthenticatedRequest, number: int, seat: int, what: str) -> HttpResponse:
    """A seated player's change: ``add`` chips (a rebuy when busted), ``correct`` the stack
    (a count, with the reason), sit ``out``, come ``back`` (posting, or waiting for the big
    blind), ``leave`` (cash out)."""
    table = get_object_or_404(Table, number=number)
    row = TableSeat.objects.filter(table=table, seat=seat, left_at__isnull=True).first()
    if row is None:
        return refused(request, table, Conflict("seat_open", f"Seat {seat} is open now."))
    try:
        if what == "add":
            form = ChipsForm(request.POST)
            if not form.is_valid():
                return refused(request, table, form_error(form))
            players.add_chips(seat=row, amount=form.cleaned_data["amount"], by=request.user)
        elif what == "correct":
            fixed = CorrectStackForm(request.POST)
            if not fixed.is_valid():
                return refused(request, table, form_error(fixed))
            players.correct_stack(
                seat=row,
                stack=fixed.cleaned_data["stack"],
                reason=fixed.cleaned_data["reason"],
                by=request.user,
            )
        elif what == "out":
            players.sit_out(seat=row, by=request.user)
        elif what == "back":
            wait = request.POST.get("wait") == "on"
            players.return_to_play(seat=row, by=request.user, wait_for_big_blind=wait)
        elif what == "leave":
            players.leave_seat(seat=row, by=request.user)
        else:
            return refused(request, table, ValidationError("Not a seat change."), status=400)
    except (ValidationError, Conflict, BadInput) as exc:
        return refused(request, table, exc)
    return latest(request, table)


@require_GET
@role_required(*READERS)
def player_names(request: AuthenticatedRequest, number: int) -> HttpResponse:
    """The name box's suggestions: players the room knows, not seated anywhere now."""
    query = request.GET.get("name", "").strip()[:120]
    seated = TableSeat.objects.filter(left_at__isnull=True).values("player")
    found = Player.objects.exclude(pk__in=seated)
    if query:
        found = found.matching(query)
    context = {"suggestions": list(found.order_by("name")[:12])}
    return render(request, "cardroom/desk_seats.html#player-names", context)
