"""Rulebook pages: public search and permalinks, htmx fragments, house rules for floor
managers only (403 for the other roles)."""

import re
from typing import Any

import pytest
from django.test import override_settings

from rules import rulebook_format as fmt
from rules.models import Rule, RuleRevision
from rules.services import create_house_rule, import_rulebook, refresh_vocabulary

pytestmark = pytest.mark.django_db

STRADDLE = fmt.Rule(
    citation="CLUB-1", number="1", section="S", title="One live straddle",
    text="One straddle is allowed, for twice the big blind.\n\nIt acts last before the flop.",
    examples=(fmt.Example("Example 1", "Blinds 1-2: the straddle is 4."),),
    other_editions=(fmt.OtherEdition("Club 2019", "7", "CLUB-2019-7"),),
)  # fmt: skip
BUTTON = fmt.Rule(
    citation="CLUB-2", number="2", section="S", title="Dead button", text="The button moves on.",
    examples=(), other_editions=(),
)  # fmt: skip
CLOCK = fmt.Rule(
    citation="CLUB-3", number="3", section="S", title="Calling the clock",
    text="A player gets a minute once the clock is called.", examples=(), other_editions=(),
)  # fmt: skip


@pytest.fixture
def club() -> None:
    import_rulebook(
        fmt.Book(
            code="CLUB", title="Club Rules", source="The club", edition="2025",
            attribution="Written by the club's floor staff.", url="",
            sections=(fmt.Section("S", "Straddles and buttons", 1),),
            rules=(STRADDLE, BUTTON, CLOCK), path="club.toml",
        )
    )  # fmt: skip
    refresh_vocabulary()


@pytest.mark.parametrize("persona", ["anonymous", "no_role_user", "staff", "floor_manager"])
def test_the_rulebook_is_public(persona_client: Any, persona: str, club: None) -> None:
    client = persona_client(persona)
    assert client.get("/rulebook/").status_code == 200
    assert client.get("/rulebook/?q=straddle").status_code == 200
    assert client.get("/rulebook/CLUB-1/").status_code == 200


@override_settings(CARDROOM_PUBLIC_RULEBOOK=False)
@pytest.mark.parametrize(
    ("persona", "expected"),
    [("anonymous", 302), ("no_role_user", 403), ("staff", 200), ("director", 200),
     ("floor_manager", 200)],
)  # fmt: skip
def test_a_private_rulebook_is_for_staff_and_up(
    persona_client: Any, persona: str, expected: int, club: None
) -> None:
    client = persona_client(persona)
    assert client.get("/rulebook/").status_code == expected
    assert client.get("/rulebook/CLUB-1/").status_code == expected


@override_settings(CARDROOM_PUBLIC_RULEBOOK=False)
def test_a_private_rulebook_refusal_keeps_the_navigation_and_says_who_may_read(
    persona_client: Any, club: None
) -> None:
    html = persona_client("no_role_user").get("/rulebook/").content.decode()
    assert "a role on the floor" in html
    assert 'aria-label="Main"' in html


def test_search_page_lists_hits_with_highlighted_snippets(client: Any, club: None) -> None:
    html = client.get("/rulebook/?q=straddle").content.decode()
    assert "data-search-box" in html and 'hx-get="/rulebook/"' in html
    assert 'href="/rulebook/CLUB-1/" data-search-result' in html
    assert "<mark>straddle</mark>" in html.lower()
    assert "CLUB-2" not in html


