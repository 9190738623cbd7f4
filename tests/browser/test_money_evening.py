"""A tournament's money through an evening, in Chromium, as far as the money features on main go.

The director works the payouts out on the payouts page; the field plays down to its winner (the
bubble locks the table); the cashier pays first place in cash and second by card from the
payouts page (each answered with the payout slip), and ends on the reconciliation page: "Balanced to
the unit", every prize paid, and the same on the day's page.

Where the evening stops short of the whole night: the entries are the ledger lines the payment
service writes, put in before the browser opens (``priced``), because taking entries, rebuys and
add-ons at the cage, and recording a deal, have no pages on main yet; the busts are the
director's service calls the elimination tests drive through their own pages.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.tournaments.factories import bust
from tests.tournaments.money.test_payouts_service import priced, seated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(browser: Any, base: str, username: str) -> tuple[Page, list[str]]:
    from tests.factories import TEST_PASSWORD

    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(TEST_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    return page, errors


def test_an_evenings_prizes_are_paid_and_the_money_balances_to_the_unit(
    live_server: Any, browser: Any, director: Any, cashier: Any
) -> None:
    from tournaments.money import payouts

    tournament = priced(director, entrants=6, tables=1, places_fixed=2)
    base = live_server.url
    payouts_url = base + reverse("tournaments:payouts", args=[tournament.pk])

    # The director works the payouts out from the price list: two places paid.
    td, td_errors = log_in(browser, base, director.username)
    td.goto(payouts_url)
    expect(td.get_by_role("heading", name="Prize pool: $600.00")).to_be_visible()
    td.get_by_role("button", name="Work them out from the template or curve").click()
    expect(td.get_by_role("heading", name="Payouts, version 1")).to_be_visible()

    # The field plays down to its winner: the bubble bursts at two left and locks the table.
    players = seated(tournament)
    for out in players[:5]:
        bust(entrant=out, by=director)
    first, second = payouts.prizes_owed(tournament)
    assert first.amount + second.amount == 60_000

    # The cashier pays both finishers from the payouts page, first in cash, second by card:
    # each payment answers with the player's payout slip, the prize in figures.
    cage, cage_errors = log_in(browser, base, cashier.username)
    cage.goto(payouts_url)
    expect(cage.locator("#locked-note")).to_contain_text("Locked")
    for owed, method in ((first, "Cash"), (second, "Card")):
        row = cage.locator(f"#payout-place-{owed.place}")
        row.get_by_label("Paid by").select_option(label=method)
        prize = owed.currency.format(owed.amount)
        row.get_by_role("button", name=f"Pay {prize}").click()
        expect(cage.locator("#slip-amount")).to_have_text(prize)
        cage.get_by_role("link", name="Back to the payouts").click()
        expect(cage.locator(f"#payout-place-{owed.place}")).to_contain_text("slip")

    # The night's money, reconciled: balanced to the unit, every prize paid.
    cage.get_by_role("link", name="The money reconciled").click()
    expect(cage.locator("#money-balanced")).to_contain_text("Balanced to the unit: 8 lines")
    expect(cage.locator("#money-balanced")).to_contain_text("every prize paid")
    expect(cage.locator("#money-equation-line")).to_have_text(
        "In $660.00 − out $600.00 = held $60.00"
    )
    expect(cage.locator("#money-line-list tbody tr")).to_have_count(8)
    cage.get_by_role("link", name="Today's money").click()
    expect(cage.locator("#money-balanced")).to_contain_text("Balanced to the unit")
    expect(cage.locator("#money-day-tournaments")).to_contain_text(tournament.name)
    assert td_errors == [] and cage_errors == []
