"""A tournament's money through an evening, in Chromium, from the first entry to the last prize.

The director registers five players, each paying (cash, card, voucher) at registration; the
cashier takes two rebuys and two add-ons from the money page; the director works the payouts out on
the payouts page; the field plays down to two (the bubble locks the table), who agree a deal the
director records; the cashier pays both from the payouts page (each answered with the payout
slip) and ends on the reconciliation page: "Balanced to the unit", every prize paid, and the same
on the day's page. Each payout slip is checked as printed (print media: the amount and the
player's signature line). Then the ledger is asserted to the unit (money in = held in the pool,
fees, bounties and owed + paid out; the pool holds nothing), the chips bought against the price
list (entries x stack + rebuys x chips + add-ons x chips), the cashier's page's JS heap flat
from the first payment to the last, and the evening's figures are printed (shown with -s).

Set up outside the browser: the price list (the director's prices page has its own tests) and
the seat draw and busts (the director's services, driven through their own pages elsewhere).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_tournament_day import HEAP_BOUND, heap
from tests.tournaments.factories import bust

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


def test_an_evenings_money_is_taken_paid_and_balances_to_the_unit(
    live_server: Any, browser: Any, director: Any, cashier: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import Tournament
    from tournaments.money import payouts
    from tournaments.money.models import Deal, Prices

    tournament = make_tournament(by=director, tables=1, name="Evening Bounty-free")
    Prices.objects.create(
        tournament=tournament, entry_prize=10_000, entry_fee=1_000, entry_staff=500,
        rebuy_prize=10_000, rebuy_chips=20_000, rebuy_limit=1, rebuy_last_level=2,
        addon_prize=5_000, addon_chips=10_000, addon_limit=1, addon_first_level=1,
        addon_last_level=2, places_fixed=2,
    )  # fmt: skip
    base = live_server.url
    detail_url = base + reverse("tournaments:detail", args=[tournament.pk])
    payouts_url = base + reverse("tournaments:payouts", args=[tournament.pk])

    # The director registers the field, each paying at registration.
    td, td_errors = log_in(browser, base, director.username)
    td.goto(detail_url)
    for names, method in (("Ana Ruiz\nBo Lind\nCy Diaz", "Cash"), ("Di Eng", "Card"),
                          ("Ed Fox", "Voucher")):  # fmt: skip
        td.get_by_label("Names", exact=True).fill(names)
        td.get_by_label("Paid with").select_option(label=method)
        td.get_by_role("button", name="Register").click()
        last = names.splitlines()[-1]
        expect(td.locator("#registration-results")).to_contain_text(f"{last} registered")
    draw_initial_seating(tournament=Tournament.objects.get(pk=tournament.pk), by=director)

    # The cashier takes two rebuys and two add-ons from the money page, each method once.
    cage, cage_errors = log_in(browser, base, cashier.username)
    money_url = base + reverse("tournaments:money", args=[tournament.pk])
    cage.goto(money_url)
    cdp = cage.context.new_cdp_session(cage)
    cdp.send("Performance.enable")
    heap_at_start = heap(cdp)
    for name, number, method, kind in (
        ("Ana Ruiz", 1, "Cash", "Rebuy"), ("Bo Lind", 2, "Card", "Add-on"),
        ("Cy Diaz", 3, "Voucher", "Rebuy"), ("Di Eng", 4, "Cash", "Add-on"),
    ):  # fmt: skip
        cage.get_by_role("searchbox").fill(name)
        cage.get_by_role("button", name="Find").click()
        # The list is swapped for the one player found before a method is chosen in it.
        expect(cage.locator('tr[id^="player-"]')).to_have_count(1)
        row = cage.locator(f"#player-{number}")
        row.get_by_label("Paid with").select_option(label=method)
        row.get_by_role("button", name=kind, exact=True).click()
        expect(cage.locator("#cashier")).to_contain_text(f"for {name} #{number} taken: ")
        expect(cage.locator("#cashier")).to_contain_text(f" {method.lower()}, ")

    # The director works the payouts out from the price list: two places paid.
    td.goto(payouts_url)
    expect(td.get_by_role("heading", name="Prize pool: $800.00")).to_be_visible()
    td.get_by_role("button", name="Work them out from the template or curve").click()
    expect(td.get_by_role("heading", name="Payouts, version 1")).to_be_visible()

    # Down to two: the bubble locks the table; they agree a deal, which the director records.
    from tournaments.models import EntrantStatus

    field = list(tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("number"))
    for out in field[:3]:
        bust(entrant=out, by=director)
    td.goto(base + reverse("tournaments:deal", args=[tournament.pk]))
    form = td.locator("#deal-record-form")
    form.get_by_label("Agreed method").select_option(value="chip_chop")
    for box in form.get_by_role("checkbox").all():
        box.check()
    form.get_by_role("button", name="Record this deal").click()
    expect(td.get_by_text("Director: td")).to_be_visible()
    assert Deal.objects.filter(tournament=tournament).exists()
    bust(entrant=field[3], by=director)
    first, second = payouts.prizes_owed(tournament)
    assert first.deal is not None and first.amount + second.amount == 80_000

    # The cashier pays both from the payouts page, first in cash, second by card: each
    # payment answers with the player's payout slip, the prize in figures.
    cage.goto(payouts_url)
    expect(cage.locator("#locked-note")).to_contain_text("Locked")
    for owed, method in ((first, "Cash"), (second, "Card")):
        row = cage.locator(f"#payout-place-{owed.place}")
        row.get_by_label("Paid by").select_option(label=method)
        prize = owed.currency.format(owed.amount)
        row.get_by_role("button", name=f"Pay {prize}").click()
        expect(cage.locator("#slip-amount")).to_have_text(prize)
        # As printed: the amount and the player's signature line are on the paper.
        cage.emulate_media(media="print")
        expect(cage.locator("#slip-amount")).to_be_visible()
        expect(cage.get_by_text("Received by the player:")).to_be_visible()
        cage.emulate_media(media="screen")
        cage.get_by_role("link", name="Back to the payouts").click()
        expect(cage.locator(f"#payout-place-{owed.place}")).to_contain_text("slip")

    # The night's money, reconciled: balanced to the unit, every prize paid.
    cage.get_by_role("link", name="The money reconciled").click()
    expect(cage.locator("#money-balanced")).to_contain_text("Balanced to the unit: 12 lines")
    expect(cage.locator("#money-balanced")).to_contain_text("every prize paid")
    expect(cage.locator("#money-equation-line")).to_have_text(
        "In $875.00 − out $800.00 = held $75.00"
    )
    expect(cage.locator("#money-line-list tbody tr")).to_have_count(12)
    cage.get_by_role("link", name="Today's money").click()
    expect(cage.locator("#money-balanced")).to_contain_text("Balanced to the unit")
    expect(cage.locator("#money-day-tournaments")).to_contain_text(tournament.name)
    assert td_errors == [] and cage_errors == []

    # The ledger, to the unit: money in = held (pool + fees + bounties + owed) + paid out;
    # every prize paid, so the pool holds nothing; the chips bought are those the price list
    # gave (entries x stack + rebuys x chips + add-ons x chips).
    from tournaments import chip_counts
    from tournaments.money import ledger
    from tournaments.money.models import MoveKind

    tournament.refresh_from_db()
    money = ledger.reconcile(tournament)
    sums = money.totals
    assert money.balanced, money.differences
    assert sums.paid_in == sums.held + sums.paid_out
    assert sums.pool == 0
    prices = Prices.objects.get(tournament=tournament)
    rebuys = money.by_kind(MoveKind.REBUY).lines
    addons = money.by_kind(MoveKind.ADDON).lines
    entries = tournament.entrants.count()
    chips = chip_counts.reconcile(tournament)
    assert chips.expected == (
        entries * tournament.starting_stack
        + rebuys * prices.rebuy_chips
        + addons * prices.addon_chips
    )

    # The cashier's page, open through the evening: its JS heap stayed flat.
    cage.goto(money_url)
    heap_at_end = heap(cdp)
    assert heap_at_end <= heap_at_start + HEAP_BOUND, (heap_at_start, heap_at_end)

    # The evening's figures, for the closing note (shown with -s).
    fmt = money.money
    print(f"\n[evening] entries {entries}, rebuys {rebuys}, add-ons {addons}")
    for line in money.drawer():
        print(f"[evening] {line.label}: in {fmt(line.taken)}, out {fmt(line.paid)}")
    print(
        f"[evening] in {fmt(sums.paid_in)}; pool held {fmt(sums.pool)}, house {fmt(sums.house)},"
        f" staff {fmt(sums.staff)}, bounty {fmt(sums.bounty)}, owed {fmt(sums.owed)};"
        f" prizes paid {fmt(money.by_kind(MoveKind.PAYOUT).player_out)},"
        f" bounties paid {fmt(money.by_kind(MoveKind.BOUNTY_PAID).player_out)};"
        f" difference {sums.paid_in - sums.paid_out - sums.held}"
    )
    print(
        f"[evening] chips bought {chips.expected:,}; JS heap {heap_at_start:,} -> {heap_at_end:,}"
    )
