"""An evening at two tables in Chromium: five consecutive hands at a cash table
(a player busts and rebuys, a player sits out and comes back owing a blind) and five at a
tournament table across a level change, with an elimination at the desk and a balancing move
in between. After every hand the test reads what the dealer sees: each seat's stack after the
award, and the next hand's button and blinds; then the floor card.

Nobody types a stack: the dealer taps Deal, the actions, the winners and Push. The clicks and
seconds of two typical hands (three players to showdown; everyone folds to the big blind) are
counted and printed (run with ``-s`` to read them)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Desk:
    """The desk page, with a count of the dealer's clicks."""

    def __init__(self, page: Any, base: str, number: int) -> None:
        self.page, self.url, self.clicks = page, f"{base}/tables/{number}/desk/", 0
        page.goto(self.url)

    def press(self, locator: Any) -> None:
        """One click that posts, then wait for the desk to be swapped in."""
        self.clicks += 1
        with self.page.expect_response(lambda r: r.request.method == "POST"):
            locator.click()
        busy = self.page.locator(".htmx-request, .htmx-swapping, .htmx-settling")
        expect(busy).to_have_count(0)

    def key(self, key: str) -> None:
        """A shortcut key (desk.js), then wait for the desk to be swapped in."""
        with self.page.expect_response(lambda r: r.request.method == "POST"):
            self.page.keyboard.press(key)
        expect(self.page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)

    def act(self, name: str | re.Pattern[str]) -> None:
        self.press(self.page.locator("#action-panel").get_by_role("button", name=name))

    def to_act(self) -> int:
        text = self.page.locator(".to-act-line").inner_text()
        found = re.search(r"Seat (\d+) to act", text)
        assert found is not None, text
        return int(found.group(1))

    def deal(self) -> None:
        self.press(self.page.locator("#deal-next"))
        expect(self.page.locator(".hand-facts")).to_be_visible()

    def check_down(self) -> None:
        """Call or check until the betting is over."""
        panel = self.page.locator("#action-panel")
        while self.page.locator(".to-act-line").count():
            check = panel.get_by_role("button", name="Check")
            self.press(
                check if check.count() else panel.get_by_role("button", name=re.compile("^Call"))
            )

    def tap(self, seat: int, pot: int = 0) -> None:
        self.clicks += 1
        self.page.locator(f'input[name="1-high-{pot}"][value="{seat}"]').check()

    def push(self) -> None:
        self.press(self.page.locator("#push"))
        expect(self.page.locator("#awarded")).to_be_visible()

    def awarded(self) -> dict[int, int]:
        rows = self.page.locator(".award-row")
        stacks = {}
        for i in range(rows.count()):
            row = rows.nth(i)
            seat = int(row.locator(".seat-no").inner_text())
            stacks[seat] = int(row.locator(".seat-stack").inner_text().replace(",", ""))
        return stacks

    def next_hand(self) -> tuple[int, int | None, int]:
        """The proposal's (button, small blind or None when dead, big blind)."""
        proposal = self.page.locator("#proposal")
        expect(proposal.get_by_role("button", name="Deal", exact=True)).to_be_visible()

        def seat_with(role: str) -> int | None:
            row = proposal.locator(".proposal-seat", has=self.page.get_by_text(role, exact=True))
            return int(row.locator(".seat-no").inner_text()) if row.count() else None

        button, small, big = seat_with("Button"), seat_with("Small blind"), seat_with("Big blind")
        if button is None:  # a dead button: on a seat where nobody is dealt in
            button = int(proposal.locator("#dead-button").get_attribute("data-seat"))
        assert big is not None
        return button, small, big


def seat_player(desk: Desk, seat: int, name: str, buy_in: int) -> None:
    row = desk.page.locator(f"#seat-row-{seat}")
    row.get_by_text("Seat a player").click()
    row.get_by_label("Player").fill(name)
    row.get_by_label("Buy-in").fill(str(buy_in))
    desk.press(row.get_by_role("button", name=f"Seat in {seat}"))
    expect(desk.page.locator(f"#seat-row-{seat} .seat-name")).to_have_text(name)


