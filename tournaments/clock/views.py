"""The tournament clock's pages: the director's clock (start, pause, resume, a level up or
back, which asks first while the clock runs), the room display for a TV and the state it polls.
Thin views, as in ``tournaments.views``, whose refusal and action helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import READERS, Role, role_required
from tournaments.clock.display import (
    display_state,
    room_labels,
    room_state,
    tv_link_opens,
)
from tournaments.clock.services import advance_level, pause_clock, resume_clock, start_clock
from tournaments.clock.structure_views import clock_context, face_context
from tournaments.models import ClockState, Tournament
from tournaments.views import act, refused, tournament_or_404


def reader_or_tv_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The room display and its state: a log-in with a role, or the TV link's ``tv`` token
    for this tournament (``clock_display.tv_link_opens``); anyone else logs in first."""
    guarded = role_required(*READERS)(view)

    @login_not_required
    @wraps(view)
    def wrapped(request: HttpRequest, pk: int) -> HttpResponse:
        if tv_link_opens(request.GET.get("tv", ""), pk):
            return view(request, pk)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return guarded(request, pk)

    return wrapped


@require_GET
@role_required(*READERS)
def clock(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    if request.htmx:  # the face's poll, every second
        return render(request, "tournaments/clock.html#clock-face", face_context(tournament))
    return render(request, "tournaments/clock.html", clock_context(tournament))


@require_GET
@reader_or_tv_link
def clock_display(request: HttpRequest, pk: int) -> HttpResponse:
    """The room display: the clock full-screen on a TV, no navigation, kept by static/js/clock.js."""
    tournament = tournament_or_404(pk)
    state = room_state(tournament, list(tournament.levels.all()), timezone.now())
    context = {
        "tournament": tournament,
        "state": state,
        "labels": room_labels(state),
        "tv": request.GET.get("tv", "") if tv_link_opens(request.GET.get("tv", ""), pk) else "",
    }
    return render(request, "tournaments/clock_display.html", context)


@require_GET
@reader_or_tv_link
def clock_state(request: HttpRequest, pk: int) -> JsonResponse:
    """What the room display polls: a fixed-size GET, the state as of the server's clock."""
    state = display_state(pk, timezone.now())
    if state is None:
        raise Http404("No such tournament.")
    return JsonResponse(state, headers={"Cache-Control": "no-store"})


CLOCK_ACTIONS: dict[str, Callable[..., Tournament]] = {
    "start": start_clock,
    "pause": pause_clock,
    "resume": resume_clock,
    "advance": advance_level,
    "back": lambda **kw: advance_level(back=True, **kw),
}


@require_POST
@role_required(Role.DIRECTOR)
def clock_action(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    action = CLOCK_ACTIONS.get(request.POST.get("action", ""))
    url = reverse("tournaments:clock", args=[pk])
    if action is None:
        return refused(request, ValidationError("Unknown clock action."), url)
    name = request.POST["action"]
    jumps = name in ("advance", "back") and tournament.clock_state == ClockState.RUNNING
    if jumps and request.POST.get("confirm") != "1":
        # A level jump changes the blinds at every table at once: with the clock running
        # the director confirms it (the buttons send ``confirm`` only from this question).
        target = "the next level" if name == "advance" else "the previous level"
        question = {"action": name, "question": f"Go to {target} now, at every table?"}
        context = clock_context(tournament) | {"confirm_jump": question}
        return render(request, "tournaments/clock.html", context)  # a question: 200
    return act(request, url, lambda: action(tournament=tournament, by=request.user))
