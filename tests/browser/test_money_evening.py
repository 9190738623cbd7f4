"""A progressive-knockout evening's money in Chromium, from the first entry to the last bounty.

Thirty players register by a pasted list, each paying (cash, card, voucher) as they register;
the cashier takes twelve rebuys in the first level and eight add-ons in the second from the
money page; five players out early re-enter from the director's page and are drawn into the
open seats; the director closes registration and works the payouts out (six places). At the
bubble, seven left on two tables, hand-for-hand: the one table plays its hand, and at the other
the dealer's desk puts two players out on the same hand, who share 6th-7th (TDA RP-8-A; the
odd unit to the bigger stack, CR-TP.3); their heads go to the player who won the pot (half in
cash, half onto their own head: PKO). Three left agree an ICM deal on the director's deal page;
the cashier pays every prize from the payouts page (each slip checked as printed: the place,
the amount, the signature lines, who paid) and every bounty from the bounties page, and ends on
the reconciliation: "Balanced to the unit", every prize paid, the same on the day's page.

The ledger is then asserted to the unit (money in by method = held + paid out; the pool and the
bounties hold nothing), the chips bought against the price list (entries x stack + rebuys x
chips + add-ons x chips, and the winner holds them all), the cashier's page's JS heap flat from
the first payment to the last; the evening's figures are printed (shown with -s).

Set up outside the browser, as not the point here: the price list (the prices page has its own
tests), the seat draw, the clock's levels, the table breaks, and the hands that bring the field
down between the steps (played with the desk's services, so every head goes to a pot's winner).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_page_memory import Taps
from tests.browser.test_tournament_day import HEAP_BOUND, dealt_seats, fold_round, heap, seated
from tests.conftest import between_requests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ana Ruiz", "Bo Lind", "Cy Diaz", "Di Eng", "Ed Fox", "Flo Gray", "Gil Hart", "Hu Iles",
    "Ivy Jain", "Jon Kerr", "Kim Lowe", "Lu Mays", "Mo Nash", "Ned Orr", "Oz Pike", "Pam Quo",
    "Raj Roy", "Sal Sims", "Tad Toth", "Una Udo", "Val Vogt", "Wes Wu", "Xia Xu", "Yul Yee",
    "Zed Zorn", "Abe Ames", "Bea Bolt", "Cal Cobb", "Dot Dunn", "Eli Eads",
]  # fmt: skip
#: How the registrations were paid: a pasted list each.
PASTES = ((NAMES[:18], "Cash"), (NAMES[18:26], "Card"), (NAMES[26:], "Voucher"))
METHODS = ("Cash", "Card", "Voucher")
#: The bubble: six places paid, seven players left on two tables.
PLACES = 6


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


def knock_out(tournament: Any, number: int, players: int, director: Any) -> None:
    """``players`` put out at the tournament's table ``number`` with the desk's services: in
    each hand the shortest stacks dealt in move all in and the biggest stack calls and wins
    (it covers each of them), so every head goes to that pot's winner."""
    from tests.tournaments.test_table_hands import chips, play, room, settle
    from tournaments import table_hands

    left = players
    for _ in range(4):
        with between_requests():
            stacks = chips(tournament, number)
            hand = table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
            dealt = {seat: stacks[seat] for seat in dealt_seats(hand)}
            winner = max(dealt, key=lambda seat: dealt[seat])
            short = sorted((s for s in dealt if s != winner), key=lambda s: dealt[s])[:left]
            hand = play(hand, director, {winner: "call", **dict.fromkeys(short, "all_in")})
            settle(hand, director, [[winner], *([seat] for seat in short)])
            left -= sum(1 for seat in short if seat not in chips(tournament, number))
        if not left:
            return
    raise AssertionError(f"{left} of {players} still in at table {number} after four hands")


def down_to(tournament: Any, players: int, director: Any) -> None:
    """The field brought down to ``players`` between the steps: a table broken (the highest
    number first, TDA 11-C) once the others' seats hold its players, else a hand at the fullest
    table putting out up to three, never leaving it more than one short of the next fullest
    (the tables stay balanced: seven left are four and three)."""
    from tournaments.draw_services import break_table

    while True:
        now = {number: count for number, count in seated(tournament).items() if count}
        left = sum(now.values())
        if left <= players:
            assert left == players, (left, players)
            return
        if len(now) > 2 and left <= tournament.seats_per_table * (len(now) - 1):
            with between_requests():
                table = tournament.tables.get(number=max(now))
                break_table(table=table, by=director)
            continue
        fullest = max(now, key=lambda number: (now[number], -number))
        runner_up = max((count for number, count in now.items() if number != fullest), default=0)
        out = max(1, min(3, now[fullest] - runner_up + 1, left - players))
        knock_out(tournament, fullest, out, director)


