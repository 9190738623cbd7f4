"""Tables set up for an event: N tournament tables of S seats numbered from X, made with the
tournament (form and API) or by a floor manager, with no cash game; refused on numbers the room
already uses, outside 2-10 seats or beyond the count a request may make."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from cardroom.tables.choices import TableKind
from cardroom.tables.models import Table, TableChange
from cardroom.tables.services import MAX_NEW_TABLES, NumbersTaken, create_tournament_tables
from tests.factories import make_table
from tests.tournaments.factories import LEVELS, make_room_tables
from tournaments.models import Tournament
from tournaments.setup import NewTables, create_event

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def test_new_tournament_tables_are_numbered_from_the_first_with_no_cash_game(
    director: Any,
) -> None:
    made = create_tournament_tables(by=director, count=3, seats=6, first=101)
    assert [t.number for t in made] == [101, 102, 103]
    for table in Table.objects.filter(number__in=[101, 102, 103]):
        assert table.kind == TableKind.TOURNAMENT and table.seats == 6
        assert table.straddle == 0 and not table.run_it_twice
        table.full_clean()  # the model takes them as they are
        assert TableChange.objects.filter(table=table, action="created").count() == 1


def test_numbers_the_room_uses_are_refused_naming_them_and_nothing_is_made(
    director: Any,
) -> None:
    make_table(number=102)
    make_room_tables(count=1, first=104)
    with pytest.raises(NumbersTaken) as caught:
        create_tournament_tables(by=director, count=5, seats=9, first=101)
    assert caught.value.message_dict["first"] == ["Tables 102 and 104 are already in the room."]
    assert not Table.objects.filter(number__in=[101, 103, 105]).exists()


@pytest.mark.parametrize(
    ("count", "seats", "first", "field"),
    [
        (0, 9, 101, "count"),
        (MAX_NEW_TABLES + 1, 9, 101, "count"),
        (3, 1, 101, "seats"),
        (3, 11, 101, "seats"),
        (3, 9, 0, "first"),
        (3, 9, 9_998, "first"),  # 9,998 to 10,000: past the highest table number
    ],
)
def test_counts_seats_and_numbers_out_of_range_are_refused(
    director: Any, count: int, seats: int, first: int, field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        create_tournament_tables(by=director, count=count, seats=seats, first=first)
    assert field in caught.value.message_dict
    assert not Table.objects.exists()


def test_an_event_on_new_tables_and_chosen_ones_orders_them_by_room_number(
    director: Any,
) -> None:
    [chosen] = make_room_tables(count=1, first=120)
    tournament = create_event(
        by=director, name="Sunday", levels=LEVELS, tables=[chosen], seats_per_table=6,
        new_tables=NewTables(count=3, first=101), break_order=[101, 120, 102, 103],
    )  # fmt: skip
    rows = list(tournament.tables.select_related("table").order_by("number"))
    assert [(t.number, t.room_number, t.name) for t in rows] == [
        (1, 101, "Table 101"), (2, 102, "Table 102"), (3, 103, "Table 103"), (4, 120, "Table 120")
    ]  # fmt: skip
    assert tournament.break_order == [1, 4, 2, 3]  # kept in the draws' numbering
    assert all(t.table.seats == 6 for t in rows[:3])


def test_a_refused_event_leaves_no_new_table_behind(director: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        create_event(
            by=director, name="Sunday", levels=[], seats_per_table=6,
            new_tables=NewTables(count=3, first=101),
        )  # fmt: skip
    assert "levels" in caught.value.message_dict
    assert not Table.objects.exists() and not Tournament.objects.exists()


def test_an_order_naming_a_table_not_in_the_event_is_refused_with_the_tables(
    director: Any,
) -> None:
    with pytest.raises(ValidationError) as caught:
        create_event(
            by=director, name="Sunday", levels=LEVELS, seats_per_table=6,
            new_tables=NewTables(count=2, first=101), break_order=[1, 2],
        )  # fmt: skip
    assert caught.value.message_dict["break_order"] == ["List every table (101, 102) once."]
    assert not Table.objects.exists()


def test_taken_numbers_are_said_under_the_forms_field(director: Any) -> None:
    make_table(number=101)
    with pytest.raises(NumbersTaken) as caught:
        create_event(
            by=director, name="Sunday", levels=LEVELS, new_tables=NewTables(count=2, first=101)
        )
    assert caught.value.message_dict == {"first_table": ["Table 101 is already in the room."]}


# --- the tournament form -------------------------------------------------------------------------

FORM = {
    "name": "Sunday Major", "variant": "holdem", "structure": "no_limit",
    "seats_per_table": 6, "starting_stack": 30000, "balancing_policy": "tda",
    "levels": "100/200 20\n200/400 20", "break_order": "", "balancing_order": "",
}  # fmt: skip


def test_a_director_creates_an_event_with_new_tables_from_the_form(persona_client: Any) -> None:
    client = persona_client("director")
    response = client.post(
        reverse("tournaments:create"),
        {**FORM, "new_tables": "3", "first_table": "101", "break_order": "102 101 103"},
    )
    tournament = Tournament.objects.get(name="Sunday Major")
    assert response.status_code == 302
    assert [t.table.number for t in tournament.tables.select_related("table")] == [101, 102, 103]
    assert tournament.break_order == [2, 1, 3]
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "102, 101 and 103" in page  # the published break order, by the tables' names


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({}, "tables", "Choose room tables, or set up new ones below."),
        ({"new_tables": "3"}, "first_table", "Give the number of the first new table."),
        ({"first_table": "101"}, "new_tables", "Say how many new tables to set up."),
        ({"new_tables": "201", "first_table": "101"}, "new_tables", "At most 200."),
        ({"new_tables": "٣", "first_table": "101"}, "new_tables", "A whole number in digits"),
        ({"new_tables": "2", "first_table": "9999"}, "first_table", "Table numbers run from"),
        ({"new_tables": "2", "first_table": "101"}, "first_table", "Table 101 is already"),
    ],
)
def test_the_form_refuses_bad_new_tables_with_422_under_the_field(
    persona_client: Any, extra: dict[str, str], field: str, message: str
) -> None:
    make_table(number=101)
    response = persona_client("director").post(reverse("tournaments:create"), {**FORM, **extra})
    assert response.status_code == 422
    assert message in " ".join(response.context["form"].errors[field])
    assert Table.objects.count() == 1 and not Tournament.objects.exists()


@pytest.mark.parametrize("persona", ["staff", "floor_manager"])
def test_only_directors_create_events(persona_client: Any, persona: str) -> None:
    response = persona_client(persona).post(
        reverse("tournaments:create"), {**FORM, "new_tables": "3", "first_table": "101"}
    )
    assert response.status_code == 403
    assert not Table.objects.exists()


# --- the API -------------------------------------------------------------------------------------

BODY = {
    "name": "API Event", "seats_per_table": 6,
    "levels": [{"small_blind": 25, "big_blind": 50, "minutes": 10}],
}  # fmt: skip


def test_the_api_creates_an_event_on_new_tables_and_names_them(api_client_for: Any) -> None:
    response = api_client_for("director").post(
        API, {**BODY, "new_tables": {"count": 3, "first": 101}}, format="json"
    )
    assert response.status_code == 201, response.json()
    tables = response.json()["tables"]
    assert [(t["number"], t["room_table"], t["name"]) for t in tables] == [
        (1, 101, "Table 101"), (2, 102, "Table 102"), (3, 103, "Table 103")
    ]  # fmt: skip
    assert all(t["seats"] == 6 for t in tables)


def test_the_api_refuses_taken_numbers_with_422_naming_them(api_client_for: Any) -> None:
    make_table(number=102)
    response = api_client_for("director").post(
        API, {**BODY, "new_tables": {"count": 3, "first": 101}}, format="json"
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "numbers_taken"
    assert error["message"] == "Table 102 is already in the room."
    assert error["fields"] == {"first_table": ["Table 102 is already in the room."]}
    assert Table.objects.count() == 1


@pytest.mark.parametrize(
    "new_tables", [{"count": 0, "first": 101}, {"count": 201, "first": 1}, {"count": 2}]
)
def test_the_api_refuses_bad_new_tables_with_400(api_client_for: Any, new_tables: Any) -> None:
    response = api_client_for("director").post(
        API, {**BODY, "new_tables": new_tables}, format="json"
    )
    assert response.status_code == 400
    assert not Table.objects.exists()


@pytest.mark.parametrize("persona", ["staff", "floor_manager"])
def test_only_directors_create_events_through_the_api(api_client_for: Any, persona: str) -> None:
    response = api_client_for(persona).post(
        API, {**BODY, "new_tables": {"count": 3, "first": 101}}, format="json"
    )
    assert response.status_code == 403
    assert not Table.objects.exists()


# --- a floor manager's table form ------------------------------------------------------------------


def test_a_floor_manager_sets_up_a_tournament_table_without_a_cash_game(
    persona_client: Any,
) -> None:
    response = persona_client("floor_manager").post(
        reverse("cardroom:table_create"),
        {"number": "130", "kind": "tournament", "status": "closed", "seats": "8",
         "action_clock_seconds": "60", "clock_warning_seconds": "10"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(number=130)
    assert table.kind == TableKind.TOURNAMENT and table.seats == 8
    assert (table.small_blind, table.big_blind) == (1, 2)  # the model's, read by nothing


def test_a_cash_table_still_needs_its_game(persona_client: Any) -> None:
    response = persona_client("floor_manager").post(
        reverse("cardroom:table_create"),
        {"number": "131", "kind": "cash", "status": "closed", "seats": "8",
         "action_clock_seconds": "60", "clock_warning_seconds": "10"},
    )  # fmt: skip
    assert response.status_code == 422
    assert not Table.objects.filter(number=131).exists()


def test_the_taken_numbers_refusal_matches_the_published_schema(api_client_for: Any) -> None:
    """The 422 is the shape the OpenAPI schema promises: what it requires is there, and no field
    it does not name (a fuzzer found the seating refusal's ``edition`` required here)."""
    make_table(number=102)
    response = api_client_for("director").post(
        API, {**BODY, "new_tables": {"count": 3, "first": 101}}, format="json"
    )
    assert response.status_code == 422
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        return components[node["$ref"].rsplit("/", 1)[1]] if "$ref" in node else node

    body = resolve(
        schema["paths"][API]["post"]["responses"]["422"]["content"]["application/json"]["schema"]
    )
    error = resolve(body["properties"]["error"])
    assert set(error["required"]) <= set(response.json()["error"])
    assert set(response.json()["error"]) <= set(error["properties"])
