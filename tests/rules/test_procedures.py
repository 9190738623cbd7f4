"""Cardroom's floor procedures (the CR book, rules/rulebooks/procedures.toml): the rulings on
a dead button, a dead small blind, posted missed blinds and dead money cite them, and each
citation resolves to a public permalink with the procedure's text."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from rules import rulebook_format as fmt
from rules.engine import citations
from rules.models import Rule, RuleAlias, Rulebook, RuleExample, Section, VocabularyWord

pytestmark = pytest.mark.django_db

GAME = {"structure": "no_limit", "small_blind": 50, "big_blind": 100}
PROCEDURES = {
    citations.DEAD_BUTTON,
    citations.DEAD_SMALL_BLIND,
    citations.MISSED_BLINDS,
    citations.MOVING_BUTTON,
    citations.MISSED_BLINDS_ACCRUE,
    citations.NEW_PLAYER,
    citations.HEADS_UP,
    citations.MISDEAL_REDEAL,
    citations.BUTTON_DRAW,
    citations.DEAD_MONEY,
    citations.BIG_BLIND_ANTE,
    citations.TOURNAMENT_DEALT_IN,
    citations.NEW_LEVEL_NEXT_HAND,
    citations.SAME_HAND_BUSTS,
    citations.GAMES_AT_THE_DESK,
    citations.CHIP_SET,
    citations.COLOUR_UP_ANNOUNCED,
    citations.CHIP_RACE,
    citations.NOBODY_RACED_OUT,
}
#: The house procedures: Cardroom's default wording of what the books leave out, which a room
#: edits on the rulebook page (tests/rules/test_house_procedures.py).
HOUSE_PROCEDURES = {
    "CR-CU.5", "CR-DL.1", "CR-DL.2", "CR-DL.3", "CR-DL.4", "CR-DL.5", "CR-PC.1", "CR-PC.2",
    "CR-PC.3", "CR-PC.4", "CR-PC.5", "CR-HD.1", "CR-HD.2",
}  # fmt: skip


def post(path: str, body: Any) -> Any:
    return APIClient().post(f"/api/v1/betting/{path}", body, format="json")


def dead_button_tie(**extra: Any) -> dict[str, Any]:
    """A dead button on seat 4 (nobody there), seats 5 and 6 the blinds; seat 2 shoves 1001,
    both blinds call and check it down: 3003 chips, seats 2 and 6 tie, one chip odd."""
    actions = [
        {"seat": 2, "action": "all_in"},
        {"seat": 5, "action": "call"},
        {"seat": 6, "action": "call"},
    ]
    actions += [{"seat": s, "action": "check"} for _ in range(3) for s in (5, 6)]
    seats = [{"seat": 2, "stack": 1001}, {"seat": 5, "stack": 5000}, {"seat": 6, "stack": 5000}]
    body = {
        "game": GAME,
        "button": 4,
        "blinds": {"small": 5, "big": 6},
        "seats": seats,
        "actions": actions,
        "showdown": {"ranking": [[2, 6], [5]]},
    }
    return {**body, **extra}


def test_the_odd_chip_from_a_dead_button_cites_the_dead_button_procedure() -> None:
    response = post("award", dead_button_tie())
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["pots"][0]["awards"] == [{"seat": 2, "amount": 1501}, {"seat": 6, "amount": 1502}]
    assert body["citations"] == ["TDA-20", "RRoP-TI.5", "CR-BB.1"]


def test_a_live_button_or_an_even_split_does_not_cite_the_dead_button() -> None:
    live = dead_button_tie(button=5, blinds={"small": 6, "big": 2})
    live["actions"] = [
        {"seat": 5, "action": "all_in"},
        {"seat": 6, "action": "call"},
        {"seat": 2, "action": "call"},
    ]
    response = post("award", live)
    assert response.status_code == 200, response.json()
    assert "CR-BB.1" not in response.json()["citations"]
    # Dead button, but seats 2, 5 and 6 tie for 3003: 1001 each, no odd chip to count.
    even = post("award", dead_button_tie(showdown={"ranking": [[2, 5, 6]]}))
    assert even.status_code == 200, even.json()
    assert even.json()["citations"] == ["TDA-20"]


def test_dead_money_won_with_the_main_pot_cites_the_dead_money_procedure() -> None:
    seats = [{"seat": n, "stack": 5000} for n in (1, 2, 3)]
    actions = [{"seat": 1, "action": "raise", "to": 300}]
    actions += [{"seat": 2, "action": "fold"}, {"seat": 3, "action": "fold"}]
    body = {"game": GAME, "button": 1, "seats": seats, "actions": actions}
    assert post("award", body).json()["citations"] == []
    posted = post("award", {**body, "posts": [{"seat": 1, "live": 100, "dead": 50}]})
    assert posted.status_code == 200, posted.json()
    assert posted.json()["pots"][0]["amount"] == 300
    assert posted.json()["citations"] == ["CR-DM.1"]


def test_a_big_blind_ante_in_the_pot_cites_the_dead_money_procedure() -> None:
    # A dead-money hand: blinds 50-100, big-blind ante 100, the big blind all-in for 200.
    game = {**GAME, "big_blind_ante": 100}
    seats = [{"seat": 1, "stack": 5000}, {"seat": 2, "stack": 200}, {"seat": 3, "stack": 5000}]
    actions = [{"seat": 3, "action": "call"}, {"seat": 1, "action": "call"}]
    actions += [{"seat": s, "action": "check"} for _ in range(3) for s in (1, 3)]
    body = {"game": game, "button": 3, "seats": seats, "actions": actions}
    response = post("award", {**body, "showdown": {"ranking": [[2], [1], [3]]}})
    assert response.status_code == 200, response.json()
    assert response.json()["pots"][0] == {
        "amount": 400,
        "eligible": [1, 2, 3],
        "awards": [{"seat": 2, "amount": 400}],
    }
    assert response.json()["citations"] == ["CR-DM.1"]


@pytest.mark.parametrize(
    ("extra", "field", "cited"),
    [
        ({"posts": [{"seat": 1, "live": 60}]}, "posts.0.live", ["CR-BB.3"]),
        ({"posts": [{"seat": 1, "dead": 100}]}, "posts.0.dead", ["CR-BB.3"]),
        ({"posts": [{"seat": 2, "live": 100}]}, "posts.0.seat", ["CR-BB.3"]),  # the small blind
        ({"posts": [{"seat": 1, "live": 100}, {"seat": 1, "dead": 50}]}, "posts.1.seat",
         ["CR-BB.3"]),
        ({"blinds": {"small": 2, "big": 7}}, "blinds.big", ["CR-BB.1"]),
        ({"blinds": {"small": 7, "big": 3}}, "blinds.small", ["CR-BB.1", "CR-BB.2"]),
        ({"game": {**GAME, "ante": 10, "big_blind_ante": 100}}, "game.big_blind_ante",
         ["CR-DM.2"]),
    ],
)  # fmt: skip
def test_a_refused_post_or_blind_seat_cites_the_procedure(
    extra: dict[str, Any], field: str, cited: list[str]
) -> None:
    seats = [{"seat": n, "stack": 5000} for n in (1, 2, 3)]
    response = post("evaluate", {"game": GAME, "button": 1, "seats": seats, "actions": [], **extra})
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "bad_request" and field in error["fields"], error
    # The contract's 400 shape is kept exactly; the procedure is named in the message.
    assert set(error) == {"code", "message", "fields"}
    assert error["message"].endswith(f"({', '.join(cited)})")
    assert error["fields"][field] == [error["message"]]


def test_other_bad_requests_carry_no_citations() -> None:
    response = post("evaluate", {"game": GAME, "button": 1, "seats": []})
    assert response.status_code == 400
    assert "citations" not in response.json()["error"]


# ---------------------------------------------------------------- the book, loaded


@pytest.fixture
def bundled() -> Iterator[None]:
    call_command("load_rulebook", verbosity=0)
    yield
    for model in (RuleExample, RuleAlias, Rule, Section, Rulebook, VocabularyWord):
        model.objects.all().delete()


def test_load_rulebook_loads_the_procedures_as_a_bundled_book(bundled: None) -> None:
    book = Rulebook.objects.get(code="CR")
    assert book.title == "Cardroom Floor Procedures" and book.kind == "bundled"
    loaded = set(Rule.objects.filter(section__rulebook=book).values_list("citation_id", flat=True))
    assert loaded == PROCEDURES | HOUSE_PROCEDURES
    # A house rule is HOUSE-<n>: no CR id can be one, and no other book shares the code.
    assert not any(cid.startswith("HOUSE-") for cid in loaded)
    assert [b.code for b in fmt.bundled_rulebooks()].count("CR") == 1


@pytest.mark.parametrize("citation", sorted(PROCEDURES))
def test_each_procedure_has_a_public_permalink_with_its_text(
    bundled: None, client: Any, citation: str
) -> None:
    rule = fmt.resolve_citation(fmt.bundled_rulebooks(), citation)
    assert rule is not None
    response = client.get(f"/rulebook/{citation}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert citation in html and rule.title.replace("'", "&#x27;") in html
    assert "Written by Cardroom" in html


def test_the_procedures_are_found_by_the_floor_s_words(bundled: None, client: Any) -> None:
    html = client.get("/rulebook/", {"q": "missed blinds"}).content.decode()
    assert "CR-BB.3" in html
    html = client.get("/rulebook/", {"q": "dead button"}).content.decode()
    assert "CR-BB.1" in html and "No rule matches" not in html
    html = client.get("/rulebook/", {"q": "moving button"}).content.decode()
    assert "CR-BB.4" in html
    html = client.get("/rulebook/", {"q": "heads-up big blind twice"}).content.decode()
    assert "CR-BB.7" in html
    html = client.get("/rulebook/", {"q": "misdeal redeal button"}).content.decode()
    assert "CR-BB.8" in html
