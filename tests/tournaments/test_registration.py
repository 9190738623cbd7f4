"""Registering players on the tournament's page: a list of names at once,
each registered or refused with its reason; an htmx answer that swaps the results and the
entrants, never the box being typed in; no re-entry offered once registration has closed."""

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.factories import bust
from tournaments import eliminations, setup
from tournaments.forms import MAX_NAMES, EntrantForm
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def url(tournament: Tournament) -> str:
    return reverse("tournaments:entrant_register", args=[tournament.pk])


def entrant(tournament: Tournament, number: int) -> Entrant:
    return tournament.entrants.get(number=number)


def test_the_form_reads_one_name_a_line_trimmed_and_without_blank_lines(
    seated: Tournament,
) -> None:
    form = EntrantForm({"name": "  Ann   Lee \n\n Bo\r\nCy  \n"}, tournament=seated)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["name"] == ["Ann Lee", "Bo", "Cy"]
    too_many = EntrantForm(
        {"name": "\n".join(f"N{i}" for i in range(MAX_NAMES + 1))}, tournament=seated
    )
    assert not too_many.is_valid()
    assert too_many.errors["name"] == [
        f"At most {MAX_NAMES} names at once (101 given): register the rest next."
    ]
    long = EntrantForm({"name": "Ann\n" + "x" * 121}, tournament=seated)
    assert not long.is_valid() and "at most 120 characters" in long.errors["name"][0]


def test_each_name_of_a_list_is_registered_or_refused_with_its_reason(
    seated: Tournament, director: Any
) -> None:
    results = setup.register_list(
        tournament=seated, names=["Dee", "player 3", "Eve", "dee"], by=director
    )
    assert [(r.name, r.entrant.number if r.entrant else None) for r in results] == [
        ("Dee", 21), ("player 3", None), ("Eve", 22), ("dee", None),
    ]  # fmt: skip
    assert results[1].refusal.startswith("Player 3 is already entered (#3).")
    assert results[3].refusal.startswith("Dee is already entered (#21).")
    assert seated.entrants.count() == 22


def test_a_name_is_the_same_in_any_case_and_any_alphabet_on_every_database(
    seated: Tournament, director: Any
) -> None:
    """The room's one name key (casefold), the same on SQLite and PostgreSQL: the database's
    iexact folds ASCII only on SQLite and cannot tell "ss" from "ß" anywhere."""
    setup.register_list(tournament=seated, names=["Éva Núñez", "Jo Strauß"], by=director)
    again = setup.register_list(
        tournament=seated, names=["ÉVA NÚÑEZ", "jo strauss", "Zoë"], by=director
    )
    assert [r.entrant is None for r in again] == [True, True, False]
    assert again[0].refusal.startswith("Éva Núñez is already entered (#21).")
    assert again[1].refusal.startswith("Jo Strauß is already entered (#22).")


def test_an_htmx_registration_swaps_the_results_and_the_entrants_not_the_box(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    answer = client.post(url(seated), {"name": "Dee\nPlayer 3\nEve"}, headers=HTMX)
    assert answer.status_code == 200  # two written, one refused: not a 422, which writes nothing
    html = answer.content.decode()
    assert html.lstrip().startswith('<div id="registration-results"')
    # The box is the director's: never in the answer, so nothing typed meanwhile is wiped.
    assert 'id="entrant-names"' not in html and "HX-Redirect" not in answer.headers
    assert "Dee registered (#21)." in html and "Eve registered (#22)." in html
    assert "Player 3 is already entered (#3)." in html
    assert 'data-refused="Player 3"' in html  # put back in the box by registration.js
    assert '<section id="entrant-list" class="card" hx-swap-oob="true">' in html
    assert "<td>Dee</td>" in html and "<td>Eve</td>" in html
    ok = client.post(url(seated), {"name": "Fay"}, headers=HTMX)
    assert ok.status_code == 200 and 'data-refused=""' in ok.content.decode()
    assert list(seated.entrants.filter(number__gt=20).values_list("name", flat=True)) == [
        "Dee", "Eve", "Fay",
    ]  # fmt: skip


def test_an_empty_box_is_refused_on_the_results(persona_client: Any, seated: Tournament) -> None:
    answer = persona_client("director").post(url(seated), {"name": " \n "}, headers=HTMX)
    assert answer.status_code == 422
    assert "Give the player&#x27;s name, or choose who re-enters." in answer.content.decode()
    assert seated.entrants.count() == 20


def test_without_javascript_the_refused_names_stay_in_the_box(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    page = client.post(url(seated), {"name": "Dee\nplayer 3\nEve\nPlayer 4"})
    html = page.content.decode()
    assert page.status_code == 200  # two registered
    assert client.post(url(seated), {"name": "player 3"}).status_code == 422  # none
    assert ">player 3\nPlayer 4</textarea>" in html
    assert "Dee registered (#21)." in html and "Player 4 is already entered (#4)." in html
    done = client.post(url(seated), {"name": "Gus"})
    assert done.status_code == 302
    assert "Gus registered (#23)." in client.get(done["Location"]).content.decode()


def test_a_re_entry_from_the_list_updates_the_choices_out_of_band(
    persona_client: Any, seated: Tournament, director: Any
) -> None:
    bust(entrant=entrant(seated, 5), by=director)
    client = persona_client("director")
    two = client.post(
        url(seated), {"name": "Player 5\nHal", "reentry_of": entrant(seated, 5).pk}, headers=HTMX
    )
    assert two.status_code == 422 and "Re-enter one player at a time" in two.content.decode()
    answer = client.post(
        url(seated), {"name": "", "reentry_of": entrant(seated, 5).pk}, headers=HTMX
    )
    html = answer.content.decode()
    assert answer.status_code == 200 and "Player 5 registered (#21): a re-entry." in html
    assert '<div class="field" id="reentry-field" hx-swap-oob="true">' in html
    reentry = html[html.index('id="reentry-field"') :]
    assert f'value="{entrant(seated, 5).pk}"' not in reentry[: reentry.index("</select>")]


def test_no_re_entry_is_offered_once_registration_has_closed(
    persona_client: Any, seated: Tournament, director: Any
) -> None:
    bust(entrant=entrant(seated, 5), by=director)
    page = persona_client("director").get(f"/tournaments/{seated.pk}/").content.decode()
    assert f'<option value="{entrant(seated, 5).pk}">' in page
    eliminations.close_registration(tournament=seated, by=director)
    seated.refresh_from_db()
    assert list(EntrantForm(tournament=seated).fields["reentry_of"].queryset) == []
    page = persona_client("director").get(f"/tournaments/{seated.pk}/").content.decode()
    assert 'id="entrant-form"' not in page and 'name="reentry_of"' not in page
    assert "Registration and re-entry are closed: nobody is added or re-enters now" in page
    refused = persona_client("director").post(
        url(seated), {"reentry_of": entrant(seated, 5).pk}, headers=HTMX
    )
    assert refused.status_code == 422 and seated.entrants.count() == 20
