"""A table is set up only for a game the desk deals (CR-GM.1): hold'em,
Omaha and Omaha Hi-Lo, in any structure. Stud, razz and the draw games were accepted and then
dealt as hold'em (button, blinds, "Preflop"); now the form, the API, the waitlists and the
database refuse them with the reason, and the public board never lists them. Also the table's
page shows its rules between hands, and a tournament table has its own preset and one name."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from cardroom.screens import board
from cardroom.tables.choices import DESK_VARIANTS, Variant
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import GameList
from tests.factories import make_table

pytestmark = pytest.mark.django_db

NL = {"small_blind": 2, "big_blind": 5, "min_buy_in": 100, "max_buy_in": 500}
STRUCTURES = {
    "no_limit": {},
    "pot_limit": {"structure": "pot_limit"},
    "fixed_limit": {"structure": "fixed_limit", "small_bet": 5, "big_bet": 10, "raise_cap": 4},
}
NOT_DEALT = [v for v in Variant.values if v not in DESK_VARIANTS]


def errors_of(**fields: Any) -> dict[str, list[str]]:
    try:
        Table(number=1, **fields).full_clean()
    except ValidationError as exc:
        return exc.message_dict
    return {}


@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("variant", DESK_VARIANTS)
def test_holdem_and_omaha_are_set_up_in_every_structure(variant: str, structure: str) -> None:
    assert errors_of(**NL, variant=variant, **STRUCTURES[structure]) == {}


@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("variant", NOT_DEALT)
def test_games_the_desk_cannot_deal_are_refused_with_the_rule(variant: str, structure: str) -> None:
    refused = errors_of(**NL, variant=variant, **STRUCTURES[structure])
    [message] = refused["variant"]
    assert message.startswith(Variant(variant).label)
    assert message.endswith("the desk deals hold'em, Omaha and Omaha Hi-Lo only (CR-GM.1).")


def test_each_refusal_says_why_that_game_is_not_dealt() -> None:
    assert errors_of(**NL, variant="razz")["variant"] == [
        "Razz is dealt with antes, a bring-in set by the up-cards and five betting rounds,"
        " without a button or blinds: the desk deals hold'em, Omaha and Omaha Hi-Lo only"
        " (CR-GM.1)."
    ]
    assert (
        "two betting rounds around one draw (RRoP-BR.3)"
        in errors_of(**NL, variant="five_card_draw")["variant"][0]
    )
    assert "three draws" in errors_of(**NL, variant="badugi")["variant"][0]


def test_the_rule_is_in_the_rulebook() -> None:
    import tomllib
    from pathlib import Path

    import rules
    from rules.engine import citations

    book = tomllib.loads((Path(rules.__file__).parent / "rulebooks/procedures.toml").read_text())
    [rule] = [r for r in book["rules"] if r["citation"] == citations.GAMES_AT_THE_DESK]
    assert "Hold'em, Omaha and Omaha high-low" in rule["text"]


def test_the_database_refuses_a_game_the_desk_cannot_deal() -> None:
    table = make_table(number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(variant="stud")
    assert Table.objects.get(pk=table.pk).variant == "holdem"


def test_the_form_offers_only_desk_games_and_refuses_a_forged_one(
    client: Any, floor_manager: Any
) -> None:
    client.force_login(floor_manager)
    page = client.get("/tables/new/").content.decode()
    assert 'value="omaha_hilo"' in page and 'value="stud"' not in page
    assert 'value="razz"' not in page and 'value="badugi"' not in page
    form = {
        "number": 12, "status": "closed", "kind": "cash", "seats": 8, "variant": "stud",
        "structure": "no_limit", "small_blind": 2, "big_blind": 5, "ante_type": "none",
        "ante": 0, "straddle": 0, "min_buy_in": 100, "max_buy_in": 500, "pot_round_unit": 0,
        "action_clock_seconds": 60, "clock_warning_seconds": 10, "name": "Stud corner",
    }  # fmt: skip
    refused = client.post("/tables/new/", form, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    html = refused.content.decode()
    assert "Seven-card stud is dealt with antes" in html and "(CR-GM.1)" in html
    assert 'value="Stud corner"' in html
    assert not Table.objects.exists()


def test_the_api_refuses_with_the_reason(api_client_for: Any) -> None:
    body = {"number": 20, "variant": "razz", "structure": "pot_limit", **NL}
    answer = api_client_for("floor_manager").post("/api/v1/tables/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["fields"]["variant"][0].startswith("Razz is dealt with antes")
    table = make_table(number=3)
    patched = api_client_for("floor_manager").patch(
        f"/api/v1/tables/{table.pk}/", {"variant": "triple_draw"}, format="json"
    )
    assert patched.status_code == 400
    assert "(CR-GM.1)" in patched.json()["error"]["message"]
    assert Table.objects.get(pk=table.pk).variant == "holdem"


def test_no_waitlist_for_a_game_no_table_deals_and_the_board_lists_none(
    floor_manager: Any,
) -> None:
    with pytest.raises(ValidationError) as refused:
        waitlists.open_list(
            variant="stud", structure="fixed_limit", small_blind=2, big_blind=5, by=floor_manager
        )
    assert "(CR-GM.1)" in refused.value.message_dict["variant"][0]
    # A list opened for stud before this rule is not advertised on the public board.
    GameList.objects.create(variant="stud", structure="fixed_limit", small_blind=2, big_blind=5)
    waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=2, big_blind=5, by=floor_manager
    )
    assert [row["game_name"] for row in board.open_lists(timezone.now())] == ["Pot-limit Omaha"]


# --- the table's page ------------------------------------------------------------------------


def test_the_table_page_shows_its_rules_between_hands(client: Any, staff: Any) -> None:
    make_table(number=2, button_rule="moving", missed_blinds="wait")
    make_table(number=3, kind="tournament")
    client.force_login(staff)
    cash = client.get("/tables/2/").content.decode()
    assert "<dt>Button between hands</dt><dd>Moving button (CR-BB.4)</dd>" in cash
    assert "<dt>Missed blinds and new players</dt><dd>Must wait for the big blind</dd>" in cash
    tournament = client.get("/tables/3/").content.decode()
    assert "<dt>Kind</dt><dd>Tournament table</dd>" in tournament
    assert "Dead button (CR-BB.1): a tournament table always uses it" in tournament


def test_a_tournament_table_has_its_own_preset_and_one_name(
    client: Any, floor_manager: Any
) -> None:
    client.force_login(floor_manager)
    page = client.get("/tables/new/").content.decode()
    assert '<a class="button subtle" href="?preset=tournament">Tournament table</a>' in page
    preset = client.get("/tables/new/?preset=tournament").context["form"]
    assert preset.initial["kind"] == "tournament" and preset.initial["straddle"] == 0
    assert "plays the levels of the tournament" in preset.fields["kind"].help_text
    make_table(number=7, kind="tournament")
    assert (
        '<span class="badge reserved">Tournament table</span>'
        in client.get("/tables/").content.decode()
    )