def change(desk: Desk, seat: int, button: str, amount: int | None = None) -> None:
    row = desk.page.locator(f"#seat-row-{seat}")
    row.get_by_text("Change").click()
    if amount is not None:
        row.locator('input[name="amount"]').fill(str(amount))
    desk.press(row.get_by_role("button", name=button, exact=True))


def test_an_evening_at_a_cash_table(login_page: Any, director: Any, live_server: Any) -> None:
    from cardroom.seats.models import SeatEvent
    from tests.factories import make_table

    make_table(number=5, seats=6, min_buy_in=40, max_buy_in=400)
    page = login_page("td")
    page.set_viewport_size({"width": 1366, "height": 900})
    desk = Desk(page, live_server.url, 5)
    expect(page.locator(".deal-form")).to_be_visible()  # no players yet: typed stacks
    seat_player(desk, 1, "Ana Ruiz", 200)
    seat_player(desk, 2, "Bo Chen", 200)
    seat_player(desk, 3, "Cy Diaz", 40)
    seat_player(desk, 4, "Dee Park", 200)
    expect(page.locator(".deal-form")).to_have_count(0)  # nobody types a stack now
    assert desk.next_hand() == (1, 2, 3)

    # Hand 1, the typical three-way hand to showdown: one folds, the others check it down.
    desk.clicks, started = 0, time.monotonic()
    desk.deal()
    desk.act("Fold")  # seat 4, first to act after the big blind
    desk.check_down()
    desk.tap(1)
    desk.push()
    showdown = (desk.clicks, time.monotonic() - started)
    assert desk.awarded() == {1: 204, 2: 198, 3: 38, 4: 200}
    assert desk.next_hand() == (2, 3, 4)  # the big blind moves one seat (CR-BB.1)

    # Hand 2, the typical fold to the big blind: one tap pushes the pot.
    desk.clicks, started = 0, time.monotonic()
    desk.deal()
    for _ in range(3):
        desk.act("Fold")
    expect(page.locator("#push")).to_have_text(re.compile("Push the pot to seat 4"))
    desk.push()
    folded = (desk.clicks, time.monotonic() - started)
    assert desk.awarded() == {1: 204, 2: 198, 3: 37, 4: 201}
    assert desk.next_hand() == (3, 4, 1)

    # Ana sits out: the big blind passes her seat to Bo's, so she owes a big and a small
    # blind (CR-BB.5).
    change(desk, 1, "Sit out")
    expect(page.locator("#seat-row-1")).to_contain_text("Sitting out")
    assert desk.next_hand() == (3, 4, 2)

    # Hand 3: Cy moves all in, Dee folds her small blind, Bo calls and wins: Cy is busted.
    desk.deal()
    assert desk.to_act() == 3
    desk.act("All-in")
    desk.act("Fold")
    desk.act("Call 35")
    desk.tap(2)
    desk.push()
    assert desk.awarded() == {2: 236, 3: 0, 4: 200}
    expect(page.locator("#seat-row-1")).to_contain_text("Owes big + small blinds")
    expect(page.locator("#seat-row-3")).to_contain_text("Busted: rebuy or leave")
    change(desk, 3, "Rebuy", 100)
    expect(page.locator("#seat-row-3 .seat-stack")).to_have_text("100")
    assert SeatEvent.objects.filter(seat=3, kind="rebuy").exists()
    assert desk.next_hand() == (4, 2, 3)

    # Hand 4: Dee folds, Bo raises from the small blind, Cy folds.
    desk.deal()
    desk.act("Fold")
    page.get_by_label("Raise to").fill("6")
    desk.act("Raise")
    desk.act("Fold")
    desk.push()
    assert desk.awarded() == {2: 238, 3: 98, 4: 200}

    # Ana comes back and posts what she owes: a big blind live, a small blind dead (CR-BB.3).
    change(desk, 1, "Back in")
    assert desk.next_hand() == (2, 3, 4)
    expect(page.locator("#next-seat-1")).to_contain_text("Posts 2 live + 1 dead")

    # Hand 5, at the keyboard: D deals, F folds three times, P pushes the pot to the big
    # blind, who wins the posts and the small blind.
    desk.key("d")
    for _ in range(3):
        desk.key("f")
    expect(page.locator("#push")).to_contain_text("Push the pot to seat 4")
    desk.key("p")
    expect(page.locator("#awarded")).to_be_visible()
    expect(page.locator("#deal-next")).to_be_focused()  # the next thing to press
    assert desk.awarded() == {1: 201, 2: 238, 3: 97, 4: 204}
    assert 201 + 238 + 97 + 204 == 200 + 200 + 40 + 200 + 100  # buy-ins and the rebuy
    assert desk.next_hand() == (3, 4, 1)
    expect(page.locator("#seat-row-1")).not_to_contain_text("Owes")

    # The floor card: four players seated at a six-seat table.
    page.goto(f"{live_server.url}/floor/")
    expect(page.locator("#card-5 .card-seats")).to_contain_text("4/6")

    print(f"\n[desk] three-way hand to showdown: {showdown[0]} clicks, {showdown[1]:.1f} s")
    print(f"[desk] everyone folds to the big blind: {folded[0]} clicks, {folded[1]:.1f} s")
    assert showdown[0] <= 16 and folded[0] <= 5


