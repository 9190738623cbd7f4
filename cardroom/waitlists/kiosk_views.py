"""The kiosk ``/kiosk/``: a tablet at the podium where a player puts their own name
on one or more waitlists, with no log-in. Large touch targets; it never shows another player's
name (only how many wait for each game).

Privacy: the kiosk cannot tell who is typing, so its answer must not depend on anybody else's
presence. A name already on a list is taken as that player putting their name down again
(``waitlists.add_to_list`` keeps their entry) and the answer is the one a new name gets: the
games they are down for and the name the board shows them by, made from what was typed (the
typed alias, else the initials), never the stored alias. No place number: a place would differ
between "just added" (the bottom) and "already down" (higher up), or be false; the player finds
their place on the board by that name. Adding is rate-limited
per address (scope ``kiosk`` of ``CARDROOM_THROTTLE_RATES``; refused posts ``kiosk_refused``); bad input is a form error (422),
never a 500. The floor's side of the lists is ``cardroom/waitlists/views.py``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from cardroom.core.public_api import CountedThrottle
from cardroom.seats.models import Player, split_contact
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.forms import PlayerNameForm
from cardroom.waitlists.models import EntrySource, RoomSettings
from cardroom.waitlists.views import refusal_text

KIOSK = "cardroom/kiosk.html"


def kiosk_lists() -> list[dict[str, Any]]:
    return [{"game_list": gl, "waiting": n} for gl, n in waitlists.open_lists_waiting()]


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
@login_not_required
def kiosk(request: HttpRequest) -> HttpResponse:
    """A player puts their own name on one or more lists. Shows no other player's name."""
    room = RoomSettings.current()
    context: dict[str, Any] = {"room": room, "lists": kiosk_lists()}
    if not room.kiosk_enabled:
        return render(request, KIOSK, {**context, "closed": True}, status=403)
    if request.method != "POST":
        return render(request, KIOSK, {**context, "form": PlayerNameForm()})
    # Names added count against ``kiosk``; posts refused with a form error against
    # ``kiosk_refused``, a higher cap (a fumbling player does not lock the tablet).
    added, refused = CountedThrottle("kiosk"), CountedThrottle("kiosk_refused")
    wait = refused.check(request) or added.check(request)
    if wait is not None:
        context["throttled"] = int(wait) + 1
        response = render(request, KIOSK, {**context, "form": PlayerNameForm()}, status=429)
        response["Retry-After"] = str(context["throttled"])
        return response
    form = PlayerNameForm(request.POST)
    if not form.is_valid():
        refused.count()
        return render(request, KIOSK, {**context, "form": form}, status=422)
    # The lists that can take the name are joined; each that cannot says why beside the form.
    adds = waitlists.add_to_lists(
        game_lists=form.cleaned_data["lists"], name=form.cleaned_data["name"],
        alias=form.cleaned_data["alias"], source=EntrySource.KIOSK, by=None,
    )  # fmt: skip
    for game_list, exc in adds.refused:
        form.add_error(None, f"{game_list.label}: {refusal_text(exc)}")
    placed = [{"game_list": entry.game_list} for entry in adds.added]
    if not placed:
        refused.count()
        return render(request, KIOSK, {**context, "form": form}, status=422)
    added.count()
    done = {**context, "placed": placed, "form": form, "public_name": typed_public_name(form)}
    return render(request, KIOSK, done)


def typed_public_name(form: PlayerNameForm) -> str:
    """The name the board shows, from what was typed only (the module's "Privacy")."""
    data = form.cleaned_data
    # A contact typed after the name ("Ana Ruiz, 600 123 456") is no part of it.
    return Player(name=split_contact(data["name"])[0], alias=data["alias"]).public_name
