"""The clock page's context and its structure editor: time added or removed, a step changed, inserted or
deleted, levels added, and the recent changes with who and why. Directors only; each post
answers the editor fragment (``tournaments/clock.html#structure``), with the typed values and
the refusal next to the field (422) when a change is refused. Without JavaScript the whole
page comes back the same way, and a change made goes back to the clock page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.core.navigation import redirect_to
from cardroom.core.numbers import grouped
from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import Role, role_required
from tournaments.clock import structure
from tournaments.clock.display import TV_LINK_DAYS, tv_link_token
from tournaments.clock.forms import AddLevelsForm, InsertForm, ReasonForm, StepForm, TimeForm
from tournaments.clock.reading import ClockReading, read_clock
from tournaments.draws.errors import DrawError
from tournaments.models import ClockState, Level, Tournament
from tournaments.views import tournament_or_404

#: The recent changes the clock page lists.
RECENT_CHANGES = 12


def face_context(tournament: Tournament) -> dict[str, Any]:
    """The clock face's reading of the clock now (polled every second: nothing more)."""
    levels = list(tournament.levels.all())
    return {"tournament": tournament, "clock": read_clock(tournament, levels, timezone.now())}


def clock_context(tournament: Tournament, bound: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The clock page: the clock face, the TV link, and the structure editor
    (``editor_context``)."""
    face = face_context(tournament)
    return {
        **face,
        "tv_token": tv_link_token(tournament),
        "tv_link_days": TV_LINK_DAYS,
        **editor_context(tournament, bound, face["clock"]),
    }


def editor_context(
    tournament: Tournament,
    bound: Mapping[str, Any] | None = None,
    reading: ClockReading | None = None,
) -> dict[str, Any]:
    """The editor's rows and forms. ``bound``: the form just refused (its ``target``: ``time``,
    ``insert``, ``add`` or ``step-<id>``, its typed ``values`` and its ``errors``). The clock
    as read now (``reading``): levels passed on time but not yet recorded count as played."""
    bound = bound or {}
    target = bound.get("target")
    levels = list(tournament.levels.all())
    reading = reading or read_clock(tournament, levels, timezone.now())
    names = reading.names
    state = reading.state
    number = reading.level.number if reading.level is not None else tournament.level_number
    first = structure.first_changeable_in(state, number)
    started = state != ClockState.STOPPED
    rows = []
    for level in levels:
        mine = target == f"step-{level.pk}"
        current = started and level.number == number
        rows.append(
            {
                "level": level,
                "name": names.get(level.number, ""),
                "current": current,
                "changeable": level.number >= first,
                # The level in play: only its time (CR-TP.2); not once the structure ran out.
                "time_only": current and structure.in_play(state),
                "values": bound["values"] if mine else _values(level),
                "errors": bound["errors"] if mine else {},
            }
        )
    forms_ = {
        name: {
            "values": bound["values"] if target == name else {},
            "errors": bound["errors"] if target == name else {},
        }
        for name in ("time", "insert", "add")
    }
    return {
        "rows": rows,
        "editor": forms_,
        "insert_after": [row["level"] for row in rows if row["level"].number >= first - 1],
        "insert_first": not started,
        "can_edit": state != ClockState.ENDED,
        "time_open": structure.in_play(state),
        "ran_out": state == ClockState.FINISHED,
        "changes": [
            {
                "at": change.at,
                "by": change.by,
                "action": change.get_action_display(),
                "level_number": change.level_number,
                "was": step_text(change.before),
                "now": step_text(change.after),
                "reason": change.reason,
            }
            for change in tournament.structure_changes.select_related("by")[:RECENT_CHANGES]
        ],
        "max_added": structure.MAX_ADDED,
    }


def step_text(step: Mapping[str, Any] | None) -> str:
    """A recorded step (``Level.as_dict()``) as the changes list shows it: ``150 / 300 ante
    300 · 20 min`` or ``Break · 15 min``; a dash for none."""
    if not step:
        return "–"
    seconds = int(step["seconds"])
    time = f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds // 60} min {seconds % 60} s"
    if step["is_break"]:
        return f"Break · {time}"
    ante = f" ante {grouped(step['ante'])}" if step["ante"] else ""
    return f"{grouped(step['small_blind'])} / {grouped(step['big_blind'])}{ante} · {time}"


def _values(level: Level) -> dict[str, str]:
    return {
        "small_blind": str(level.small_blind),
        "big_blind": str(level.big_blind),
        "ante": str(level.ante) if level.ante else "",
        "minutes": str(max(1, round(level.duration.total_seconds() / 60))),
    }


def _errors(exc: DrawError | ValidationError | forms.Form) -> dict[str, str]:
    if isinstance(exc, forms.Form):
        return {name: " ".join(map(str, messages)) for name, messages in exc.errors.items()}
    if isinstance(exc, DrawError):
        return {"__all__": exc.message}
    if hasattr(exc, "error_dict"):
        return {name: " ".join(messages) for name, messages in exc.message_dict.items()}
    return {"__all__": " ".join(exc.messages)}


def _change(
    request: AuthenticatedRequest,
    tournament: Tournament,
    target: str,
    form: forms.Form,
    action: Callable[[dict[str, Any]], object],
) -> HttpResponse:
    """Validate, make the change, answer the editor (or the page, without htmx)."""
    errors: dict[str, str]
    if form.is_valid():
        try:
            action(form.cleaned_data)
        except (DrawError, ValidationError) as exc:
            errors = _errors(exc)
        else:
            if not request.htmx:
                return redirect_to(request, reverse("tournaments:clock", args=[tournament.pk]))
            tournament.refresh_from_db()
            context = {"tournament": tournament, **editor_context(tournament)}
            return render(request, "tournaments/clock.html#structure", context)
    else:
        errors = _errors(form)
    known = {"small_blind", "big_blind", "ante", "minutes", "reason", "count", "after", "kind"}
    general = " ".join(text for name, text in errors.items() if name not in known)
    bound = {
        "target": target,
        "values": {name: request.POST.get(name, "") for name in known},
        "errors": errors | {"general": general},
    }
    tournament.refresh_from_db()
    context = {"tournament": tournament, **editor_context(tournament, bound)}
    if request.htmx:
        return render(request, "tournaments/clock.html#structure", context, status=422)
    # Without JavaScript: the whole clock page, the refused form kept as typed.
    return render(request, "tournaments/clock.html", clock_context(tournament, bound), status=422)


@require_POST
@role_required(Role.DIRECTOR)
def structure_time(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    return _change(
        request,
        tournament,
        "time",
        TimeForm(request.POST),
        lambda data: structure.adjust_time(
            tournament=tournament, seconds=60 * data["minutes"], reason=data["reason"],
            by=request.user,
        ),
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def structure_step(request: AuthenticatedRequest, pk: int, level_id: int) -> HttpResponse:
    """Change the step (``do=save``) or delete it (``do=delete``)."""
    tournament = tournament_or_404(pk)
    level = get_object_or_404(Level, pk=level_id, tournament=tournament)
    target = f"step-{level.pk}"
    if request.POST.get("do") == "delete":
        return _change(
            request, tournament, target, ReasonForm(request.POST),
            lambda data: structure.delete_level(
                tournament=tournament, level=level, reason=data["reason"], by=request.user
            ),
        )  # fmt: skip
    form = StepForm(request.POST, is_break=level.is_break)
    return _change(
        request, tournament, target, form,
        lambda data: structure.edit_level(
            tournament=tournament, level=level, values=form.values(), reason=data["reason"],
            by=request.user,
        ),
    )  # fmt: skip


@require_POST
@role_required(Role.DIRECTOR)
def structure_insert(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    form = InsertForm(request.POST)

    def insert(data: dict[str, Any]) -> Tournament:
        after = None
        if data["after"]:
            after = Level.objects.filter(pk=data["after"], tournament=tournament).first()
            if after is None:
                raise ValidationError({"after": "Choose a step of this structure."})
        return structure.insert_level(
            tournament=tournament, after=after, values=form.values(), reason=data["reason"],
            by=request.user,
        )  # fmt: skip

    return _change(request, tournament, "insert", form, insert)


@require_POST
@role_required(Role.DIRECTOR)
def structure_add(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    return _change(
        request, tournament, "add", AddLevelsForm(request.POST),
        lambda data: structure.add_levels(
            tournament=tournament, count=data["count"], reason=data["reason"], by=request.user
        ),
    )  # fmt: skip