def occupied(tournament: Any, number: int) -> dict[int, int]:
    from tournaments.models import SeatAssignment

    return {
        a.seat: a.entrant.chips
        for a in SeatAssignment.objects.filter(
            tournament=tournament, table__number=number, ended_at__isnull=True
        ).select_related("entrant")
    }


class DeadButton:
    """CR-BB.1 (TDA 32's dead button), as the test reads it: the big blind moves to the next
    seat with a player after the last big blind; the small blind is the seat the big blind was
    on (dead when nobody sits there now); the button the seat the small blind was on. When the
    last small blind was dead, the button is the seat just before the small blind's (the
    engine's reading, rules/engine/rotation.py: the seats between are empty, so after the
    flop and for an odd chip it is the same as the dead small blind's seat)."""

    def __init__(self, button: int, small: int | None, big: int, *, seats: int) -> None:
        self.button, self.small, self.big, self.seats = button, small, big, seats

    def next(self, occupied: list[int]) -> tuple[int, int | None, int]:
        later = [s for s in sorted(occupied) if s > self.big] or sorted(occupied)
        # Before seat 1 the engine reads the highest seat it knows of (rotation._seat_before:
        # it is not told the table's size), not the table's last seat: with the seats above
        # it empty, the button then sits lower, with nobody dealt in between either way.
        known = [*occupied, self.button, self.big, self.small or 0]
        before = self.big - 1 if self.big > 1 else max(known)
        button = self.small if self.small is not None else before
        small = self.big if self.big in occupied else None
        self.button, self.small, self.big = button, small, later[0]
        return self.button, self.small, self.big


