"""Table pages: who may see and change what, htmx fragments, inline validation."""

from typing import Any

import pytest

from cardroom.tables.models import Table
from tests.factories import make_table

pytestmark = pytest.mark.django_db

FORM = {
    "number": 12, "status": "closed", "kind": "cash", "seats": 9, "variant": "holdem",
    "structure": "no_limit", "small_blind": 2, "big_blind": 5, "ante_type": "none", "ante": 0,
    "straddle": 10, "min_buy_in": 100, "max_buy_in": 500, "pot_round_unit": 0,
    "action_clock_seconds": 60, "clock_warning_seconds": 10,
}  # fmt: skip


@pytest.mark.parametrize(
    ("persona", "expected"),
    [
        ("anonymous", 302),
        ("no_role_user", 403),
        ("staff", 200),
        ("director", 200),
        ("floor_manager", 200),
        ("superuser", 200),
    ],
)
def test_table_list_and_detail_are_for_staff_and_up(
    persona_client: Any, persona: str, expected: int
) -> None:
    make_table(number=1)
    client = persona_client(persona)
    assert client.get("/tables/").status_code == expected
    assert client.get("/tables/1/").status_code == expected


@pytest.mark.parametrize("persona", ["staff", "director", "no_role_user"])
def test_only_floor_managers_change_tables(persona_client: Any, persona: str) -> None:
    make_table(number=1, status="closed")
    client = persona_client(persona)
    assert client.get("/tables/new/").status_code == 403
    assert client.post("/tables/new/", FORM).status_code == 403
    assert client.post("/tables/1/edit/", FORM).status_code == 403
    assert client.post("/tables/1/status/", {"status": "open"}).status_code == 403
    assert client.post("/tables/validate/", FORM).status_code == 403
    assert Table.objects.get().status == "closed"
    assert not Table.objects.filter(number=12).exists()


def test_floor_manager_creates_a_table(persona_client: Any) -> None:
    response = persona_client("floor_manager").post("/tables/new/", FORM)
    assert response.status_code == 302
    table = Table.objects.get(number=12)
    assert (table.straddle, table.max_buy_in) == (10, 500)
    assert table.changes.get().changed_by.username == "fm"


def test_a_bad_form_is_422_with_the_rule_and_saves_nothing(persona_client: Any) -> None:
    response = persona_client("floor_manager").post("/tables/new/", {**FORM, "straddle": 15})
    assert response.status_code == 422
    assert "RRoP-14.14" in response.content.decode()
    assert not Table.objects.exists()


def test_inline_validation_returns_the_form_fragment(persona_client: Any) -> None:
    client = persona_client("floor_manager")
    bad = client.post("/tables/validate/", {**FORM, "straddle": 15}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 422
    html = bad.content.decode()
    assert 'id="straddle-errors" hx-swap-oob="true"' in html and "<html" not in html
    assert "twice the big blind" in html
    good = client.post("/tables/validate/", FORM, HTTP_HX_REQUEST="true")
    assert good.status_code == 200
    assert "These settings are valid" in good.content.decode()
    assert not Table.objects.exists()


def test_presets_fill_the_form(persona_client: Any) -> None:
    html = persona_client("floor_manager").get("/tables/new/?preset=5-10-plo").content.decode()
    assert 'value="pot_limit" selected' in html


def test_edit_keeps_history(persona_client: Any) -> None:
    make_table(number=12, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
    response = persona_client("floor_manager").post(
        "/tables/12/edit/", {**FORM, "max_buy_in": 1000}
    )
    assert response.status_code == 302
    detail = persona_client("staff").get("/tables/12/").content.decode()
    assert "Max buy in</strong>: 500 → 1000" in detail


def test_quick_open_close_swaps_the_row(persona_client: Any) -> None:
    make_table(number=3, status="closed")
    response = persona_client("floor_manager").post(
        "/tables/3/status/", {"status": "open"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert 'id="table-3"' in response.content.decode()
    assert Table.objects.get(number=3).status == "open"


def test_unknown_status_is_refused(persona_client: Any) -> None:
    make_table(number=3, status="closed")
    response = persona_client("floor_manager").post(
        "/tables/3/status/", {"status": "melted"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert "Unknown status" in response.content.decode()


def test_filters_narrow_the_list_and_bad_stakes_say_so(persona_client: Any) -> None:
    make_table(number=1)
    make_table(number=2, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
    client = persona_client("staff")
    html = client.get("/tables/?stakes=2/5", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="table-2"' in html and 'id="table-1"' not in html
    assert "<html" not in html
    bad = client.get("/tables/?stakes=lots").content.decode()
    assert "Write stakes as small/big blind" in bad


def test_the_table_list_shows_a_tournament_tables_game_not_its_cash_settings(
    client: Any, director: Any
) -> None:
    """Not "1/2 NL Hold'em, buy-in 40-200" beside tables playing a tournament's 300/600
    with an ante: a tournament table shows the tournament in play and its level."""
    from tests.tournaments.factories import make_tournament

    make_tournament(by=director, tables=1, entrants=6, name="Friday Turbo", first_table=21)
    make_table(number=1, small_blind=1, big_blind=2)
    client.force_login(director)
    html = client.get("/tables/").content.decode()
    row = html[html.index('id="table-21"') :]
    row = row[: row.index("</tr>")]
    assert "Friday Turbo" in row and "Level 1: " in row
    assert "1/2" not in row and "40" not in row
    cash = html[html.index('id="table-1"') :]
    assert "1/2" in cash[: cash.index("</tr>")]


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("max_buy_in", 2147483648, "At most 1,000,000 chips."),
        ("big_blind", 99999999999, "At most 1,000,000 chips."),
        ("straddle", 5000000, "At most 1,000,000 chips."),
        ("number", 2147483648, "At most 9,999."),
        ("number", 0, "At least 1."),
        ("seats", 11, "At most 10 seats."),
        ("seats", 1, "At least 2 seats."),
        ("action_clock_seconds", 601, "At most 600 seconds."),
        ("min_buy_in", -5, "A whole number in digits, like 100."),
        ("raise_cap", 11, "At most 10 raises."),
        ("big_blind", "²", "A whole number in digits, like 100."),
    ],
)
def test_number_fields_say_their_limits_in_a_floor_managers_words(
    persona_client: Any, field: str, value: Any, words: str
) -> None:
    """Not "Ensure this value is less than or equal to 2147483647" (the column's limit) on
    the table form: each number field says its limit in words, with its unit."""
    response = persona_client("floor_manager").post("/tables/new/", {**FORM, field: value})
    assert response.status_code == 422
    html = response.content.decode()
    errors = html[html.index(f'id="{field}-errors"') :]
    assert words in errors[: errors.index("</")], errors[:300]
    assert "2147483647" not in html and "Ensure this value" not in html
    assert not Table.objects.exists()


def test_a_new_table_form_starts_from_the_models_defaults(persona_client: Any) -> None:
    """The number fields that say their limits in words keep the model's defaults: a new
    table's form showed Seats, Ante and the clocks empty, and saving it was refused."""
    html = persona_client("floor_manager").get("/tables/new/?preset=2-5-nl").content.decode()
    seats = html.split('name="seats"')[1].split(">")[0]
    assert 'value="9"' in seats
