"""The money reconciliation: a tournament's ledger and a day's added up by kind, method and
place, every difference named (a line that does not balance or moves what its kind may not, the
chain broken, a place below zero, prizes or bounties unpaid once the tournament is complete),
the pages for the cashier and the director (403 for the rest), bad dates refused, the queries
bounded however long the ledger, the lines as CSV; and ``verify_audit`` adding up each ledger.

Lines are written straight to the ledger in balanced form, as the payment services write them
(``tournaments.money.models``: the ledger's meaning)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, models
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cardroom.core import audit
from tests.tournaments.factories import bust, make_tournament
from tournaments.draw_services import draw_initial_seating
from tournaments.models import Entrant, EntrantStatus, Tournament, TournamentStatus
from tournaments.money import ledger, payouts
from tournaments.money.models import Method, MoneyMove, MoveKind, PayoutTable

pytestmark = pytest.mark.django_db

CASH, CARD, VOUCHER, ROOM = Method.CASH, Method.CARD, Method.VOUCHER, Method.ROOM


def move(tournament: Tournament, by: Any, kind: str, method: str = ROOM, **fields: Any) -> Any:
    line = MoneyMove.objects.create(
        tournament=tournament, by=by, kind=kind, method=method, **fields
    )
    if kind in (MoveKind.REBUY, MoveKind.ADDON):
        # The chips bought join the count, as the service adds them (``payments._buy``).
        Entrant.objects.filter(pk=line.entrant_id).update(chips=models.F("chips") + line.chips)
    return line


def entry(tournament: Tournament, by: Any, entrant: Entrant | None, method: str = CASH, **f: Any):
    """A $110 entry: $100 to the prize pool, $8 house fee, $2 staff fee."""
    amounts = {"player_in": 11_000, "pool": 10_000, "house": 800, "staff": 200, **f}
    kind = amounts.pop("kind", MoveKind.ENTRY)
    return move(tournament, by, kind, method, entrant=entrant, chips=20_000, **amounts)


def evening(tournament: Tournament, by: Any) -> dict[str, Any]:
    """Five entries (3 cash, 1 card, 1 voucher), a rebuy and an add-on, $100 added, a bounty won
    and paid, the fees taken and a prize paid."""
    players = list(tournament.entrants.order_by("number"))
    for player, method in zip(players, (CASH, CASH, CASH, CARD, VOUCHER), strict=False):
        entry(tournament, by, player, method)
    move(tournament, by, MoveKind.REBUY, CASH, entrant=players[0], player_in=5_500,
         pool=5_000, house=500, chips=20_000)  # fmt: skip
    move(tournament, by, MoveKind.ADDON, CARD, entrant=players[1], player_in=2_000,
         pool=2_000, chips=10_000)  # fmt: skip
    move(tournament, by, MoveKind.ADDED, room_in=10_000, pool=10_000)
    move(tournament, by, MoveKind.FEES_TAKEN, room_out=4_000, house=-4_000)
    prize = move(tournament, by, MoveKind.PAYOUT, CASH, entrant=players[4], pool=-20_000,
                 player_out=20_000, place=5)  # fmt: skip
    return {"players": players, "prize": prize}


@pytest.fixture
def tournament(director: Any) -> Tournament:
    return make_tournament(by=director, tables=1, entrants=6)


# --- the sums -------------------------------------------------------------------------------


def test_an_evening_adds_up_by_kind_method_and_place_and_balances(tournament, director):
    evening(tournament, director)
    result = ledger.reconcile(tournament)
    assert result.balanced and result.differences == []
    assert result.players_in() == [
        ("Entry", 5, 55_000), ("Rebuy", 1, 5_500), ("Add-on", 1, 2_000),
    ]  # fmt: skip
    assert result.room_in() == [("Added money", 1, 10_000)]
    assert dict(result.held()) == {
        "Prize pool": 50_000 + 5_000 + 2_000 + 10_000 - 20_000,
        "House fee": 4_000 + 500 - 4_000,
        "Staff fee": 1_000,
        "Bounties": 0,
        "Owed to players": 0,
    }
    assert result.out() == [
        ("Prizes paid", 1, 20_000), ("Bounties paid", 0, 0), ("Fees taken", 1, 4_000),
    ]  # fmt: skip
    totals = result.totals
    assert totals.paid_in == 72_500 and totals.paid_out == 24_000 and totals.held == 48_500
    drawer = {row.method: (row.taken, row.paid, row.net) for row in result.drawer()}
    assert drawer == {
        CASH: (38_500, 20_000, 18_500),
        CARD: (13_000, 0, 13_000),
        VOUCHER: (11_000, 0, 11_000),
        ROOM: (10_000, 4_000, 6_000),
    }


def test_a_bounty_won_is_owed_until_paid(tournament, director):
    winner, busted = tournament.entrants.order_by("number")[:2]
    entry(tournament, director, busted, bounty=2_500, player_in=13_500)
    move(tournament, director, MoveKind.BOUNTY_WON, entrant=winner, from_entrant=busted,
         bounty=-2_500, owed=2_500)  # fmt: skip
    assert dict(ledger.reconcile(tournament).held())["Owed to players"] == 2_500
    move(tournament, director, MoveKind.BOUNTY_PAID, CASH, entrant=winner, owed=-2_500,
         player_out=2_500)  # fmt: skip
    result = ledger.reconcile(tournament)
    assert dict(result.held())["Owed to players"] == 0 and dict(result.held())["Bounties"] == 0
    assert ("Bounties paid", 1, 2_500) in result.out() and result.balanced


def test_a_refund_takes_the_entry_back_out(tournament, director):
    player = tournament.entrants.first()
    paid = entry(tournament, director, player)
    move(tournament, director, MoveKind.REFUND, CASH, entrant=player, refund_of=paid,
         player_out=11_000, pool=-10_000, house=-800, staff=-200)  # fmt: skip
    result = ledger.reconcile(tournament)
    assert ("Refund", 1, -11_000) in result.players_in()
    assert result.totals.held == 0 and result.balanced


# --- the differences ------------------------------------------------------------------------


def test_a_line_moving_what_its_kind_never_moves_is_named(tournament, director):
    """A prize paid out of the house fee balances, and is still not a prize."""
    entry(tournament, director, tournament.entrants.first())
    odd = move(tournament, director, MoveKind.PAYOUT, CASH, entrant=tournament.entrants.last(),
               house=-800, player_out=800, place=6)  # fmt: skip
    (difference,) = ledger.reconcile(tournament).differences
    assert difference.line == odd.pk and difference.where == f"line {odd.pk}"
    assert difference.what == "a line of kind “payout” moves house"


def test_a_prize_paid_from_an_empty_pool_leaves_the_pool_below_zero(tournament, director):
    move(tournament, director, MoveKind.PAYOUT, CASH, entrant=tournament.entrants.first(),
         pool=-5_000, player_out=5_000, place=1)  # fmt: skip
    (difference,) = ledger.reconcile(tournament).differences
    assert difference.where == "prize pool"
    assert difference.what == "the prize pool holds -$50.00: more went out of it than came in"


def finish(tournament: Tournament, by: Any) -> list[Entrant]:
    """Seat the field and bust all but one: the tournament complete, places 1 to 6 set."""
    draw_initial_seating(tournament=tournament, by=by)
    for entrant in tournament.entrants.order_by("-number")[:5]:
        bust(entrant=Entrant.objects.get(pk=entrant.pk), by=by)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.COMPLETE
    return list(tournament.entrants.order_by("place"))


def test_once_complete_every_prize_is_paid_or_the_unpaid_are_named(tournament, director):
    for player in tournament.entrants.all():
        entry(tournament, director, player)
    placed = finish(tournament, director)
    PayoutTable.objects.create(tournament=tournament, version=1, pool=60_000,
                               prizes=[40_000, 20_000], by=director)  # fmt: skip
    payouts.pay_prize(entrant=placed[0], method=CASH, by=director)
    result = ledger.reconcile(tournament)
    assert [(d.where, d.what) for d in result.differences] == [
        ("prize pool", "the tournament is complete and the prize pool still holds $200.00"),
        (f"{placed[1].name} #{placed[1].number}",
         "has no prize paid: $200.00 owed for 2nd place"),
    ]  # fmt: skip
    payouts.pay_prize(entrant=placed[1], method=CARD, by=director)
    assert ledger.reconcile(tournament).balanced


def test_once_complete_a_bounty_still_owed_is_named(tournament, director):
    placed = finish(tournament, director)
    entry(tournament, director, placed[5], bounty=2_500, player_in=13_500, pool=0, house=800,
          staff=10_200)  # fmt: skip
    move(tournament, director, MoveKind.BOUNTY_WON, entrant=placed[0], from_entrant=placed[5],
         bounty=-2_500, owed=2_500)  # fmt: skip
    (difference,) = ledger.reconcile(tournament).differences
    assert difference.where == f"{placed[0].name} #{placed[0].number}"
    assert difference.what == "is still owed $25.00 (bounties won, not paid)"


def rewrite(line: MoneyMove, **values: int) -> None:
    """A line changed behind the application's back: the append-only triggers stepped round
    (the maintenance door) and its balance check not enforced (on SQLite for the connection; on
    PostgreSQL dropped inside the test's transaction, which rolls it back)."""
    with audit.maintenance(), connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA ignore_check_constraints = ON")
        else:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            table = MoneyMove._meta.db_table
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT money_line_balances")
        try:
            models.QuerySet(model=MoneyMove).filter(pk=line.pk).update(**values)
        finally:
            if connection.vendor == "sqlite":
                cursor.execute("PRAGMA ignore_check_constraints = OFF")


def verify_audit() -> list[str]:
    err = StringIO()
    try:
        call_command("verify_audit", stdout=StringIO(), stderr=err)
    except CommandError:
        return [line for line in err.getvalue().splitlines() if line.startswith("BREAK")]
    return []


def test_a_rewritten_line_is_named_by_the_page_and_by_verify_audit(tournament, director):
    evening(tournament, director)
    target = MoneyMove.objects.filter(tournament=tournament, kind=MoveKind.ENTRY).first()
    assert verify_audit() == []
    rewrite(target, house=0)  # $8 of house fee gone: the line no longer balances
    whats = [d.what for d in ledger.reconcile(tournament).differences]
    assert whats[0] == (
        "does not balance: $110.00 in less $0.00 out is not the $102.00 it puts where money is held"
    )
    assert "the ledger's chain is broken: contents changed: row_hash does not match its fields" in (
        whats
    )
    table = MoneyMove._meta.db_table
    assert set(verify_audit()) == {
        f"BREAK {table} row {target.pk}: contents changed: row_hash does not match its fields",
        f"BREAK {table} row {target.pk}: does not balance: $110.00 in less $0.00 out is not the "
        "$102.00 it puts where money is held",
        f"BREAK tournaments_tournament row {tournament.pk}: the ledger of tournament "
        f"{tournament.pk}: the house fee holds -$3.00: more went out of it than came in",
        f"BREAK tournaments_tournament row {tournament.pk}: the ledger of tournament "
        f"{tournament.pk}: the totals do not balance: $725.00 in less $240.00 out is not the "
        "$477.00 held",
    }


@pytest.mark.postgres
def test_postgres_raw_sql_rewrites_with_the_triggers_disabled_are_named(tournament, director):
    """A superuser turns the triggers off and rewrites two lines: one still balanced (a prize's
    amount moved to the house fee's column: its chain breaks), one not (the balance check
    dropped for it): ``verify_audit`` names both lines and what is wrong with each."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    evening(tournament, director)
    first, second = MoneyMove.objects.filter(tournament=tournament).order_by("pk")[:2]
    table = MoneyMove._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        cursor.execute(
            f"UPDATE {table} SET staff = 0, house = house + 200 WHERE id = %s",  # noqa: S608
            [first.pk],
        )
        cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT money_line_balances")
        cursor.execute(f"UPDATE {table} SET pool = 9000 WHERE id = %s", [second.pk])  # noqa: S608
        cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    found = verify_audit()
    assert f"BREAK {table} row {first.pk}: a line of kind “entry” moves nothing it may" not in found
    assert {
        f"BREAK {table} row {first.pk}: contents changed: row_hash does not match its fields",
        f"BREAK {table} row {second.pk}: contents changed: row_hash does not match its fields",
        f"BREAK {table} row {second.pk}: does not balance: $110.00 in less $0.00 out is not the "
        "$100.00 it puts where money is held",
    } <= set(found)
    assert not any(f"row {first.pk}: does not balance" in line for line in found)


def test_verify_audit_adds_up_every_ledger(tournament, director):
    evening(tournament, director)
    other = make_tournament(by=director, tables=1, entrants=2, first_table=201, name="Turbo")
    move(other, director, MoveKind.PAYOUT, CASH, entrant=other.entrants.first(), pool=-1_000,
         player_out=1_000, place=1)  # fmt: skip
    assert verify_audit() == [
        f"BREAK tournaments_tournament row {other.pk}: the ledger of tournament {other.pk}: "
        "the prize pool holds -$10.00: more went out of it than came in"
    ]


# --- a day ----------------------------------------------------------------------------------


def test_a_day_is_the_rooms_local_date_across_tournaments(settings, tournament, director):
    settings.TIME_ZONE = "America/New_York"
    other = make_tournament(by=director, tables=1, entrants=1, first_table=201, name="Turbo")
    late = datetime(2026, 11, 27, 3, 30, tzinfo=UTC)  # 22:30 on the 26th in New York
    entry(tournament, director, tournament.entrants.first(), at=late)
    entry(tournament, director, tournament.entrants.last(), CARD,
          at=datetime(2026, 11, 27, 16, 0, tzinfo=UTC))  # fmt: skip
    entry(other, director, other.entrants.first(), at=datetime(2026, 11, 28, 4, 59, tzinfo=UTC))
    entry(other, director, other.entrants.first(), kind=MoveKind.REENTRY,
          at=datetime(2026, 11, 28, 5, 0, tzinfo=UTC))  # the 28th from 05:00 UTC  # fmt: skip
    result, tournaments = ledger.reconcile_day(datetime(2026, 11, 27).date())
    assert result.balanced and result.totals.lines == 2
    assert [(t.name, t.sums.lines, t.sums.paid_in) for t in tournaments] == [
        (tournament.name, 1, 11_000), ("Turbo", 1, 11_000),
    ]  # fmt: skip
    assert {row.method for row in result.drawer()} == {CARD, CASH}


# --- the pages ------------------------------------------------------------------------------


def url(tournament: Tournament, **query: str) -> str:
    base = reverse("tournaments:reconciliation", args=[tournament.pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.mark.parametrize("persona", ["director", "cashier"])
def test_the_cashier_and_the_director_see_it_balanced_to_the_unit(
    persona, persona_client, tournament, director
):
    evening(tournament, director)
    response = persona_client(persona).get(url(tournament))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Balanced to the unit" in page and "money-difference" not in page
    assert "In $725.00 − out $240.00 = held $485.00" in page


@pytest.mark.parametrize(
    ("persona", "status"),
    [("staff", 403), ("floor_manager", 403), ("no_role_user", 403), ("anonymous", 302)],
)
def test_everyone_else_is_refused_both_pages(persona, status, persona_client, tournament):
    client = persona_client(persona)
    for address in (url(tournament), reverse("tournaments:money_day") + "?date=2026-11-27"):
        response = client.get(address)
        assert response.status_code == status
        if status == 302:
            assert response["Location"].startswith("/login/")
    assert client.get(url(tournament, format="csv")).status_code == status


def test_each_difference_is_shown_in_red_with_what_and_where(persona_client, tournament, director):
    move(tournament, director, MoveKind.PAYOUT, CASH, entrant=tournament.entrants.first(),
         pool=-5_000, player_out=5_000, place=1)  # fmt: skip
    page = persona_client("cashier").get(url(tournament)).content.decode()
    assert "Balanced to the unit" not in page
    assert (
        '<li class="money-difference"><strong>prize pool</strong>: the prize pool holds -$50.00: '
        "more went out of it than came in</li>"
    ) in page


@pytest.mark.parametrize(
    "typed",
    ["2026-13-01", "yesterday", "27/11/2026", "", "２０２６-11-27", "1999-12-31", "9999-12-31"],
)
def test_a_bad_date_is_refused_on_the_form(typed, persona_client):
    response = persona_client("cashier").get(reverse("tournaments:money_day"), {"date": typed})
    assert response.status_code == 422
    assert 'class="form-error" role="alert"' in response.content.decode()


def test_the_day_page_without_a_date_is_today(persona_client, tournament, director):
    entry(tournament, director, tournament.entrants.first())
    response = persona_client("director").get(reverse("tournaments:money_day"))
    assert response.status_code == 200 and response.context["result"].totals.lines == 1
    assert "Balanced to the unit: 1 line, every one balanced" in response.content.decode()


def many_lines(tournament: Tournament, by: Any, count: int) -> None:
    players = list(tournament.entrants.all())
    for number in range(count):
        entry(tournament, by, players[number % len(players)], (CASH, CARD, VOUCHER)[number % 3])


def queries(client: Any, address: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return len(captured)


def test_the_pages_ask_the_same_queries_for_200_lines_as_for_20(
    persona_client, tournament, director, django_assert_max_num_queries
):
    client = persona_client("cashier")
    today = reverse("tournaments:money_day") + "?date=" + datetime.now(UTC).date().isoformat()
    many_lines(tournament, director, 20)
    few = (queries(client, url(tournament)), queries(client, today))
    many_lines(tournament, director, 180)
    with django_assert_max_num_queries(few[0]):
        assert client.get(url(tournament, page="2")).status_code == 200
    assert (queries(client, url(tournament)), queries(client, today)) == few


def test_the_lines_are_listed_newest_first_50_a_page(persona_client, tournament, director):
    many_lines(tournament, director, 60)
    newest = MoneyMove.objects.filter(tournament=tournament).order_by("-pk")
    client = persona_client("director")
    first = client.get(url(tournament)).context["page"]
    assert [line.pk for line in first] == [line.pk for line in newest[:50]]
    second = client.get(url(tournament, page="2")).context["page"]
    assert [line.pk for line in second] == [line.pk for line in newest[50:]]
    assert client.get(url(tournament, page="x")).status_code == 200  # the first page


def test_the_lines_export_as_csv_newest_first_formulas_neutralised(
    persona_client, tournament, director
):
    player = tournament.entrants.first()
    entry(tournament, director, player)
    move(tournament, director, MoveKind.ADDED, room_in=500, pool=500, note="=HYPERLINK(1)")
    response = persona_client("cashier").get(url(tournament, format="csv"))
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0] == list(ledger.CSV_HEADER)
    header = rows[0]
    added, paid = (dict(zip(header, row, strict=True)) for row in rows[1:])
    assert added["kind"] == "added" and added["note"] == "'=HYPERLINK(1)"
    assert paid["player"] == player.name and paid["player_in"] == "11000"
    assert paid["method"] == "cash" and paid["by"] == director.username


def test_a_days_lines_export_as_csv(persona_client, tournament, director):
    entry(tournament, director, tournament.entrants.first())
    today = datetime.now(UTC).date().isoformat()
    response = persona_client("director").get(
        reverse("tournaments:money_day"), {"date": today, "format": "csv"}
    )
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert len(rows) == 2 and rows[1][2] == str(tournament.pk)
    assert response["Content-Disposition"] == f'attachment; filename="money-{today}.csv"'


def test_nothing_of_the_evening_is_left_unpaid_once_the_winner_is_paid(
    persona_client, tournament, director
):
    """An evening to its end: entries, the prizes by the table, all paid: balanced, complete."""
    for player in tournament.entrants.all():
        entry(tournament, director, player)
    placed = finish(tournament, director)
    move(tournament, director, MoveKind.FEES_TAKEN, room_out=6_000, house=-4_800, staff=-1_200)
    PayoutTable.objects.create(tournament=tournament, version=1, pool=60_000,
                               prizes=[36_000, 24_000], by=director)  # fmt: skip
    for finisher in placed[:2]:
        payouts.pay_prize(entrant=finisher, method=CASH, by=director)
    assert Entrant.objects.filter(status=EntrantStatus.ELIMINATED).count() == 5
    page = persona_client("cashier").get(url(tournament)).content.decode()
    assert (
        "Balanced to the unit: 9 lines, every one balanced and none altered since it was written, every prize paid."
        in page
    )


def test_once_complete_a_player_in_the_deal_with_no_prize_paid_is_named(tournament, director):
    """The deal's players are paid what the deal gave them: one unpaid is named, whatever the
    payout table said of their place."""
    from tournaments.money.models import Deal

    for player in tournament.entrants.all():
        entry(tournament, director, player)
    placed = finish(tournament, director)
    PayoutTable.objects.create(tournament=tournament, version=1, pool=60_000,
                               prizes=[36_000, 24_000], by=director)  # fmt: skip
    deal = Deal.objects.create(
        tournament=tournament, method="icm", prizes=[36_000, 24_000], by=director,
        players=[{"entrant": placed[0].pk, "share": 31_000}, {"entrant": placed[1].pk,
                 "share": 29_000}],
    )  # fmt: skip
    move(tournament, director, MoveKind.DEAL, deal=deal)
    assert payouts.pay_prize(entrant=placed[0], method=CASH, by=director).player_out == 31_000
    result = ledger.reconcile(tournament)
    assert [d.where for d in result.differences] == [
        "prize pool", f"{placed[1].name} #{placed[1].number}",
    ]  # fmt: skip
    assert result.differences[1].what == "has no prize paid: $290.00 owed for 2nd place"
