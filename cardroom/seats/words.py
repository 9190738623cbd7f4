"""What the desk says between hands, for ``cardroom.seats.views``: the seat map
row by row, the next hand's proposal in the dealer's words (each seat's role, the posts, the
straddler, who waits and why, the blinds a seat comes to owe) and, at a tournament table, what
the last award did (who is out, the balancing asked for). Reading only: no request, no write."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db.models import Count
from django.urls import get_script_prefix, reverse

from cardroom.core.numbers import grouped
from cardroom.seats.models import TableSeat
from cardroom.tables.choices import SeatStatus
from cardroom.tables.models import Hand, Table
from rules.engine import citations
from rules.engine.cards import Card
from rules.engine.seat_order import next_after
from tournaments.models import BalanceCheck, Elimination, EntrantStatus, Tournament
from tournaments.money.payouts import SHARED_PLACES


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd..."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def tournament_news(tournament: Tournament, hand: Hand) -> list[str]:
    """What the award did to the tournament, said at the desk: each player this hand put out
    and their finishing place ("Tess is out in 20th place"; players out on one hand-for-hand
    hand share the places they cover, "in 6th-7th place, shared", TDA RP-8-A), and the
    balancing the latest check asks for (a move or a table to break: the director's tournament
    page does it)."""
    names = hand.names or {}
    busted = [row["seat"] for row in (hand.result or {}).get("stacks", []) if row["stack"] == 0]
    lines = []
    eliminations = [
        out
        for out in Elimination.objects.standing()
        .filter(tournament=tournament, seat__in=busted, at__gte=hand.started_at)
        .select_related("entrant")
        if names.get(str(out.seat)) == out.entrant.name
    ]
    # The finishing place is the entrant's (shared by everyone out on one hand-for-hand hand),
    # not the players left at each bust (the elimination's own place).
    places = {out.entrant.place for out in eliminations if out.entrant.place}
    sharing = dict(
        tournament.entrants.filter(place__in=places, status=EntrantStatus.ELIMINATED)
        .values("place")
        .annotate(players=Count("id"))
        .values_list("place", "players")
    )
    for out in sorted(eliminations, key=lambda e: (-(e.entrant.place or 0), e.pk)):
        place = out.entrant.place
        if not place:
            where = "(place set when registration closes)"
        elif sharing.get(place, 1) > 1:
            last = place + sharing[place] - 1
            where = f"in {ordinal(place)}–{ordinal(last)} place, shared ({SHARED_PLACES})"
        else:
            where = f"in {ordinal(place)} place"
        lines.append(f"{out.entrant.name} is out {where}.")
    check = BalanceCheck.objects.filter(tournament=tournament).order_by("-at", "-id").first()
    if check is not None and check.needs_action:
        moves, breaks = len(check.moves), len(check.tables_to_break)
        if moves:
            lines.append(f"Balancing: {moves} move{'s' if moves != 1 else ''} needed.")
        if breaks:
            lines.append(f"Balancing: {breaks} table{'s' if breaks != 1 else ''} to break.")
        if check.final_table:
            lines.append("Balancing: the final table is to be drawn.")
    return lines


#: What the seat map's forms post to a seated player's seat (``cardroom:seat_change``).
SEAT_CHANGES = ("add", "correct", "back", "out", "leave")


@lru_cache(maxsize=256)
def seat_addresses(prefix: str, table: int, seats: int) -> tuple[dict[str, str], ...]:
    """The addresses the seat map's forms post to, seat by seat (index 0: seat 1), under the
    script ``prefix``: the same for every answer at the table, so reversed once a process
    (the desk answers every tap with the seat map: nine seats' forms reversed each time were
    a tenth of a tap's work)."""
    del prefix  # part of the key only: ``reverse`` reads it itself
    seat_add = reverse("cardroom:seat_add", args=[table])
    names = reverse("cardroom:player_names", args=[table])
    return tuple(
        {
            "seat_add": seat_add,
            "player_names": names,
            **{
                what: reverse("cardroom:seat_change", args=[table, seat, what])
                for what in SEAT_CHANGES
            },
        }
        for seat in range(1, seats + 1)
    )


def seat_map(table: Table, seated: list[TableSeat]) -> list[dict[str, Any]]:
    """Every seat of the table, in order: the player in it with stack and status, or open;
    with the addresses its forms post to (``urls``)."""
    by_seat = {s.seat: s for s in seated}
    rows: list[dict[str, Any]] = []
    addresses = seat_addresses(get_script_prefix(), table.number, table.seats)
    for number in range(1, table.seats + 1):
        s = by_seat.get(number)
        urls = addresses[number - 1]
        if s is None:
            rows.append({"seat": number, "open": True, "urls": urls})
            continue
        if s.stack == 0:
            status = "busted"
        elif s.status == SeatStatus.SITTING_OUT:
            status = "sitting_out"
        elif s.waits_for_big_blind:
            status = "waiting"
        else:
            status = "playing"
        rows.append(
            {
                "seat": number,
                "open": False,
                "urls": urls,
                "row": s,
                "status": status,
                "owes": [w for w, owed in (("big", s.owes_big), ("small", s.owes_small)) if owed],
                # The Add/Rebuy box's range (players.add_chips): a rebuy from the minimum
                # buy-in; chips added up to a stack of the maximum (RRoP-14.16).
                "add_range": f"{grouped(table.min_buy_in)}–{grouped(table.max_buy_in)}"
                if s.stack == 0
                else f"up to {grouped(max(table.max_buy_in - s.stack, 0))}",
            }
        )
    return rows


def waiting_reason(table: Table, row: TableSeat | None) -> str:
    """Why a seat the proposal does not deal in waits, short: the player's choice (or the
    table's rule) to wait for the big blind, or a player who would post but sits between the
    button and the big blind and is dealt in once the button passes (CR-BB.6)."""
    if row is None or row.waits_for_big_blind:
        return "waits for the big blind"
    if table.missed_blinds != "post":
        return "waits for the big blind (this table's rule)"
    return "waits for the button to pass (CR-BB.6), then posts"


def waiting_words(table: Table, seated: list[TableSeat], waiting: list[int]) -> list[str]:
    """Why each seat not dealt in waits (``waiting_reason``), with the player's name."""
    rows = {s.seat: s for s in seated}
    words = []
    for seat in waiting:
        row = rows.get(seat)
        who = f"Seat {seat}" + (f" ({row.player.name})" if row is not None else "")
        words.append(f"{who} {waiting_reason(table, row)}.")
    return words


def agree_with_proposal(table: Table, rows: list[dict[str, Any]], proposal: dict[str, Any]) -> None:
    """The seat map says what the proposal says: a player the next hand leaves out to wait
    (new, or back, and waiting for the big blind or for the button to pass: CR-BB.6) reads
    "Waits ...", never "Playing · new"."""
    waiting = set(proposal.get("waiting") or [])
    for row in rows:
        if row["open"] or row["seat"] not in waiting or row["status"] != "playing":
            continue
        row["status"] = "waiting"
        reason = waiting_reason(table, row["row"])
        row["waits"] = reason[0].upper() + reason[1:]


def missed_words(seated: list[TableSeat], proposal: dict[str, Any]) -> list[str]:
    """The blinds a seat not dealt in comes to owe with this hand (CR-BB.5): a player sitting
    out (or with no chips) that the big blind, or the small blind, passes. What they owed
    already is on their seat in the seat map."""
    after = proposal.get("missed") or {}
    words = []
    for row in seated:
        owes = after.get(str(row.seat))
        if owes is None:
            continue
        new_big = owes.get("big") and not row.owes_big
        new_small = owes.get("small") and not row.owes_small
        if not (new_big or new_small):
            continue
        state = "has no chips" if row.stack == 0 else "is sitting out"
        if new_big:
            passed = "passed by the big blind"
            owed = "the big blind" + (" and the small blind" if owes.get("small") else "")
        else:
            passed, owed = "passed by the small blind", "the small blind"
        words.append(
            f"Seat {row.seat} ({row.player.name}) {state}: {passed}, owes {owed}"
            f" ({citations.MISSED_BLINDS_ACCRUE})."
        )
    return words


def proposal_view(
    table: Table, proposal: dict[str, Any], seated: list[TableSeat] | None = None
) -> dict[str, Any]:
    """The proposal as the desk words it: each seat dealt in with its name, stack and role
    (button, small blind, big blind, a post with its amounts), the seats waiting."""
    names = proposal.get("names") or {}
    blinds = proposal.get("blinds") or {}
    posts = {p["seat"]: p for p in proposal.get("posts") or []}
    rows = []
    for entry in proposal.get("seats") or []:
        seat = entry["seat"]
        roles = []
        if seat == proposal.get("button"):
            roles.append("Button")
        if seat == blinds.get("small"):
            roles.append("Small blind")
        if seat == blinds.get("big"):
            roles.append("Big blind")
        post = posts.get(seat)
        if post is not None:
            parts = [f"{post['live']} live" if post.get("live") else ""]
            parts.append(f"{post['dead']} dead" if post.get("dead") else "")
            roles.append("Posts " + " + ".join(p for p in parts if p))
        rows.append(
            {
                "seat": seat,
                "name": names.get(str(seat), ""),
                "stack": entry["stack"],
                "roles": roles,
            }
        )
    dealt = [entry["seat"] for entry in proposal.get("seats") or []]
    game = proposal.get("game") or table.engine_game()
    level = proposal.get("level")
    # No straddle heads-up or behind a dead small blind: the engine posts none there.
    straddle = 0 if level or len(dealt) < 3 or blinds.get("small") is None else int(table.straddle)
    straddler = straddler_words(proposal, straddle)
    if straddler:
        for row in rows:
            if row["seat"] == straddler["seat"]:
                row["roles"].append(f"May straddle {grouped(straddle)}")
    return {
        **proposal,
        "amounts": game,
        "level_name": (level.get("name") or f"Level {level.get('number')}")
        if isinstance(level, dict)
        else "",
        "straddle": straddle if straddler else 0,
        "straddler": straddler,
        "waiting_words": waiting_words(table, seated or [], list(proposal.get("waiting") or [])),
        "missed_words": missed_words(seated or [], proposal),
        "rows": rows,
        "dead_small": blinds.get("small") is None,
        "dealt": dealt,
        "dead_button": proposal.get("button") not in dealt,
        "button_words": first_button_words(proposal),
        # A dead button sits where nobody is dealt in (CR-BB.1): any seat may hold it.
        "button_seats": range(1, table.seats + 1),
    }


def first_button_words(proposal: dict[str, Any]) -> str:
    """How the first hand's button was placed, said on the proposal: by the draw for the
    button (CR-BB.9: a card to each player, high card, a tie in rank broken by suit,
    RRoP-TI.1), with the cards dealt, for the dealer to deal as drawn or move with Correct
    (the reason kept on the hand). "" once the table has a hand behind it."""
    drawn = proposal.get("button_draw")
    if not proposal.get("first_button") or not drawn:
        return ""
    names = proposal.get("names") or {}
    button = drawn["button"]
    who = f" ({names[str(button)]})" if names.get(str(button)) else ""
    cards = ", ".join(
        f"seat {seat} {Card.parse(card).words}"
        for seat, card in sorted(drawn["cards"].items(), key=lambda item: int(item[0]))
    )
    high = Card.parse(drawn["cards"][str(button)]).words
    return (
        f"Button by draw: seat {button}{who}, high card {high}"
        f" ({citations.BUTTON_DRAW}; suits break a tie in rank: spades, hearts, diamonds, clubs,"
        f" {citations.SUIT_RANKING}). Cards: {cards}. To place it otherwise, deal with Correct"
        " and give the reason."
    )


def straddler_words(proposal: dict[str, Any], straddle: int) -> dict[str, Any] | None:
    """Who may straddle the proposed hand: the first seat dealt in after the big blind, if it
    has the chips for the whole straddle (``citations.NL_STRADDLE``, RRoP-14.14: one optional
    live straddle by the player left of the big blind; the engine posts it the same way).
    The straddle is the player's choice each hand (Table.straddle is an amount, never a
    mandatory straddle), so the desk's box starts unticked and the dealer ticks it when the
    player posts it."""
    seats = proposal.get("seats") or []
    big = (proposal.get("blinds") or {}).get("big")
    small = (proposal.get("blinds") or {}).get("small")
    dealt = sorted(entry["seat"] for entry in seats)
    if not straddle or big is None or big not in dealt:
        return None
    seat = next_after(big, dealt)
    stack = next(entry["stack"] for entry in seats if entry["seat"] == seat)
    if seat == small or stack < straddle:
        return None
    name = (proposal.get("names") or {}).get(str(seat), "")
    who = f"Seat {seat}" + (f" ({name})" if name else "")
    return {"seat": seat, "name": name, "words": f"{who} straddles {grouped(straddle)}"}