def test_typing_gets_only_the_results_fragment(client: Any, club: None) -> None:
    response = client.get("/rulebook/?q=clock", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="results"') and "<html" not in html
    assert 'data-query="clock"' in html and "CLUB-3" in html


def test_without_a_query_the_page_is_the_table_of_contents(client: Any, club: None) -> None:
    html = client.get("/rulebook/").content.decode()
    assert "Club Rules" in html and "Straddles and buttons" in html
    for citation in ("CLUB-1", "CLUB-2", "CLUB-3"):
        assert f'href="/rulebook/{citation}/"' in html


def test_a_query_is_escaped_on_the_page(client: Any, club: None) -> None:
    html = client.get("/rulebook/", {"q": '<script>alert("x")</script>'}).content.decode()
    assert '<script>alert("x")' not in html
    assert "&lt;script&gt;" in html


def test_no_match_says_what_to_try(client: Any, club: None) -> None:
    assert "No rule matches" in client.get("/rulebook/?q=zzzzqqq").content.decode()


def test_the_permalink_shows_text_examples_editions_and_neighbours(client: Any, club: None) -> None:
    html = client.get("/rulebook/CLUB-2/").content.decode()
    assert "Dead button" in html and "The button moves on." in html
    assert 'rel="prev" href="/rulebook/CLUB-1/"' in html
    assert 'rel="next" href="/rulebook/CLUB-3/"' in html
    first = client.get("/rulebook/CLUB-1/").content.decode()
    assert "<p>One straddle is allowed, for twice the big blind.</p>" in first
    assert "Blinds 1-2: the straddle is 4." in first
    assert "Club 2019: rule 7" in first and "CLUB-2019-7" in first
    assert "Cited in 0 rulings" in first and "data-print" in first
    assert 'rel="prev"' not in first


def test_the_permalink_counts_the_rulings_citing_it(client: Any, club: None) -> None:
    from cardroom.rulings.services import log_ruling
    from tests.factories import make_table, make_user

    director = make_user(username="td", role=None, superuser=True)
    table = make_table(number=2)
    for situation in ("Two straddles.", "A straddle out of turn."):
        log_ruling(
            table=table, director=director, situation=situation,
            decision="One straddle only.", citations=[("CLUB-1", "")],
        )  # fmt: skip
    assert "Cited in 2 rulings" in client.get("/rulebook/CLUB-1/").content.decode()


def test_an_old_number_or_other_capitals_redirect_to_the_rule(client: Any, club: None) -> None:
    assert client.get("/rulebook/CLUB-2019-7/").url == "/rulebook/CLUB-1/"
    assert client.get("/rulebook/club-3/").url == "/rulebook/CLUB-3/"
    assert client.get("/rulebook/CLUB-99/").status_code == 404


def test_a_withdrawn_rule_keeps_its_page_with_a_notice(client: Any, club: None) -> None:
    Rule.objects.filter(citation_id="CLUB-3").update(withdrawn=True)
    html = client.get("/rulebook/CLUB-3/").content.decode()
    assert "Withdrawn" in html and "Calling the clock" in html
    assert "CLUB-3" not in client.get("/rulebook/?q=clock").content.decode()
    assert 'rel="next"' not in client.get("/rulebook/CLUB-2/").content.decode()


@pytest.mark.parametrize("persona", ["staff", "director", "no_role_user"])
def test_only_floor_managers_write_house_rules(
    persona_client: Any, persona: str, floor_manager: Any
) -> None:
    rule = create_house_rule(by=floor_manager, title="Phones", text="No phones at the table.")
    client = persona_client(persona)
    assert client.get("/rulebook/house/new/").status_code == 403
    assert client.post("/rulebook/house/new/", {"title": "X", "text": "Y"}).status_code == 403
    assert client.get(f"/rulebook/{rule.citation_id}/edit/").status_code == 403
    response = client.post(f"/rulebook/{rule.citation_id}/edit/", {"title": "X", "text": "Y"})
    assert response.status_code == 403
    assert Rule.objects.filter(house=True).count() == 1
    assert Rule.objects.get(pk=rule.pk).text == "No phones at the table."


def test_anonymous_users_are_sent_to_log_in_to_write(client: Any) -> None:
    response = client.get("/rulebook/house/new/")
    assert response.status_code == 302 and response.url.startswith("/login/")


def test_a_floor_manager_adds_and_edits_a_house_rule_with_history(
    persona_client: Any, floor_manager: Any
) -> None:
    client = persona_client("floor_manager")
    assert client.get("/rulebook/house/new/").status_code == 200
    response = client.post(
        "/rulebook/house/new/", {"number": "", "title": "Phones", "text": "No phones."}
    )
    assert response.status_code == 302 and response.url == "/rulebook/HOUSE-1/"
    response = client.post(
        "/rulebook/HOUSE-1/edit/", {"title": "Phones", "text": "No phones while in a hand."}
    )
    assert response.status_code == 302
    rule = Rule.objects.get(citation_id="HOUSE-1")
    assert rule.house and rule.text == "No phones while in a hand."
    assert [r.text for r in rule.revisions.all()] == ["No phones while in a hand.", "No phones."]
    html = client.get("/rulebook/HOUSE-1/").content.decode()
    assert "History" in html and "Edit house rule" in html
    assert "HOUSE-1" in client.get("/rulebook/?q=phones").content.decode()


def test_a_bad_house_rule_is_422_and_saves_nothing(persona_client: Any, floor_manager: Any) -> None:
    client = persona_client("floor_manager")
    assert client.post("/rulebook/house/new/", {"title": "", "text": ""}).status_code == 422
    create_house_rule(by=floor_manager, title="Phones", text="No phones.", number="5")
    response = client.post("/rulebook/house/new/", {"number": "5", "title": "A", "text": "B"})
    assert response.status_code == 422
    assert "HOUSE-5 already exists" in response.content.decode()
    assert Rule.objects.filter(house=True).count() == 1


def test_bundled_rules_are_not_edited_on_the_floor(
    persona_client: Any, floor_manager: Any, club: None
) -> None:
    response = persona_client("floor_manager").post(
        "/rulebook/CLUB-1/edit/", {"title": "Mine now", "text": "Anything."}
    )
    assert response.status_code == 404
    assert Rule.objects.get(citation_id="CLUB-1").title == "One live straddle"


def test_house_rule_history_is_append_only(floor_manager: Any) -> None:
    from django.core.exceptions import ValidationError

    rule = create_house_rule(by=floor_manager, title="Phones", text="No phones.")
    revision = rule.revisions.get()
    revision.text = "rewritten"
    with pytest.raises(ValidationError):
        revision.save()
    with pytest.raises(ValidationError):
        revision.delete()
    assert RuleRevision.objects.get().text == "No phones."


def test_the_navigation_offers_the_rulebook_to_everyone(client: Any) -> None:
    html = client.get("/rulebook/").content.decode()
    assert '<a href="/rulebook/" aria-current="page">Rulebook</a>' in html


def test_an_unknown_filter_is_dropped_and_the_words_kept(client: Any, club: None) -> None:
    html = client.get("/rulebook/", {"q": "straddle", "book": "NOPE"}).content.decode()
    assert 'href="/rulebook/CLUB-1/" data-search-result' in html
    assert 'id="book-CLUB"' not in html  # results, not the table of contents


def test_the_admin_edits_house_rules_through_the_service_and_only_reads_the_rest(
    persona_client: Any, floor_manager: Any, club: None
) -> None:
    rule = create_house_rule(by=floor_manager, title="Phones", text="No phones.")
    admin = persona_client("superuser")
    assert admin.get("/admin/rules/rule/").status_code == 200
    bundled = Rule.objects.get(citation_id="CLUB-1")
    assert admin.get(f"/admin/rules/rule/{bundled.pk}/change/").status_code == 200
    assert admin.get("/admin/rules/rule/add/").status_code == 403
    page = admin.get(f"/admin/rules/rule/{rule.pk}/change/").content.decode()
    # The read-only inlines' management forms, as the browser would send them back.
    hidden = dict(
        re.findall(
            r'<input type="hidden" name="([^"]+-(?:\w+_FORMS|\d+-\w+))" value="([^"]*)"', page
        )
    )
    response = admin.post(
        f"/admin/rules/rule/{rule.pk}/change/",
        {**hidden, "title": "Phones", "text": "No phones, ever."},
    )
    assert response.status_code == 302
    rule.refresh_from_db()
    assert rule.text == "No phones, ever." and rule.revisions.count() == 2
