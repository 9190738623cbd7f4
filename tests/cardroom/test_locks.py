"""Row locks are taken in one place (``cardroom/core/locks.py``: one order, a bounded wait)
and a rule's refusal is one type (``Refusal``), answered in one place (``api_errors``). The
PostgreSQL waits themselves: ``test_lock_timeout_races.py``."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import OperationalError
from django.test import RequestFactory

from cardroom.core.api_errors import Refusal, refusal
from cardroom.core.locks import RowsBusy
from cardroom.core.middleware import DatabaseUnavailableMiddleware
from cardroom.rulings.services import IdempotencyKeyReused
from cardroom.seats.api import refusing
from cardroom.seats.services import SeatRefused
from cardroom.tables.models import Table
from cardroom.tables.services import HandVoided, SeatedAtClose, TableInUse
from cardroom.waitlists.base import WaitlistRefused
from tournaments.table_hands import CannotDeal

ROOT = Path(__file__).resolve().parents[2]


def test_rows_are_locked_only_through_the_one_helper() -> None:
    """No service locks rows by hand (``select_for_update``): each goes through
    ``lock_row``/``lock_rows``, which set the lock timeout and take rows in primary-key order."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("cardroom", "tournaments")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != ROOT / "cardroom/core/locks.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "select_for_update" in line
    ]
    assert found == []


def test_every_rule_refusal_is_a_refusal() -> None:
    """Every ValidationError with a code of its own is the one ``Refusal`` type: none is
    answered in a shape of its own."""
    own = [
        f"{path.relative_to(ROOT)}: {match}"
        for folder in ("cardroom", "tournaments", "rules")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for match in re.findall(
            r"class \w+\((?:\w+\.)?(?:Django)?ValidationError\)", path.read_text()
        )
        if path != ROOT / "cardroom/core/api_errors.py"
    ]
    assert own == []


def answer(exc: Exception) -> tuple[int, dict[str, Any]]:
    response = refusal(exc)
    assert response is not None
    return response.status_code, response.data["error"]


@pytest.mark.parametrize(
    ("exc", "code", "fields", "citations"),
    [
        (TableInUse({"seats": "Seat 9 is taken."}), "table_in_use", {"seats": ["Seat 9 is taken."]}, []),
        (SeatRefused("buy_in", "At most 500.", "RRoP-14.16"), "seat_refused", {"buy_in": ["At most 500."]}, ["RRoP-14.16"]),
        (WaitlistRefused("table", "Table 1 is closed."), "waitlist_refused", {"table": ["Table 1 is closed."]}, []),
        (CannotDeal("On a break.", "TDA-1"), "cannot_deal", {"table": ["On a break."]}, ["TDA-1"]),
        (IdempotencyKeyReused(), "idempotency_key_reused", {"request_key": [IdempotencyKeyReused().messages[0]]}, []),
        (refusing(ValidationError({"table": "Table 1 is closed."})), "refused", {"table": ["Table 1 is closed."]}, []),
        (refusing(ValidationError("No hand.")), "refused", {"non_field_errors": ["No hand."]}, []),
    ],
)  # fmt: skip
def test_a_refusal_answers_422_with_its_code_fields_and_rules(
    exc: Refusal, code: str, fields: dict[str, list[str]], citations: list[str]
) -> None:
    assert isinstance(exc, Refusal)
    message = next(iter(fields.values()))[0]
    body = {"code": code, "message": message, "fields": fields, "citations": citations}
    assert answer(exc) == (422, body)


def test_refusals_with_words_of_their_own_keep_them() -> None:
    closing = SeatedAtClose("Table 1", ["Ana Ruiz"])  # type: ignore[arg-type]
    status, body = answer(closing)
    assert (status, body["code"], closing.names) == (422, "confirm_seated", ["Ana Ruiz"])
    assert body["message"].startswith("Table 1 still has 1 player seated: Ana Ruiz.")
    voided = HandVoided("Hand #4")  # type: ignore[arg-type]
    assert answer(voided) == (
        422,
        {
            "code": "hand_voided",
            "message": voided.text,
            "fields": {"hand": [voided.text]},
            "citations": [],
        },
    )
    together = SeatRefused.together(
        [SeatRefused("buy_ins.1", "Over.", "R-1"), SeatRefused("buy_ins.2", "Under.", "R-2")]
    )
    assert answer(together)[1]["citations"] == ["R-1", "R-2"]


class LockNotAvailable(Exception):
    """psycopg's error for PostgreSQL's ``lock_not_available``."""

    sqlstate = "55P03"


def timed_out() -> OperationalError:
    """Django's error for a lock wait past ``lock_timeout``, with psycopg's as its cause."""
    exc = OperationalError("canceling statement due to lock timeout")
    exc.__cause__ = LockNotAvailable()
    return exc


def test_a_lock_wait_past_the_timeout_is_the_apis_409_busy() -> None:
    assert answer(timed_out()) == (
        409,
        {
            "code": "busy",
            "message": "Another change is being written to the same rows: nothing was"
            " changed, try again.",
        },
    )
    assert answer(RowsBusy(Table)) == (
        409,
        {
            "code": "busy",
            "message": "Another change to this table is being written right now: nothing was"
            " changed, try again in a moment.",
        },
    )
    assert refusal(OperationalError("the server closed the connection")) is None


def test_a_page_says_to_try_again_and_an_api_path_answers_409() -> None:
    middleware = DatabaseUnavailableMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    for exc in (timed_out(), RowsBusy(Table)):
        page = middleware.process_exception(RequestFactory().post("/tables/1/status/"), exc)
        assert page is not None and page.status_code == 503 and page["Retry-After"] == "1"
        assert "try again" in page.content.decode()
        api = middleware.process_exception(RequestFactory().post("/api/v1/seats/"), exc)
        assert api is not None and api.status_code == 409 and b'"busy"' in api.content
    down = middleware.process_exception(RequestFactory().get("/"), OperationalError("down"))
    assert down is not None and down.status_code == 503 and down["Retry-After"] == "5"
