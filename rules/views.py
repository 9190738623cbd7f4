"""Rulebook pages: search as you type and a permalink per rule, public by default; house rules
written by floor managers."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from cardroom.core.parsers import whole_number
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import READERS, Role, RoleRequired, can_read, role_required
from rules.forms import HouseRuleForm, NewHouseRuleForm, SearchForm
from rules.models import Rule, Rulebook, Section
from rules.search import closest_sections, resolve_citation, search_rules
from rules.services import create_house_rule, update_house_rule
from rules.snippets import word_diff

View = Callable[..., HttpResponse]


def public_rulebook(view: View) -> View:
    """No log-in needed while ``CARDROOM_PUBLIC_RULEBOOK`` is on; otherwise staff and up."""

    @login_not_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.CARDROOM_PUBLIC_RULEBOOK:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not can_read(request.user):
                raise RoleRequired(*READERS)
        return view(request, *args, **kwargs)

    return wrapped


@require_GET
@public_rulebook
def search(request: HtmxRequest) -> HttpResponse:
    form = SearchForm(request.GET or None)
    query, book, section = form.values()
    context: dict[str, Any] = {"form": form, "query": query, "book": book, "section": section}
    if query:
        context["hits"] = search_rules(query, book=book or None, section=section or None, limit=30)
        if not context["hits"]:
            context["closest"] = closest_sections(query)
    else:
        context["books"] = contents(book, section)
    template = "rules/search.html#results" if request.htmx else "rules/search.html"
    return render(request, template, context)


def contents(book: str, section: str) -> list[Rulebook]:
    """The books, their sections and current rules: the rulebook's table of contents."""
    rules = Rule.objects.filter(withdrawn=False).order_by("order")
    sections = Section.objects.order_by("order").prefetch_related(
        Prefetch("rules", queryset=rules.only("citation_id", "title", "section_id", "order"),
                 to_attr="current_rules")
    )  # fmt: skip
    if section:
        sections = sections.filter(code=section)
    books = Rulebook.objects.prefetch_related(
        Prefetch("sections", queryset=sections, to_attr="shown_sections")
    )
    return list(books.filter(code=book) if book else books)


@require_GET
@public_rulebook
def rule_detail(request: HttpRequest, citation_id: str) -> HttpResponse:
    rule = resolve_citation(citation_id)
    if rule is None:
        raise Http404("No rule has that citation.")
    if rule.citation_id != citation_id:
        # An older edition's number ("TDA-41") or other capitals: the rule's own address.
        return redirect(rule)
    previous, following = rule.neighbours()
    versions = list(rule.versions.select_related("edition").order_by("-edition__number"))
    shown = None
    if "edition" in request.GET:
        number = whole_number(request.GET["edition"])
        shown = next((v for v in versions if v.edition.number == number), None)
        if shown is None:
            raise Http404("This rule has no wording in that edition.")
    context = {
        "rule": rule,
        "versions": versions,
        "shown": shown,
        "changes": word_diff(shown.text, rule.text) if shown and shown.text != rule.text else "",
        "examples": rule.examples.all(),
        "aliases": rule.aliases.all(),
        "previous": previous,
        "next": following,
        "cited": rule.cited_count(),
        "revisions": rule.revisions.select_related("changed_by") if rule.house else [],
    }
    return render(request, "rules/rule_detail.html", context)


@role_required(Role.FLOOR_MANAGER)
def house_rule_create(request: AuthenticatedRequest) -> HttpResponse:
    # A search that found nothing offers to write the rule: its words start the title.
    initial = {"title": request.GET.get("title", "")[:200]}
    form = NewHouseRuleForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            rule = create_house_rule(by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"{rule.citation_id} added to the house rules.")
            return redirect(rule)
    status = 422 if request.method == "POST" else 200
    return render(request, "rules/house_rule_form.html", {"form": form}, status=status)


@role_required(Role.FLOOR_MANAGER)
def house_rule_edit(request: AuthenticatedRequest, citation_id: str) -> HttpResponse:
    rule = get_object_or_404(Rule, citation_id=citation_id, house=True)
    initial = {"title": rule.title, "text": rule.text}
    form = HouseRuleForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        update_house_rule(rule=rule, by=request.user, **form.cleaned_data)
        messages.success(
            request, f"{rule.citation_id} saved; the earlier wording is in its history."
        )
        return redirect(rule)
    status = 422 if request.method == "POST" else 200
    context = {"form": form, "rule": rule}
    return render(request, "rules/house_rule_form.html", context, status=status)
