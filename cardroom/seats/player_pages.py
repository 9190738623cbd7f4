"""The room's players as the staff see them: the search as you type that every name box uses
(the cash seat map, the waitlists, a tournament's registration), and a player's page for the
floor managers and directors: the record (name, alias, contact, notes) to correct, the bar
to set or lift with its reason, the player's tournament entries and cash seats. Thin views:
a form, one service call (``cardroom.seats.services``), the page or its fragment again; a
refusal is a 422 with its message, a change made meanwhile a 409."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import HAND_WRITERS, READERS, role_required
from cardroom.seats import services as players
from cardroom.seats.models import Player, split_contact
from tournaments.models import Entrant

#: At most this many players a search shows (the staff type more to narrow it).
SEARCH_SHOWN = 20
#: At most this many of a player's entries and of their cash seats on their page.
HISTORY_SHOWN = 25


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    alias = forms.CharField(max_length=40, required=False, help_text="Shown in public, if set.")
    contact = forms.CharField(
        max_length=120, required=False, help_text="A phone or an e-mail: tells two people apart."
    )
    notes = forms.CharField(
        max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 2}),
        help_text="For the staff only.",
    )  # fmt: skip


class BarForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX, label="Why", help_text="On record, and shown to the staff."
    )


@require_GET
@role_required(*READERS)
def player_search(request: AuthenticatedRequest) -> HttpResponse:
    """Players whose name or alias starts with what was typed (``q`` or ``name``, at most 120
    characters; a contact typed after the name is left out of the search), at
    most ``SEARCH_SHOWN``: each with alias, the contact's last characters, a barred badge.
    ``for``: the id of the name box a choice fills in (letters, digits, "-" and "_")."""
    # "q": a search box's; "name": a name box's own (the waitlists' add form sends it).
    typed = " ".join((request.GET.get("q") or request.GET.get("name", "")).split())
    target = request.GET.get("for", "")
    error = ""
    if len(typed) > 120:
        error = "Type at most 120 characters of a name or alias."
    elif target and not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", target):
        error = "The name box to fill is named by letters, digits, '-' and '_'."
    if error:
        return render(request, "cardroom/players.html#player-results", {"error": error}, status=400)
    typed = split_contact(typed)[0]
    found = (
        list(Player.objects.search(typed).order_by("name", "id")[:SEARCH_SHOWN]) if typed else []
    )
    context = {"found": found, "typed": typed, "target": target, "shown": SEARCH_SHOWN}
    return render(request, "cardroom/players.html#player-results", context)


@require_http_methods(["GET", "POST"])
@role_required(*HAND_WRITERS)
def player_detail(request: AuthenticatedRequest, player_id: int) -> HttpResponse:
    """A player's page; a POST corrects the record (``edit_player``)."""
    player = get_object_or_404(Player, pk=player_id)
    form = PlayerForm(request.POST or None, initial=_record(player))
    if request.method == "POST":
        if not form.is_valid():
            return _page(request, player, form=form, status=422)
        try:
            players.edit_player(player=player, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            _put_on(form, exc)
            return _page(request, player, form=form, status=422)
        except Conflict as exc:
            form.add_error(None, exc.message)
            return _page(request, player, form=form, status=409)
        return redirect("cardroom:player_detail", player_id=player.pk)
    return _page(request, player, form=form)


@require_POST
@role_required(*HAND_WRITERS)
def player_bar(request: AuthenticatedRequest, player_id: int) -> HttpResponse:
    """Bar the player, or lift the bar (``barred`` 1 or 0), with the reason (``bar_player``)."""
    player = get_object_or_404(Player, pk=player_id)
    bar_form = BarForm(request.POST)
    barred = whole_number(request.POST.get("barred", ""))
    if barred not in (0, 1):
        bar_form.add_error(None, "Say whether to bar the player or lift the bar.")
    if not bar_form.is_valid():
        return _page(request, player, bar_form=bar_form, status=422)
    try:
        players.bar_player(
            player=player, reason=bar_form.cleaned_data["reason"], by=request.user,
            barred=barred == 1,
        )  # fmt: skip
    except ValidationError as exc:
        _put_on(bar_form, exc)
        return _page(request, player, bar_form=bar_form, status=422)
    except Conflict as exc:
        bar_form.add_error(None, exc.message)
        return _page(request, player, bar_form=bar_form, status=409)
    return redirect("cardroom:player_detail", player_id=player.pk)


def _record(player: Player) -> dict[str, Any]:
    return {f: getattr(player, f) for f in ("name", "alias", "contact", "notes")}


def _put_on(form: forms.Form, exc: ValidationError) -> None:
    for field, messages in exc.message_dict.items():
        form.add_error(field if field in form.fields else None, messages)


def _page(
    request: AuthenticatedRequest,
    player: Player,
    *,
    form: PlayerForm | None = None,
    bar_form: BarForm | None = None,
    status: int = 200,
) -> HttpResponse:
    player.refresh_from_db()
    entries = (
        Entrant.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-registered_at", "-id")
    )
    seats = player.seats.select_related("table").order_by("-seated_at", "-id")
    context = {
        "player": player,
        "form": form or PlayerForm(initial=_record(player)),
        "bar_form": bar_form or BarForm(),
        "entries": list(entries[:HISTORY_SHOWN]),
        "seats": list(seats[:HISTORY_SHOWN]),
        "changes": list(player.changes.select_related("by").order_by("-at", "-id")[:HISTORY_SHOWN]),
        "shown": HISTORY_SHOWN,
    }
    return render(request, "cardroom/player.html", context, status=status)
