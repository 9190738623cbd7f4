"""The hands of a cash table dealt from its seat map: the next hand as the rules
deal it (``rules.engine.rotation``: the button, the blinds, the posts, who waits; a voided hand
is dealt again, CR-BB.8), the dealer's deal of it or of a correction, and the award settled
back into the seat map (stacks, busted players). The seat map itself (seating, chips, sitting
out, leaving) is ``cardroom.seats.services``; like it, every write here locks the table row first.

A deal made stale by another device is a ``Conflict`` (409); a request the rules refuse is
``players.SeatRefused`` (422)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from cardroom.core.api_errors import Conflict
from cardroom.core.reasons import clean_reason
from cardroom.seats import services as players
from cardroom.seats.models import SeatEvent, TableSeat
from cardroom.tables import services
from cardroom.tables.choices import SeatEventKind, SeatStatus
from cardroom.tables.models import Hand, HandStatus, Table
from rules.engine import citations
from rules.engine.errors import BadInput
from rules.engine.rotation import Plan, Previous, SeatState, plan_next_hand


def _history(table: Table) -> tuple[Previous | None, list[Hand]]:
    """The last settled seat-map hand's button and blinds, skipping voided hands (a misdeal is
    dealt again with the same button and blinds), and the voided hands skipped."""
    voided: list[Hand] = []
    for hand in table.hands.exclude(names={}).order_by("-number")[:50]:
        if not hand.settled:
            raise Conflict(
                "not_awarded", f"{hand} is not awarded yet: push its pots before the next deal."
            )
        if hand.state != HandStatus.VOIDED:  # hands dealt from a seat map name their blinds
            if not hand.blinds:
                return None, voided
            return Previous(hand.button, hand.blinds.get("small"), hand.blinds["big"]), voided
        voided.append(hand)
    return None, voided


def _fingerprint(table: Table, seated: list[TableSeat]) -> str:
    last = table.hands.order_by("-number").values_list("number", "state", "awarded_at").first()
    data = [
        [s.seat, s.player_id, s.stack, s.status, s.owes_big, s.owes_small, s.new,
         s.waits_for_big_blind] for s in seated
    ]  # fmt: skip
    payload = [data, str(last), table.engine_game(), table.button_rule, table.missed_blinds]
    return proposal_version(payload)


def proposal_version(payload: Any) -> str:
    """A proposal's ``version``: a short digest of what the dealer was shown, so a deal
    confirming a proposal that has changed since is a 409 (cash and tournament tables)."""
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plan(
    table: Table, straddle: bool = True, seated: list[TableSeat] | None = None
) -> tuple[Plan, dict[str, Any], dict[int, TableSeat]]:
    """The next hand as the rules deal it (``rules.engine.rotation``), and its proposal;
    ``seated``: the table's live seats (``players.live_seats``) when the caller read them."""
    seated = players.live_seats(table) if seated is None else seated
    previous, voided = _history(table)
    owed = {s.seat: (s.owes_big, s.owes_small) for s in seated}
    for hand in voided:  # posts made in a voided hand are still owed
        for post in hand.posts:
            big, small = owed.get(post["seat"], (False, False))
            owed[post["seat"]] = (big or bool(post.get("live")), small or bool(post.get("dead")))
    # No new player is dealt into a redeal: they wait for the next hand.
    since = min((hand.started_at for hand in voided), default=None)
    seats = {s.seat: s for s in seated if since is None or not (s.new and s.seated_at > since)}
    states = [
        SeatState(
            s.seat, active=s.status == SeatStatus.PLAYING and s.stack > 0,
            owes_big=owed[s.seat][0], owes_small=owed[s.seat][1], new=s.new,
            waits=s.waits_for_big_blind, stack=s.stack,
        )
        for s in seats.values()
    ]  # fmt: skip
    game = table.engine_game()
    # CR-BB.9: no hand played here yet, the button is drawn (high card) from the table's seed,
    # fixed before the first deal, so every proposal shows the same draw and a redeal of a
    # voided first hand (CR-BB.8) the same button for the same players.
    draw = random.Random(table.button_seed) if previous is None else None
    try:
        plan = plan_next_hand(
            seats=states, previous=previous, rule=table.button_rule,
            missed_blinds=table.missed_blinds, small_blind=game["small_blind"],
            big_blind=game["big_blind"], straddle=straddle and bool(game["straddle"]),
            ante=game["ante"], draw=draw,
        )  # fmt: skip
    except BadInput as exc:
        raise players.SeatRefused("seats", exc.message, *exc.citations) from exc
    posts = [{"seat": p.seat, "live": p.live, "dead": p.dead} for p in plan.posts]
    proposal = {
        "button": plan.button,
        "blinds": {"small": plan.small, "big": plan.big},
        "seats": [{"seat": n, "stack": seats[n].stack} for n in plan.dealt],
        "posts": posts,
        "names": {str(n): seats[n].player.name for n in plan.dealt},
        "waiting": list(plan.waiting),
        "missed": {str(n): {"big": b, "small": s} for n, (b, s) in sorted(plan.missed.items())},
        "citations": [*plan.citations, *([citations.MISDEAL_REDEAL] if voided else [])],
        "redeal": [hand.number for hand in voided],
        # No hand played here yet: the button by the draw (CR-BB.9), which the desk shows
        # (the cards dealt, the high card); the dealer may still move it with Correct.
        "first_button": previous is None and not voided,
        "button_draw": plan.draw.shown() if plan.draw is not None else None,
        "version": _fingerprint(table, seated),
    }
    return plan, proposal, seats


