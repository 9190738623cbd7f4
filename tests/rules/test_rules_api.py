"""The rulebook API: public reads (search and citation), house-rule writes for floor managers,
the one error shape."""

from typing import Any

import pytest
from django.test import override_settings

from rules import rulebook_format as fmt
from rules.models import Rule
from rules.services import create_house_rule, import_rulebook, refresh_vocabulary

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> None:
    rules = (
        fmt.Rule(
            citation="CLUB-S.1", number="1", section="S", title="One live straddle",
            text="One straddle, <b>twice</b> the big blind.",
            examples=(fmt.Example("Example 1", "Blinds 1-2: the straddle is 4."),),
            other_editions=(fmt.OtherEdition("Club 2019", "7", "CLUB-2019-7"),),
        ),
        fmt.Rule(
            citation="CLUB-S.2", number="2", section="S", title="Dead button",
            text="The button moves on.", examples=(), other_editions=(),
        ),
        fmt.Rule(
            citation="CLUB-T.1", number="1", section="T", title="Calling the clock",
            text="A player gets a minute once the clock is called.", examples=(),
            other_editions=(),
        ),
    )  # fmt: skip
    import_rulebook(
        fmt.Book(
            code="CLUB", title="Club Rules", source="The club", edition="2025",
            attribution="Club staff.", url="", rules=rules, path="club.toml",
            sections=(fmt.Section("S", "Straddles", 1), fmt.Section("T", "Time", 2)),
        )
    )  # fmt: skip
    refresh_vocabulary()


def test_search_returns_ranked_rules_with_safe_snippets(client: Any, club: None) -> None:
    body = client.get("/api/v1/rules/", {"q": "straddle"}).json()
    assert body["count"] == 1
    hit = body["results"][0]
    assert hit["citation_id"] == "CLUB-S.1" and hit["book"] == "CLUB" and hit["section"] == "S"
    assert hit["url"].endswith("/rulebook/CLUB-S.1/")
    assert hit["rank"] > 0
    assert "<mark>" in hit["snippet"].lower() and "<b>" not in hit["snippet"]


def test_a_citation_typed_in_the_search_comes_first(client: Any, club: None) -> None:
    body = client.get("/api/v1/rules/", {"q": "CLUB-2019-7"}).json()
    assert body["results"][0]["citation_id"] == "CLUB-S.1"


def test_without_a_query_the_list_is_every_current_rule_filtered(client: Any, club: None) -> None:
    Rule.objects.filter(citation_id="CLUB-S.2").update(withdrawn=True)
    body = client.get("/api/v1/rules/").json()
    assert [r["citation_id"] for r in body["results"]] == ["CLUB-S.1", "CLUB-T.1"]
    assert body["results"][0]["rank"] is None
    only = client.get("/api/v1/rules/", {"book": "CLUB", "section": "T"}).json()
    assert [r["citation_id"] for r in only["results"]] == ["CLUB-T.1"]
    assert client.get("/api/v1/rules/", {"q": "clock", "section": "S"}).json()["count"] == 0
    page = client.get("/api/v1/rules/", {"limit": 1}).json()
    assert page["count"] == 2 and len(page["results"]) == 1 and page["next"]


def test_one_rule_by_citation_with_examples_and_editions(client: Any, club: None) -> None:
    body = client.get("/api/v1/rules/CLUB-S.1/").json()
    assert body["examples"] == [{"title": "Example 1", "text": "Blinds 1-2: the straddle is 4."}]
    assert body["other_editions"] == [
        {"citation_id": "CLUB-2019-7", "edition": "Club 2019", "number": "7"}
    ]
    assert (body["cited_in"], body["previous"], body["next"]) == (0, None, "CLUB-S.2")
    assert body["edition"] == "2025" and body["attribution"] == "Club staff."


def test_an_old_number_answers_with_the_rule_it_meant(client: Any, club: None) -> None:
    assert client.get("/api/v1/rules/CLUB-2019-7/").json()["citation_id"] == "CLUB-S.1"
    assert client.get("/api/v1/rules/club-s.2/").json()["citation_id"] == "CLUB-S.2"


