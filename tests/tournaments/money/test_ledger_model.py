"""The money ledger's own guarantees, whatever path writes it: a line that does not balance is
refused by the database, lines are never changed or deleted, and amounts are read and written
in the currency's minor unit."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.factories import make_tournament
from tournaments.money.currency import Currency, MoneyRefused, format_money, parse_money
from tournaments.money.models import Method, MoneyMove, MoveKind

DOLLAR = Currency("USD", 2)
WON = Currency("KRW", 0)
DINAR = Currency("KWD", 3)


def line(tournament, by, **amounts):
    return MoneyMove.objects.create(
        tournament=tournament, kind=MoveKind.ENTRY, method=Method.CASH, by=by, **amounts
    )


@pytest.mark.django_db
def test_a_balanced_line_is_kept_and_chained(director):
    tournament = make_tournament(by=director, tables=1)
    first = line(tournament, director, player_in=11_000, pool=10_000, house=800, staff=200)
    second = line(tournament, director, player_in=11_000, pool=10_000, house=1_000)
    assert second.prev_hash == first.row_hash != ""


@pytest.mark.django_db
def test_a_line_that_does_not_balance_is_refused_by_the_database(director):
    tournament = make_tournament(by=director, tables=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        line(tournament, director, player_in=11_000, pool=10_000, house=800)
    with pytest.raises(IntegrityError), transaction.atomic():
        line(tournament, director, player_in=-5, pool=-5)


@pytest.mark.django_db
def test_ledger_lines_are_never_changed_or_deleted(director):
    tournament = make_tournament(by=director, tables=1)
    row = line(tournament, director, player_in=100, pool=100)
    with pytest.raises(ValidationError):
        MoneyMove.objects.filter(pk=row.pk).update(pool=50, house=50)
    with pytest.raises(ValidationError):
        row.delete()
    table = MoneyMove._meta.db_table
    sql = f"UPDATE {table} SET pool = 50, house = 50 WHERE id = %s"  # noqa: S608 (a model's table)
    with pytest.raises(Exception, match=r"(?i)append-only"), transaction.atomic():
        connection.cursor().execute(sql, [row.pk])


@pytest.mark.parametrize(
    ("text", "currency", "amount"),
    [
        ("1,234.50", DOLLAR, 123_450),
        ("$1,234.5", DOLLAR, 123_450),
        ("0.07", DOLLAR, 7),
        ("250", DOLLAR, 25_000),
        ("50,000", WON, 50_000),
        ("₩50000", WON, 50_000),
        ("1.005", DINAR, 1_005),
        ("12 USD", DOLLAR, 1_200),
    ],
)
def test_amounts_are_read_as_a_cashier_writes_them(text, currency, amount):
    assert parse_money(text, currency) == amount


@pytest.mark.parametrize(
    ("text", "currency", "says"),
    [
        ("²", DOLLAR, "digits 0 to 9"),
        ("١٠٠", DOLLAR, "digits 0 to 9"),
        ("-5", DOLLAR, "never below zero"),
        ("1.234", DOLLAR, "2 decimals at most"),
        ("500.5", WON, "no smaller unit"),
        ("1,23", DOLLAR, "thousands"),
        ("", DOLLAR, "Enter an amount"),
        ("1e5", DOLLAR, "digits 0 to 9"),
        ("9" * 30, DOLLAR, "largest amount"),
        ("5.", DOLLAR, "digits 0 to 9"),
    ],
)
def test_what_is_not_an_amount_is_refused_with_the_reason(text, currency, says):
    with pytest.raises(MoneyRefused, match=says):
        parse_money(text, currency)


def test_amounts_are_written_in_the_currency():
    assert format_money(123_450, DOLLAR) == "$1,234.50"
    assert format_money(-7, DOLLAR) == "-$0.07"
    assert format_money(50_000, WON) == "₩50,000"
    assert format_money(1_005, DINAR) == "1.005 KWD"


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from([DOLLAR, WON, DINAR]))
def test_what_is_written_reads_back_to_the_same_amount(amount, currency):
    assert parse_money(format_money(amount, currency), currency) == amount
