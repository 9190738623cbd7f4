"""The rulings log: citations checked against the rulebook, append-only everywhere."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection

from cardroom.rulings.models import Ruling, RulingCitation
from cardroom.rulings.services import log_ruling, tournament_of
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def rulebook(db: None) -> None:
    call_command("load_rulebook", verbosity=0)


def ruling(director: Any, **extra: Any) -> Ruling:
    fields: dict[str, Any] = {
        "table": extra.pop("table", None) or make_table(number=4),
        "director": director,
        "situation": "Seat 3 put out a 1000 chip and two 500s facing 400.",
        "decision": "Multiple chips: a raise to the minimum.",
        "citations": [("TDA-45", "Example 2")],
        **extra,
    }
    return log_ruling(**fields)


def test_a_ruling_is_numbered_per_table_and_cites_rules(director: Any, rulebook: None) -> None:
    first = ruling(director)
    second = ruling(director, table=first.table, citations=[("TDA-45", ""), ("TDA-43", "")])
    assert (first.number, second.number) == (1, 2)
    assert [c.rule_id for c in second.citations.all()] == ["TDA-45", "TDA-43"]
    assert first.citations.get().note == "Example 2"


@pytest.mark.parametrize(
    ("citations", "words"),
    [
        ([("NOPE-1", "")], "Not in the rulebook: NOPE-1"),
        ([], "Cite at least one rule"),
        ([("TDA-45", ""), ("TDA-45", "again")], "cited once"),
    ],
)
def test_bad_citations_are_refused(
    director: Any, rulebook: None, citations: Any, words: str
) -> None:
    with pytest.raises(ValidationError, match=words):
        ruling(director, citations=citations)
    assert not Ruling.objects.exists()


def test_a_withdrawn_rule_cannot_be_cited(director: Any, rulebook: None) -> None:
    from rules.models import Rule

    Rule.objects.filter(citation_id="RRoP-BR.15").update(withdrawn=True)
    with pytest.raises(ValidationError, match="Withdrawn"):
        ruling(director, citations=[("RRoP-BR.15", "")])


def test_a_ruling_points_at_a_hand_and_action_of_its_table(
    director: Any, floor_manager: Any, rulebook: None
) -> None:
    from cardroom.tables.services import record_action

    hand = make_hand(by=floor_manager)
    action = record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="call")
    made = ruling(director, table=hand.table, hand=hand, action=action, seats=[1])
    assert made.action == action
    other = make_table(number=11)
    with pytest.raises(ValidationError, match="was not dealt at"):
        ruling(director, table=other, hand=hand)


def test_the_orm_refuses_updates_and_deletes(director: Any, rulebook: None) -> None:
    made = ruling(director)
    made.decision = "Changed my mind"
    with pytest.raises(ValidationError):
        made.save()
    with pytest.raises(ValidationError):
        made.delete()
    with pytest.raises(ValidationError):
        Ruling.objects.filter(pk=made.pk).update(decision="x")
    with pytest.raises(ValidationError):
        RulingCitation.objects.all().delete()
    assert Ruling.objects.get().decision == "Multiple chips: a raise to the minimum."


def test_an_amendment_is_a_new_linked_entry(director: Any, rulebook: None) -> None:
    original = ruling(director)
    amended = ruling(
        director, table=original.table, amends=original, kind="amendment", decision="Call only."
    )
    assert amended.amends == original and original.amendments.get() == amended
    with pytest.raises(ValidationError, match="name the ruling they change"):
        ruling(director, table=original.table, kind="appeal")


@pytest.mark.postgres
def test_postgres_refuses_raw_sql_updates_and_deletes(director: Any, rulebook: None) -> None:
    from django.db import transaction
    from django.db.utils import DatabaseError

    made = ruling(director)
    for sql in (
        "UPDATE cardroom_ruling SET decision = 'x' WHERE id = %s",
        "DELETE FROM cardroom_ruling WHERE id = %s",
        "UPDATE cardroom_rulingcitation SET note = 'x' WHERE ruling_id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [made.pk])
    assert Ruling.objects.get().decision == "Multiple chips: a raise to the minimum."


def test_a_ruling_at_a_tournament_table_records_the_tournament(
    director: Any, rulebook: None, api_client_for: Any, persona_client: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.models import TournamentStatus

    tournament = make_tournament(by=director, tables=2, first_table=301)
    room = tournament.tables.get(number=1).table
    at_tournament = ruling(director, table=room)
    assert tournament_of(at_tournament) == tournament
    assert tournament_of(ruling(director, table=make_table(number=9))) is None  # a cash table
    listed = api_client_for("staff").get(f"/api/v1/rulings/{at_tournament.pk}/").json()
    assert listed["tournament"] == {"id": tournament.pk, "name": "Saturday Deepstack"}
    page = persona_client("staff").get(f"/rulings/{at_tournament.pk}/").text
    assert "Saturday Deepstack" in page
    export = persona_client("staff").get("/rulings/export.csv").text
    assert "Saturday Deepstack" in export.splitlines()[-1] + export.splitlines()[-2]
    # Once the tournament is over, its tables are cash tables again.
    tournament.status = TournamentStatus.COMPLETE
    tournament.save(update_fields=["status"])
    assert tournament_of(ruling(director, table=room)) is None