def propose_next_hand(table: Table, seated: list[TableSeat] | None = None) -> dict[str, Any]:
    """What the desk proposes for the next deal: the button, the blinds, who is dealt in with
    what, the posts, who waits for the big blind, the blinds each seat will owe after it,
    the rules applied, and ``version`` (send it back with the deal: 409 if the seat map
    changed meanwhile). ``redeal`` lists the voided hands dealt again."""
    return _plan(players.cash_only(table), seated=seated)[1]


@transaction.atomic
def deal_next_hand(
    *, table: Table, by: User, button: int | None = None, small: int | None = None,
    big: int | None = None, reason: str = "", version: str = "", straddle: bool = True,
) -> Hand:  # fmt: skip
    """Deal the proposed hand, or the dealer's correction of it (another ``button``, ``small``
    (0: a dead small blind) or ``big``, with a ``reason``; the proposal and the reason are kept
    on the hand). With ``version`` from the proposal, a seat map changed since is a 409."""
    locked = players.lock_table(table)
    plan, proposal, seats = _plan(locked, straddle)
    if version and version != proposal["version"]:
        raise Conflict(
            "seat_map_changed",
            f"The seat map at {locked} changed since the proposal: look at it again and deal.",
        )
    dealt = [entry["seat"] for entry in proposal["seats"]]
    want_small = plan.small if small is None else (small or None)
    want = (plan.button if button is None else button, want_small, big or plan.big)
    corrected = want != (plan.button, plan.small, plan.big)
    if corrected:
        reason = clean_reason(
            reason,
            "Say why the button or the blinds differ from the proposal.",
            error=players.SeatRefused,
        )
    for field, value in zip(("button", "small", "big"), want, strict=True):
        if value is not None and (not isinstance(value, int) or not 1 <= value <= locked.seats):
            raise players.SeatRefused(field, f"Seats at {locked} are numbered 1 to {locked.seats}.")
    entries = list(proposal["seats"])
    for seat in (want[1], want[2]):  # a waiting player put in a blind is dealt in
        if seat is not None and seat not in dealt and seat in plan.waiting:
            entries.append({"seat": seat, "stack": seats[seat].stack})
            dealt.append(seat)
    entries.sort(key=lambda entry: entry["seat"])
    in_blinds = {want[1], want[2]}
    posts = [post for post in proposal["posts"] if post["seat"] not in in_blinds]

    def apply(_locked: Table) -> None:
        cleared = set(plan.cleared) | {seat for seat in in_blinds if seat in dealt}
        changed: list[TableSeat] = []
        for number, live in seats.items():
            before = (live.new, live.owes_big, live.owes_small, live.waits_for_big_blind)
            if number in dealt:
                live.new = False
            if number in cleared:
                live.owes_big = live.owes_small = live.waits_for_big_blind = False
            if number in plan.missed and number not in dealt:
                live.owes_big, live.owes_small = plan.missed[number]
            if before != (live.new, live.owes_big, live.owes_small, live.waits_for_big_blind):
                changed.append(live)
        # The seats whose blinds owed or waiting changed, in one write however many.
        TableSeat.objects.bulk_update(
            changed, ["new", "owes_big", "owes_small", "waits_for_big_blind"]
        )

    names = {str(seat): seats[seat].player.name for seat in dealt}
    drawn = plan.draw.record(locked.button_seed) if plan.draw is not None else None
    return services.start_hand(
        table=locked,
        by=by,
        button=want[0],
        seats=entries,
        straddle=straddle,
        blinds={"small": want[1], "big": want[2]},
        posts=posts,
        names=names,
        correction={"proposed": {k: proposal[k] for k in ("button", "blinds", "seats",
                    "posts")}, "reason": reason} if corrected else None,
        after=apply, button_draw=drawn,
    )  # fmt: skip


def settle_cash_hand(
    *, hand: Hand, by: User, expected_seq: int, showdown: dict[str, Any] | None
) -> Hand:
    """Push the pots (``services.award_hand``) and carry the chips into the seat map in the
    same transaction: each dealt seat's stack is what the award left it (a "hand" event with
    the change); a player left with nothing is busted: still seated, not dealt in, offered a
    rebuy or the seat freed."""
    if not hand.names:
        raise players.SeatRefused(
            "hand", f"{hand} was dealt with typed stacks, not from a seat map."
        )
    players.cash_only(hand.table)

    def apply(locked_hand: Hand, result: dict[str, Any]) -> None:
        table = players.lock_table(locked_hand.table)
        seated = {s.seat: s for s in players.live_seats(table)}
        stacks: list[TableSeat] = []
        events: list[SeatEvent] = []
        for entry in result["stacks"]:
            live = seated.get(entry["seat"])
            if live is None or live.player.name != locked_hand.names.get(str(entry["seat"])):
                raise Conflict(
                    "seat_changed",
                    f"Seat {entry['seat']} at {table} is no longer the player dealt into"
                    f" {locked_hand}: correct the seat map first.",
                )
            change = entry["stack"] - live.stack
            live.stack = entry["stack"]
            stacks.append(live)
            events.append(
                players.new_seat_event(
                    live, SeatEventKind.HAND, by, amount=change, hand=locked_hand
                )
            )
            if live.stack == 0:
                events.append(
                    players.new_seat_event(live, SeatEventKind.BUSTED, by, hand=locked_hand)
                )
        # One write for the stacks and one for their log (chained in this order), however
        # many seats were dealt in.
        TableSeat.objects.bulk_update(stacks, ["stack"])
        SeatEvent.objects.bulk_create(events)

    return services.award_hand(
        hand=hand, by=by, expected_seq=expected_seq, showdown=showdown, after=apply
    )
