"""Floor pages. Thin views: role check, form, one service call, render."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from cardroom.core.converters import typed_id
from cardroom.core.form_errors import add_errors
from cardroom.core.navigation import redirect_to
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import (
    READERS,
    RULING_WRITERS,
    RoleRequired,
    role_required,
)
from cardroom.rulings.filters import RulingFilter
from cardroom.rulings.forms import RulingForm
from cardroom.rulings.models import Ruling
from cardroom.rulings.reading import (
    amendment_draft,
    cited_rules,
    precedents,
    ruling_chain,
    ruling_references,
    write_rulings_csv,
)
from cardroom.rulings.services import WITH_TOURNAMENT, log_ruling, seat_names, tournament_name
from cardroom.tables.desk import action_log, hand_chip_set
from cardroom.tables.filters import filtered
from cardroom.tables.forms import (
    CountForm,
)
from cardroom.tables.models import Hand, HandStatus, Table
from rules.search import search_rules

# --- rulings --------------------------------------------------------------------------------


def ruling_queryset() -> Any:
    return Ruling.objects.select_related(
        "table", WITH_TOURNAMENT, "director", "hand", "amends"
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
    write_rulings_csv(response, rulings, tournament_name)
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