def test_errors_have_the_one_shape(client: Any, club: None) -> None:
    missing = client.get("/api/v1/rules/CLUB-X.9/")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    long = client.get("/api/v1/rules/", {"q": "x" * 300})
    assert long.status_code == 400 and long.json()["error"]["code"] == "bad_request"


@override_settings(CARDROOM_PUBLIC_RULEBOOK=False)
@pytest.mark.parametrize(
    ("persona", "expected"),
    [("anonymous", 401), ("no_role_user", 403), ("staff", 200), ("director", 200),
     ("floor_manager", 200)],
)  # fmt: skip
def test_a_private_rulebook_api_is_for_staff_and_up(
    api_client_for: Any, persona: str, expected: int, club: None
) -> None:
    client = api_client_for(persona)
    assert client.get("/api/v1/rules/", {"q": "straddle"}).status_code == expected
    assert client.get("/api/v1/rules/CLUB-S.1/").status_code == expected


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("anonymous", 401), ("no_role_user", 403), ("staff", 403), ("director", 403)],
)
def test_only_floor_managers_write_house_rules(
    api_client_for: Any, persona: str, expected: int, floor_manager: Any
) -> None:
    rule = create_house_rule(by=floor_manager, title="Phones", text="No phones.")
    client = api_client_for(persona)
    created = client.post("/api/v1/rules/", {"title": "X", "text": "Y"}, format="json")
    changed = client.patch(f"/api/v1/rules/{rule.citation_id}/", {"text": "Z"}, format="json")
    assert (created.status_code, changed.status_code) == (expected, expected)
    assert created.json()["error"]["code"] in {"not_authenticated", "permission_denied"}
    assert Rule.objects.filter(house=True).count() == 1
    assert Rule.objects.get(pk=rule.pk).text == "No phones."


def test_a_floor_manager_writes_house_rules_with_history(api_client_for: Any) -> None:
    client = api_client_for("floor_manager")
    created = client.post(
        "/api/v1/rules/", {"title": "Phones", "text": "No phones.", "number": "12"}, format="json"
    )
    assert created.status_code == 201
    assert created.json()["citation_id"] == "HOUSE-12" and created.json()["house"] is True
    changed = client.patch(
        "/api/v1/rules/HOUSE-12/", {"text": "No phones in a hand."}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["title"] == "Phones"
    replaced = client.put(
        "/api/v1/rules/HOUSE-12/", {"title": "Devices", "text": "None."}, format="json"
    )
    assert replaced.json()["title"] == "Devices"
    rule = Rule.objects.get(citation_id="HOUSE-12")
    assert [r.title for r in rule.revisions.all()] == ["Devices", "Phones", "Phones"]


def test_bad_house_rules_and_bundled_rules_are_refused(
    api_client_for: Any, club: None, floor_manager: Any
) -> None:
    client = api_client_for("floor_manager")
    blank = client.post("/api/v1/rules/", {"title": "", "text": "x"}, format="json")
    assert blank.status_code == 400 and "title" in blank.json()["error"]["fields"]
    create_house_rule(by=floor_manager, title="Phones", text="No phones.", number="3")
    taken = client.post("/api/v1/rules/", {"title": "A", "text": "B", "number": "3"}, format="json")
    assert taken.status_code == 400
    assert taken.json()["error"]["fields"]["number"] == ["HOUSE-3 already exists."]
    bundled = client.patch("/api/v1/rules/CLUB-S.1/", {"text": "Mine."}, format="json")
    assert bundled.status_code == 400
    assert Rule.objects.get(citation_id="CLUB-S.1").text.startswith("One straddle")


def test_the_schema_documents_the_rulebook_endpoints(api_client_for: Any) -> None:
    schema = api_client_for("staff").get("/api/schema/", {"format": "json"}).json()
    assert {"get", "post"} <= set(schema["paths"]["/api/v1/rules/"])
    assert {"get", "put", "patch"} <= set(schema["paths"]["/api/v1/rules/{citation_id}/"])
    names = {p["name"] for p in schema["paths"]["/api/v1/rules/"]["get"]["parameters"]}
    assert {"q", "book", "section", "limit", "offset"} <= names