def test_an_evening_at_a_tournament_table(login_page: Any, director: Any, live_server: Any) -> None:
    from tests.tournaments.factories import bust, make_tournament
    from tournaments import balance_checks, eliminations
    from tournaments.clock import services as clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import Entrant, EntrantStatus, SeatAssignment

    tournament = make_tournament(by=director, tables=2, entrants=12, seats_per_table=6)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    room = {t.number: t.table.number for t in tournament.tables.all()}
    page = login_page("td")
    page.set_viewport_size({"width": 1024, "height": 768})
    desk = Desk(page, live_server.url, room[1])
    expect(page.locator("#seat-panel")).to_contain_text(tournament.name)
    expect(page.locator("#proposal")).to_contain_text("100/200")
    plan = desk.next_hand()
    rule = DeadButton(*plan, seats=6)

    # Hand 1: everyone folds to the big blind.
    desk.clicks, started = 0, time.monotonic()
    desk.deal()
    while page.locator(".to-act-line").count():
        desk.act("Fold")
    desk.push()
    folded = (desk.clicks, time.monotonic() - started)
    stacks = desk.awarded()
    assert stacks[plan[2]] == 20_100 and plan[1] is not None and stacks[plan[1]] == 19_900
    plan, expected = desk.next_hand(), rule.next(list(occupied(tournament, 1)))
    assert plan == expected

    # Hand 2: the first to act moves all in, the big blind calls and wins: the loser is out.
    desk.deal()
    first = desk.to_act()
    desk.act("All-in")
    # The seat panel shows what is behind now (nothing), and says the start-of-hand stack.
    expect(page.locator(f"#seat-row-{first} .seat-stack")).to_have_text("0")
    expect(page.locator(f"#seat-row-{first}")).to_contain_text("at the start of the hand")
    while page.locator(".to-act-line").count():
        if desk.to_act() == plan[2]:
            desk.act(re.compile("^Call"))
        else:
            desk.act("Fold")
    desk.tap(plan[2])
    desk.push()
    loser = Entrant.objects.get(
        name=desk.page.locator(f"#award-seat-{first} .seat-who").inner_text()
    )
    assert (loser.status, loser.chips) == (EntrantStatus.ELIMINATED, 0)
    assert loser.place is not None
    seats = list(occupied(tournament, 1))
    assert first not in seats and len(seats) == 5
    # Whole names: "Player 1" is gone while "Player 12" may still be seated here.
    names = page.locator("#seat-panel .seat-name")
    expect(names.filter(has_text=re.compile(rf"^{re.escape(loser.name)}$"))).to_have_count(0)
    still = SeatAssignment.objects.filter(
        tournament=tournament, table__number=1, ended_at__isnull=True
    ).order_by("seat")
    expect(names).to_have_text([a.entrant.name for a in still.select_related("entrant")])

    # Between hands: the clock reaches level 2, three players are out at the other table and
    # the balancing check moves one player from this table there (chips with them).
    clock.advance_level(tournament=tournament, by=director)
    for seat in sorted(occupied(tournament, 2))[:3]:
        bust(
            entrant=SeatAssignment.objects.get(
                tournament=tournament, table__number=2, seat=seat, ended_at__isnull=True
            ).entrant,
            by=director,
        )
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    assert check.moves
    before = occupied(tournament, 1)
    balance_checks.apply_balance(check=check, by=director)
    moved = set(before) - set(occupied(tournament, 1))
    assert len(moved) == 1
    page.reload()
    seats = list(occupied(tournament, 1))
    expect(page.locator("#proposal")).to_contain_text("200/400")
    plan, expected = desk.next_hand(), rule.next(seats)
    assert plan == expected
    expect(page.locator(".proposal-seat")).to_have_count(len(seats))

    # Hands 3 to 5: folds to the big blind at the new level; the dead button moves on.
    for _ in range(3):
        chips = occupied(tournament, 1)
        desk.deal()
        while page.locator(".to-act-line").count():
            desk.act("Fold")
        desk.push()
        stacks = desk.awarded()
        assert stacks[plan[2]] == chips[plan[2]] + (200 if plan[1] is not None else 0)
        assert sum(stacks.values()) == sum(chips.values())
        plan, expected = desk.next_hand(), rule.next(seats)
        assert plan == expected

    # The floor card: the tournament at the table, four players seated.
    page.goto(f"{live_server.url}/floor/")
    card = page.locator(f"#card-{room[1]}")
    expect(card).to_contain_text(tournament.name)
    expect(card.locator(".card-seats")).to_contain_text(f"{len(seats)}/")
    print(
        f"\n[desk] tournament, everyone folds to the big blind: {folded[0]} clicks, {folded[1]:.1f} s"
    )
