"""The money pages as printed (print media, a portrait A4 or Letter page's width): the day's
page and a tournament's, with a long tournament name and long player names, keep every line of
the ledger on one line, the table inside the paper, and every amount whole; a long name is cut
with an ellipsis (the entry number kept) instead of wrapping the row over three lines."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from tests.browser.test_money_evening import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A portrait A4 page's width less the print dialog's usual margins, in CSS pixels (A4: 794 px
#: across, Letter: 816).
PAPER_WIDTH = 700
LONG_NAME = "Sunday Million Satellite Qualifier Freezeout Special Edition"
PLAYERS = (
    "Maximiliana Wolfeschlegelsteinhausen-Bergerdorff",
    "Jean-Baptiste Alexandre de la Fontaine-Rousseau",
    "Li Wei",
)


def printed_lines_fit(page: Page) -> dict[str, Any]:
    """What the printed ledger looks like: each row's height, the table's right edge against
    the paper's, the amounts cut short, the names cut with an ellipsis."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('#money-line-list');
          const rows = [...table.querySelectorAll('tbody tr')];
          const clipped = [...table.querySelectorAll('td.num')]
            .filter(td => td.scrollWidth > td.clientWidth).map(td => td.textContent);
          const cut = [...document.querySelectorAll('.money .clip')]
            .filter(s => s.scrollWidth > s.clientWidth)
            .map(s => getComputedStyle(s).textOverflow);
          // The lines a cell's text takes: its text's boxes, top to bottom, a new line each
          // time a box starts below the line before (boxes on one line overlap).
          const lines = td => {
            const range = document.createRange();
            range.selectNodeContents(td);
            const boxes = [...range.getClientRects()].filter(r => r.height > 0)
              .sort((a, b) => a.top - b.top);
            let count = 0, bottom = -Infinity;
            for (const box of boxes) {
              if (box.top >= bottom - 1) { count += 1; bottom = box.bottom; }
              else { bottom = Math.max(bottom, box.bottom); }
            }
            return count;
          };
          return {
            heights: rows.map(r => Math.round(r.getBoundingClientRect().height)),
            lines: Math.max(...rows.flatMap(r => [...r.cells].map(lines))),
            right: table.getBoundingClientRect().right,
            paper: document.documentElement.clientWidth,
            clipped, cut,
            numbers: [...table.querySelectorAll('tbody tr')].map(r => r.innerText),
          };
        }"""
    )


def test_the_days_money_and_a_tournaments_print_one_line_a_row_inside_the_paper(
    live_server: Any, browser: Any, director: Any, cashier: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tests.tournaments.money.test_payouts_service import take_entries
    from tournaments.models import Entrant
    from tournaments.money.models import Prices

    tournament = make_tournament(by=director, tables=1, entrants=3, name=LONG_NAME)
    Prices.objects.create(tournament=tournament, entry_prize=10_000, entry_fee=1_000)
    for number, name in enumerate(PLAYERS, start=1):
        Entrant.objects.filter(tournament=tournament, number=number).update(name=name)
    take_entries(tournament, director)

    page, errors = log_in(browser, live_server.url, cashier.username)
    page.set_viewport_size({"width": PAPER_WIDTH, "height": 900})
    for address in (
        reverse("tournaments:money_day"),
        reverse("tournaments:reconciliation", args=[tournament.pk]),
    ):
        page.goto(live_server.url + address)
        page.emulate_media(media="print")
        seen = printed_lines_fit(page)
        assert len(seen["heights"]) == 3
        assert seen["lines"] == 1, seen  # one line a row, whatever the names
        assert max(seen["heights"]) == min(seen["heights"]), seen
        assert seen["right"] <= seen["paper"], seen  # In, Out and By on the paper
        assert seen["clipped"] == [], seen  # every amount whole
        assert seen["cut"] and set(seen["cut"]) == {"ellipsis"}, seen
        assert all(f"#{n}" in row for n, row in zip((3, 2, 1), seen["numbers"], strict=True))
        page.emulate_media(media="screen")
    assert errors == []
