"""The director's deal page: the quotes from the counts the desk keeps, side by side; a GET
form that writes nothing, refused to the other roles, with errors on the form for bad input."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import make_tournament
from tournaments.draw_services import draw_initial_seating
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_three(director: Any) -> Any:
    tournament = make_tournament(by=director, tables=1, entrants=3, name="Deal Night")
    draw_initial_seating(tournament=tournament, by=director)
    for number, chips in ((1, 3000), (2, 5000), (3, 2000)):
        Entrant.objects.filter(tournament=tournament, number=number).update(chips=chips)
    return tournament


def url(tournament: Any) -> str:
    return f"/tournaments/{tournament.pk}/deal/"


def test_the_quotes_side_by_side_from_the_recorded_stacks(
    persona_client: Any, final_three: Any
) -> None:
    response = persona_client("director").get(
        url(final_three), {"prizes": "500\n300\n200", "unit": "1"}
    )
    assert response.status_code == 200
    rows = response.context["rows"]
    # Biggest stack first: 5,000 (#2), 3,000 (#1), 2,000 (#3); ICM $384 / $327 / $289, in
    # cents (the amounts are typed in dollars, rounded to $1).
    assert [row.entrant.number for row in rows] == [2, 1, 3]
    assert [row.shares for row in rows] == [
        (38400, 50000, 40000, 33400),
        (32700, 30000, 32000, 33300),
        (28900, 20000, 28000, 33300),
    ]
    page = response.content.decode()
    assert "Chip chop, smallest prize first" in page and "$1,000.00 shared" in page
    assert "$384.00" in page and "5,000" in page  # money in dollars, stacks in chips


def test_play_for_and_thousands_commas(persona_client: Any, final_three: Any) -> None:
    response = persona_client("director").get(
        url(final_three), {"prizes": "1,000; 600; 400", "unit": "10", "play_for": "200"}
    )
    assert response.status_code == 200
    assert sum(row.shares[1] for row in response.context["rows"]) == 180000
    assert "$200.00 left to play for" in response.content.decode()


def test_amounts_are_typed_as_the_payout_table_writes_them(
    persona_client: Any, final_three: Any
) -> None:
    response = persona_client("director").get(
        url(final_three), {"prizes": "1,363.65\n$681.81\n400", "unit": "0.01"}
    )
    assert response.status_code == 200
    assert response.context["form"].cleaned_data["prizes"] == [136365, 68181, 40000]
    assert "$2,445.46 shared" in response.content.decode()


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"prizes": "500\n²00", "unit": "1"}, "prizes"),
        ({"prizes": "500\n-3", "unit": "1"}, "prizes"),
        ({"prizes": "", "unit": "1"}, "prizes"),
        ({"prizes": "500", "unit": "0"}, "unit"),
        ({"prizes": "500", "unit": "1", "play_for": "x"}, "play_for"),
        ({"prizes": "1.234", "unit": "1"}, "prizes"),  # the dollar has 2 decimals
        ({"prizes": "²", "unit": "1"}, "prizes"),
        ({"prizes": "500", "unit": "²"}, "unit"),
    ],
)
def test_bad_input_is_a_422_with_the_error_on_its_field(
    persona_client: Any, final_three: Any, params: dict[str, str], field: str
) -> None:
    response = persona_client("director").get(url(final_three), params)
    assert response.status_code == 422
    assert response.context["form"].errors[field]
    assert 'role="alert"' in response.content.decode()


def test_a_quote_the_arithmetic_refuses_says_why_in_its_column(
    persona_client: Any, final_three: Any
) -> None:
    # More prizes than players: every method refuses, each says so; nothing is a 500.
    response = persona_client("director").get(
        url(final_three), {"prizes": "4\n3\n2\n1", "unit": "1"}
    )
    assert response.status_code == 200
    assert all(column.refusal for column in response.context["columns"])
    assert "4 prizes for 3 players" in response.content.decode()


def test_a_quotes_refusal_writes_its_amounts_in_the_currency(
    persona_client: Any, final_three: Any
) -> None:
    response = persona_client("director").get(
        url(final_three), {"prizes": "1,304.36\n600\n400", "unit": "1"}
    )
    assert response.status_code == 200
    refusals = {column.refusal for column in response.context["columns"]}
    said = "The prizes' total ($2,304.36) is not a multiple of the unit ($1.00)."
    assert refusals == {said}, refusals
    page = response.content.decode()
    # Said once, not once a method.
    assert page.count("is not a multiple of the unit ($1.00)") == 1
    assert 'id="refusal-all">No method quotes it. The prizes&#x27; total ($2,304.36)' in page


def test_only_the_director_quotes_a_deal(persona_client: Any, final_three: Any) -> None:
    for role in ("staff", "floor_manager"):
        assert persona_client(role).get(url(final_three)).status_code == 403
    assert Client().get(url(final_three)).status_code == 302  # to the log-in
    assert persona_client("director").post(url(final_three)).status_code == 405


def test_the_tournament_page_links_the_deal_page(persona_client: Any, final_three: Any) -> None:
    page = persona_client("director").get(f"/tournaments/{final_three.pk}/").content.decode()
    assert url(final_three) in page