def shot(page: Page, name: str) -> None:
    """``EVENING_SCREENSHOTS=<dir>`` keeps a screenshot of each step's page there."""
    if folder := os.environ.get("EVENING_SCREENSHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def bounty_row(page: Page, entrant: Any) -> Any:
    """The entrant's row of the bounties page."""
    header = page.get_by_role("rowheader", name=f"{entrant.name} #{entrant.number}", exact=True)
    return page.locator("#bounties tbody tr").filter(has=header)


def money_text(amount: int) -> str:
    """Dollars as the pages write them: $1,234.56, -$56.50."""
    sign, cents = ("-" if amount < 0 else ""), abs(amount)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def test_a_pko_evening_is_taken_paid_and_balances_to_the_unit(
    live_server: Any, browser: Any, director: Any, cashier: Any
) -> None:
    from cardroom.tables.models import Hand
    from tests.tournaments.factories import make_tournament
    from tests.tournaments.test_table_hands import at, chips
    from tournaments import chip_counts
    from tournaments.clock.services import advance_level, start_clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import EntrantStatus, Tournament
    from tournaments.money import bounties, ledger, payouts
    from tournaments.money.models import BountyKind, Deal, MoneyMove, MoveKind, Prices

    tournament = make_tournament(
        by=director, tables=4, seats_per_table=9, final_table_size=6, name="Friday PKO"
    )
    Prices.objects.create(
        tournament=tournament, entry_prize=5_000, entry_fee=800, entry_staff=200,
        entry_bounty=4_000, bounty_kind=BountyKind.PROGRESSIVE, reentry_limit=1,
        reentry_last_level=2,
        rebuy_prize=4_500, rebuy_fee=500, rebuy_chips=20_000, rebuy_limit=1, rebuy_last_level=2,
        addon_prize=4_000, addon_fee=500, addon_chips=30_000, addon_limit=1, addon_first_level=2,
        addon_last_level=2, places_fixed=PLACES, rounding=100,
    )  # fmt: skip
    base = live_server.url
    detail_url = base + reverse("tournaments:detail", args=[tournament.pk])
    money_url = base + reverse("tournaments:money", args=[tournament.pk])
    payouts_url = base + reverse("tournaments:payouts", args=[tournament.pk])
    bounties_url = base + reverse("tournaments:bounties", args=[tournament.pk])

    # The director registers the field by pasting three lists, each paid one way.
    td, td_errors = log_in(browser, base, director.username)
    td.goto(detail_url)
    for names, method in PASTES:
        td.get_by_label("Names", exact=True).fill("\n".join(names))
        td.get_by_label("Paid with").select_option(label=method)
        td.get_by_role("button", name="Register").click()
        results = td.locator("#registration-results")
        expect(results).to_contain_text(f"{names[-1]} registered (#{NAMES.index(names[-1]) + 1})")
        expect(results.locator(".message.success")).to_have_count(len(names))
    with between_requests():
        draw_initial_seating(tournament=tournament, by=director)
        start_clock(tournament=tournament, by=director)

    # Level 1: the cashier takes twelve rebuys from the money page (the first found by name),
    # each method in turn; every flash says the price in dollars and the chips.
    cage, cage_errors = log_in(browser, base, cashier.username)
    cage.goto(money_url)
    cdp = cage.context.new_cdp_session(cage)
    cdp.send("Performance.enable")
    heap_at_start = heap(cdp)
    cashier_flash = cage.locator("#cashier .message.success")

    def take(number: int, name: str, method: str, kind: str, price: str, chips: str) -> None:
        row = cage.locator(f"#player-{number}")
        row.get_by_label("Paid with").select_option(label=method)
        row.get_by_role("button", name=kind, exact=True).click()
        expect(cashier_flash).to_have_text(
            f"{kind} for {name} #{number} taken: {price} {method.lower()}, {chips} chips."
        )

    cage.get_by_role("searchbox").fill(NAMES[0])
    cage.get_by_role("button", name="Find").click()
    expect(cage.locator('tr[id^="player-"]')).to_have_count(1)
    for n in range(1, 13):
        take(n, NAMES[n - 1], METHODS[(n - 1) % 3], "Rebuy", "$50.00", "20,000")
    expect(cage.locator("#player-1")).to_contain_text("1 of 1")

    # Five players out early (the desk's services), each re-entering from the director's
    # page, paid as they re-enter; the director draws them into the open seats.
    knock_out(tournament, 1, 3, director)
    knock_out(tournament, 2, 2, director)
    out_early = list(tournament.entrants.filter(status=EntrantStatus.ELIMINATED).order_by("id"))
    assert len(out_early) == 5
    td.reload()
    for k, gone in enumerate(out_early):
        method = ("Cash", "Card")[k % 2]
        td.get_by_label("Re-entry of").select_option(label=str(gone))
        td.get_by_label("Paid with").select_option(label=method)
        td.get_by_role("button", name="Register").click()
        expect(td.locator("#registration-results")).to_contain_text(
            f"{gone.name} registered (#{31 + k}): a re-entry."
        )
    td.reload()
    td.get_by_role("button", name="Draw 5 late entries").click()
    td.get_by_role("button", name="Deal the draw").click()
    expect(td.locator("#dealt-cards tbody tr")).to_have_count(5)

    # Level 2: eight add-ons, cash and card in turn, to players still in.
    with between_requests():
        advance_level(tournament=tournament, by=director)
    cage.reload()
    live = tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("number")[:8]
    for k, entrant in enumerate(live):
        take(entrant.number, entrant.name, ("Cash", "Card")[k % 2], "Add-on", "$45.00", "30,000")
    shot(cage, "cashier-money")

    # Level 3: no more entries. The director closes registration and works the payouts out:
    # the pool is 35 x $50 + 12 x $45 + 8 x $40, six places paid.
    with between_requests():
        advance_level(tournament=tournament, by=director)
    td.goto(detail_url)
    td.get_by_text("Close registration…").click()
    td.get_by_role("button", name="Close registration now").click()
    expect(td.locator(".messages")).to_contain_text("Registration and re-entry are closed")
    td.goto(payouts_url)
    expect(td.get_by_role("heading", name="Prize pool: $2,610.00")).to_be_visible()
    pool = td.locator("#pool dd")
    for k, figure in enumerate(("$1,500.00", "$250.00", "$540.00", "$320.00")):
        expect(pool.nth(k)).to_have_text(figure)  # entries, re-entries, rebuys, add-ons
    expect(td.locator("#pool")).to_contain_text("Places paid, of 35 entries (re-entries included)")
    td.get_by_role("button", name="Work them out from the template or curve").click()
    expect(td.get_by_role("heading", name="Payouts, version 1")).to_be_visible()
    expect(td.locator("#places-paid")).to_have_text(str(PLACES))
    table = payouts.current_table(tournament)
    assert table is not None and sum(table.prizes) == 261_000
    for place, prize in enumerate(table.prizes, start=1):
        expect(td.locator(f"#payout-place-{place} td.num")).to_have_text(money_text(prize))
    shot(td, "payouts-worked-out")

    # Down to seven on two tables: one off the money, hand-for-hand begins by itself.
    down_to(tournament, PLACES + 1, director)
    now = {number: count for number, count in seated(tournament).items() if count}
    assert sorted(now.values()) == [3, 4], now
    bubble = max(now, key=lambda number: now[number])
    other = min(now, key=lambda number: now[number])
    td.goto(detail_url)
    expect(td.locator("#clock-panel")).to_contain_text("Hand-for-hand since")
    round_line = td.locator("#hand-for-hand-round")
    expect(round_line).to_contain_text("Hand 1: 0 of 2 tables have played")
    fold_round(tournament, other, director)
    td.reload()
    expect(round_line).to_contain_text("Hand 1: 1 of 2 tables have played")
    shot(td, "tournament-hand-for-hand")

    # The bubble hand at the dealer's desk: the biggest stack calls, the two shortest move all
    # in and lose; both are out on hand-for-hand hand 1.
    with between_requests():
        stacks = chips(tournament, bubble)
        room_number = tournament.tables.get(number=bubble).table.number
        before = bounties.heads(tournament)
    desk = td.context.new_page()
    desk.goto(f"{base}/tables/{room_number}/desk/")
    taps = Taps(desk)
    taps.key("d")
    expect(desk.locator(".hand-facts")).to_be_visible()
    with between_requests():
        hand = Hand.objects.filter(table__number=room_number).order_by("-id").first()
        assert hand is not None
        dealt = {seat: stacks[seat] for seat in dealt_seats(hand)}
        assert len(dealt) >= 3, f"only seats {sorted(dealt)} dealt in at the bubble table"
        winner_seat = max(dealt, key=lambda seat: dealt[seat])
        # The bigger stack at the start of the hand first (a tie: the higher seat, CR-TP.3).
        loser_seats = sorted((s for s in dealt if s != winner_seat), key=lambda s: (dealt[s], s))[
            :2
        ][::-1]
        winner = at(tournament, winner_seat, bubble)
        losers = [at(tournament, seat, bubble) for seat in loser_seats]
    while desk.locator(".to-act-line").count():
        found = re.search(r"Seat (\d+) to act", desk.locator(".to-act-line").inner_text())
        assert found is not None
        seat = int(found.group(1))
        taps.key("c" if seat == winner_seat else "a" if seat in loser_seats else "f")
    # The winner's hand is the best: tapped in every pot, then pushed.
    for pot in desk.locator("#showdown fieldset.pot-taps").all():
        pot.locator(f'input[value="{winner_seat}"]').check()
    taps.key("p")
    expect(desk.locator("#awarded")).to_be_visible()
    for loser in losers:
        expect(desk.locator(".award-news")).to_contain_text(
            f"{loser.name} is out in 6th–7th place, shared (TDA-RP-8-A)."
        )
    shot(desk, "desk-bubble-awarded")
    desk.set_viewport_size({"width": 1024, "height": 768})
    shot(desk, "desk-bubble-awarded-1024")
    desk.close()  # its poll would share the test thread's connection on SQLite from here on
    with between_requests():
        out = tournament.eliminations.standing().filter(hand=hand)
        assert sorted(out.values_list("entrant_id", "hand_for_hand_hand")) == sorted(
            (loser.pk, 1) for loser in losers
        )

    # Their heads went to the pot's winner (the desk's award): half of each in cash, half
    # onto the winner's own head (the odd unit with the cash), each a ledger line of the hand.
    heads = [before.head[loser.pk] for loser in losers]
    cash = [head - head // 2 for head in heads]
    with between_requests():
        lines = MoneyMove.objects.filter(kind=MoveKind.BOUNTY_WON, hand=hand)
        assert sorted(lines.values_list("entrant_id", "from_entrant_id", "owed")) == sorted(
            (winner.pk, loser.pk, paid) for loser, paid in zip(losers, cash, strict=True)
        )
        after = bounties.heads(tournament)
    assert after.head[winner.pk] == before.head[winner.pk] + sum(heads) - sum(cash)
    assert after.won[winner.pk] == before.won.get(winner.pk, 0) + sum(cash)
    cage.goto(bounties_url)
    expect(cage.locator("#bounty-list")).to_have_text(
        "Progressive knockout: half in cash, half onto their own head: $40.00 on each entry"
    )
    row = bounty_row(cage, winner)
    expect(row.locator("td").nth(0)).to_have_text(money_text(after.head[winner.pk]))
    expect(row.locator("td").nth(1)).to_have_text(money_text(after.won[winner.pk]))
    for loser in losers:
        # No head left: listed only for bounties they won before (and owed or paid).
        assert after.head.get(loser.pk, 0) == 0
        if after.won.get(loser.pk):
            expect(bounty_row(cage, loser).locator("td").nth(0)).to_have_text("$0.00")
        else:
            expect(bounty_row(cage, loser)).to_have_count(0)
    shot(cage, "bounties-after-the-bubble")

    # The bubble burst: the table locked itself, and the two out on the one hand share the
    # places they cover (6th's prize, 7th's nothing), the odd unit to the bigger stack.
    td.goto(payouts_url)
    expect(td.get_by_role("heading", name="Payouts, version 2 · locked")).to_be_visible()
    expect(td.locator("#locked-note")).to_contain_text("The bubble burst")
    sixth = table.prizes[PLACES - 1]
    half = sixth // 2 // 100 * 100
    shared_row = td.locator(f"#payout-place-{PLACES}")
    for loser, share in zip(losers, (sixth - half, half), strict=True):
        expect(shared_row).to_contain_text(
            f"{loser.name} #{loser.number}: {money_text(share)} (6th–7th, shared)"
        )
    shot(td, "payouts-bubble-locked")
    td.goto(detail_url)
    expect(td.locator("#clock-panel")).not_to_contain_text("Hand-for-hand since")

    # Five left: the final table drawn; down to three, who agree an ICM deal on the director's
    # deal page, quoted first from the payout table's three top prizes.
    td.get_by_role("button", name="Final table redraw").click()
    td.get_by_role("button", name="Deal the draw").click()
    expect(td.locator("#dealt-cards tbody tr")).to_have_count(PLACES - 1)
    final = next(number for number, count in seated(tournament).items() if count)
    knock_out(tournament, final, 2, director)
    td.goto(detail_url)
    expect(td.locator("#chip-check")).to_contain_text(
        "expected 1,180,000 ✓ (35 entries × 20,000; 12 rebuys × 20,000; 8 add-ons × 30,000)"
    )
    td.goto(base + reverse("tournaments:deal", args=[tournament.pk]))
    td.get_by_role("button", name="Quote").click()
    top3 = sum(table.prizes[:3])
    expect(td.locator("#deal-quotes")).to_contain_text(f"The quotes: {money_text(top3)} shared")
    shot(td, "deal-quotes")
    quoted = [
        td.locator("#deal-table tbody tr").nth(k).locator("td").nth(1).inner_text()
        for k in range(3)
    ]
    form = td.locator("#deal-record-form")
    form.get_by_label("Agreed method").select_option(label="ICM")
    for box in form.get_by_role("checkbox").all():
        box.check()
    form.get_by_role("button", name="Record this deal").click()
    expect(td.get_by_text("Director: td")).to_be_visible()
    shot(td, "deal-sheet")
    with between_requests():
        deal = Deal.objects.get(tournament=tournament)
    assert deal.method == "icm" and sum(p["share"] for p in deal.players) == top3
    assert [money_text(p["share"]) for p in deal.players] == quoted, quoted
    for player in deal.players:
        expect(td.locator("body")).to_contain_text(money_text(player["share"]))

    # Played out after the deal: the winner takes their own head too (PKO).
    knock_out(tournament, final, 2, director)
    with between_requests():
        tournament = Tournament.objects.get(pk=tournament.pk)
        owed = payouts.prizes_owed(tournament)
    assert tournament.status == "complete"
    assert len(owed) == PLACES + 1 and sum(o.amount for o in owed) == 261_000

    # The cashier pays every prize from the payouts page, the top three by card, the rest in
    # cash: each answered with the slip, checked as printed.
    cage.goto(payouts_url)
    expect(cage.locator("#locked-note")).to_contain_text("Locked")
    expect(cage.locator("#deal-agreed")).to_contain_text("(ICM)")
    for o in owed:
        method = "Card" if o.place <= 3 else "Cash"
        prize, name = money_text(o.amount), o.entrant.name
        cage.locator(f"#pay-method-{o.entrant.number}").select_option(label=method)
        cage.get_by_role("button", name=f"Pay {prize} to {name}", exact=True).click()
        expect(cage.locator("#slip-amount")).to_have_text(prize)
        cage.emulate_media(media="print")
        expect(cage.locator("#slip-place")).to_have_text(o.label)
        expect(cage.locator("#slip-amount")).to_be_visible()
        expect(cage.locator("#slip-paid")).to_contain_text(f"{method}, ")
        expect(cage.locator("#slip-paid")).to_contain_text(" by cashier")
        expect(cage.get_by_text("Received by the player: ")).to_contain_text(f"({name})")
        expect(cage.get_by_text("Paid by the cashier: ")).to_contain_text("(cashier)")
        expect(cage.locator(".print-actions")).to_be_hidden()
        shot(cage, f"slip-{o.entrant.number}-print")
        cage.emulate_media(media="screen")
        cage.get_by_role("link", name="Back to the payouts").click()
        expect(cage.locator(f"#payout-place-{o.place}")).to_contain_text("by cashier")
    expect(cage.locator("#pool-left")).to_have_text("$0.00")

    # Then every bounty owed, from the bounties page, in cash.
    cage.goto(bounties_url)
    pay = cage.locator("#bounties").get_by_role("button", name=re.compile(r"^Pay "))
    with between_requests():
        bounty_owed = sum(after_all for after_all in bounties.heads(tournament).owed.values())
    assert bounty_owed > 0
    for _ in range(pay.count()):
        label = pay.first.get_attribute("aria-label") or ""
        pay.first.click()
        expect(cage.locator(".messages")).to_contain_text(
            label.replace("Pay ", "Paid ", 1) + " in bounties."
        )
    expect(pay).to_have_count(0)
    shot(cage, "bounties-paid")

    # The night's money, reconciled: balanced to the unit, every prize paid.
    cage.get_by_role("link", name=f"Back to {tournament.name}").click()
    cage.goto(base + reverse("tournaments:reconciliation", args=[tournament.pk]))
    with between_requests():
        money = ledger.reconcile(tournament)
        sums = money.totals
    balanced = cage.locator("#money-balanced")
    expect(balanced).to_contain_text(f"Balanced to the unit: {sums.lines} lines")
    expect(balanced).to_contain_text("every prize paid")
    expect(cage.locator("#money-equation-line")).to_have_text(
        f"In $4,460.00 − out {money_text(sums.paid_out)} = held $450.00"
    )
    for line in money.drawer():
        row = cage.locator("#money-drawer tbody tr").filter(
            has=cage.get_by_role("rowheader", name=line.label, exact=True)
        )
        expect(row.locator("td")).to_have_text(
            [money_text(line.taken), money_text(line.paid), money_text(line.net)]
        )
    shot(cage, "reconciliation")
    cage.get_by_role("link", name="Today's money").click()
    expect(cage.locator("#money-balanced")).to_contain_text("Balanced to the unit")
    expect(cage.locator("#money-day-tournaments")).to_contain_text(tournament.name)
    assert td_errors == [] and cage_errors == []

    # The ledger, to the unit: money in = held + paid out; every prize and bounty paid, so the
    # pool and the bounties hold nothing and nothing is owed: the fees are what is held. The
    # chips bought are those the price list gave, and the winner holds them all.
    assert money.balanced, money.differences
    assert sums.paid_in == 446_000 and sums.paid_in == sums.held + sums.paid_out
    assert (sums.pool, sums.bounty, sums.owed) == (0, 0, 0)
    assert (sums.house, sums.staff) == (35 * 800 + 20 * 500, 35 * 200)
    paid_in = {line.label: line.taken for line in money.drawer()}
    assert paid_in == {"Cash": 248_000, "Card": 138_000, "Voucher": 60_000, "The room": 0}
    with between_requests():
        chips_bought = chip_counts.reconcile(tournament)
        entries = tournament.entrants.count()
        reentries = money.by_kind(MoveKind.REENTRY).lines
        rebuys = money.by_kind(MoveKind.REBUY).lines
        addons = money.by_kind(MoveKind.ADDON).lines
    assert (entries, reentries, rebuys, addons) == (35, 5, 12, 8)
    assert chips_bought.expected == (
        entries * tournament.starting_stack + rebuys * 20_000 + addons * 30_000
    )
    assert chips_bought.balanced and chips_bought.in_play == chips_bought.expected

    # The cashier's page, open through the evening: its JS heap stayed flat.
    cage.goto(money_url)
    heap_at_end = heap(cdp)
    assert heap_at_end <= heap_at_start + HEAP_BOUND, (heap_at_start, heap_at_end)

    # The evening's figures, for the closing note (shown with -s).
    fmt = money.money
    print(
        f"\n[evening] entries {entries - reentries} + re-entries {reentries}, rebuys {rebuys},"
        f" add-ons {addons}; PKO, {PLACES} places paid"
    )
    for line in money.drawer():
        print(f"[evening] {line.label}: in {fmt(line.taken)}, out {fmt(line.paid)}")
    print(
        f"[evening] in {fmt(sums.paid_in)}; held {fmt(sums.held)} (pool {fmt(sums.pool)},"
        f" house {fmt(sums.house)}, staff {fmt(sums.staff)}, bounty {fmt(sums.bounty)},"
        f" owed {fmt(sums.owed)}); out {fmt(sums.paid_out)} (prizes"
        f" {fmt(money.by_kind(MoveKind.PAYOUT).player_out)}, bounties"
        f" {fmt(money.by_kind(MoveKind.BOUNTY_PAID).player_out)});"
        f" difference {sums.paid_in - sums.paid_out - sums.held}"
    )
    for o in owed:
        print(f"[evening] {o.label}: {o.entrant.name} {fmt(o.amount)}{' (deal)' if o.deal else ''}")
    print(
        f"[evening] bubble: {losers[0].name} ({dealt[loser_seats[0]]:,} chips at the deal) and"
        f" {losers[1].name} ({dealt[loser_seats[1]]:,}) out on hand-for-hand hand 1, sharing"
        f" 6th's {fmt(sixth)}; their heads {fmt(heads[0])} and {fmt(heads[1])} to {winner.name}"
        f" ({fmt(sum(cash))} in cash, {fmt(sum(heads) - sum(cash))} onto their head)"
    )
    print(
        f"[evening] chips bought {chips_bought.expected:,}, in play {chips_bought.in_play:,};"
        f" JS heap {heap_at_start:,} -> {heap_at_end:,}"
    )
