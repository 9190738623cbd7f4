"""Bounties: a fixed bounty or a progressive knockout (PKO) on every player's head, won by
whoever puts them out, owed to the winner in the ledger and paid at the cage.

How the ledger holds them (``tournaments.money.models.MoneyMove``):

- An entry (or re-entry) puts ``Prices.entry_bounty`` in the ``bounty`` column: the money on
  that player's head. A refund takes it out again. That is the player's starting head.
- A bust writes a ``bounty_won`` line for each winner of the head: ``bounty = -x``,
  ``owed = +x`` (``entrant`` the winner, ``from_entrant`` the busted player, ``hand`` the hand),
  where ``x`` is what is paid in cash.

  * Fixed: the whole head is ``x``; the winner's own head does not change.
  * PKO: half the head is paid in cash and half is added to the winner's own head (the WSOP
    and partypoker PKO rules). Published PKO rules do not say where an odd unit of a head
    goes; Cardroom pays it in cash, so the cash half is never the smaller. The half that goes
    onto the winner's head never leaves the ``bounty`` column: it only changes whose head it
    is, and the line says how much in its note ("PKO: 250 onto the winner's head"), so every
    head can be recomputed from the lines.

- The winner of the tournament has nobody to knock them out: their own head (fixed or PKO) is
  paid to them at the end, a ``bounty_won`` line from themselves, so no bounty money is left
  in the pool once a tournament is over.
- ``bounty_paid``: ``owed = -x``, ``player_out = x``: the cage pays what a player is owed.

A player's head is then: the bounty of their own entry lines, plus what their wins put onto it,
less what was taken from it when they were put out (the cash and the halves of their
``bounty_won`` lines as the busted player). The sum of the ``bounty`` column is the sum of the
heads still in play; the ``bounty`` column plus what is owed plus what was paid is what the
entries brought in (the tests check this over random bust sequences).

Who wins a head: the desk's award (``tournaments.table_hands``) names the pots, the seats in each
(``eligible``) and who won it (``awards``). The busted player's head goes to the winners of the
highest pot they were in (the last they were eligible for, which they lost); a split pot splits
the head as evenly as the unit allows, odd units one each to the winners in order clockwise
from the button, as Robert's Rules of Poker give the odd chip (RRoP-TI.5 (a); the same
``rules.engine.pots.split_pot`` the pots use). A director's elimination by hand follows chips
moved with ``chip_counts.move_chips``: the player who was given the last of the busted
player's chips is the one who knocked them out.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, QuerySet, Sum

from cardroom.core.api_errors import Refusal
from cardroom.tables.models import Hand
from rules.engine.citations import ODD_CHIP
from rules.engine.pots import split_pot
from tournaments.models import ChipChange, ChipCount, Entrant, EntrantStatus, Tournament
from tournaments.money.currency import currency_of, format_money
from tournaments.money.models import BountyKind, Method, MoneyMove, MoveKind, Prices
from tournaments.seating import lock_tournament

#: The kinds of line whose ``bounty`` is a player's own entry money on their head.
HEAD_KINDS = (MoveKind.ENTRY, MoveKind.REENTRY, MoveKind.REFUND)
#: How a PKO line notes the half that went onto the winner's own head.
ONTO_HEAD = re.compile(r"^PKO: (\d+) onto the winner's head")
#: Ways the cage pays a bounty (never the room's own money).
PAY_METHODS = (Method.CASH, Method.CARD, Method.VOUCHER)


class BountyRefused(Refusal):
    """A bounty that cannot be paid (nothing owed, a method the cage does not pay with): 422."""

    code = "bounty_refused"


def bounty_kind(tournament: Tournament) -> str:
    prices = Prices.objects.filter(tournament_id=tournament.pk).only("bounty_kind").first()
    return prices.bounty_kind if prices is not None else BountyKind.NONE


def onto_head(note: str) -> int:
    """What a PKO line put onto the winner's own head (0 for a fixed bounty's line)."""
    found = ONTO_HEAD.match(note)
    return int(found.group(1)) if found else 0


@dataclass
class Heads:
    """Each entrant's head, bounties won (cash), owed and paid, from the ledger."""

    head: dict[int, int]
    won: dict[int, int]
    owed: dict[int, int]
    paid: dict[int, int]


def heads(tournament: Tournament) -> Heads:
    """Every entrant's head and bounty money, from the lines (one pass over the bounty lines,
    a database sum for the entries)."""
    head: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    owed: dict[int, int] = defaultdict(int)
    paid: dict[int, int] = defaultdict(int)
    own = (
        MoneyMove.objects.filter(tournament_id=tournament.pk, kind__in=HEAD_KINDS)
        .values("entrant_id")
        .annotate(total=Sum("bounty"))
    )
    for row in own:
        if row["entrant_id"] is not None:
            head[row["entrant_id"]] += row["total"] or 0
    lines = MoneyMove.objects.filter(
        tournament_id=tournament.pk, kind__in=(MoveKind.BOUNTY_WON, MoveKind.BOUNTY_PAID)
    ).values_list("kind", "entrant_id", "from_entrant_id", "owed", "note")
    for kind, entrant, busted, amount, note in lines:
        if kind == MoveKind.BOUNTY_PAID:
            owed[entrant] += amount
            paid[entrant] -= amount
            continue
        added = onto_head(note)
        head[busted] -= amount + added
        head[entrant] += added
        won[entrant] += amount
        owed[entrant] += amount
    return Heads(dict(head), dict(won), dict(owed), dict(paid))


def head_of(tournament: Tournament, entrant_id: int) -> int:
    return heads(tournament).head.get(entrant_id, 0)


def _write(
    locked: Tournament,
    *,
    winner: Entrant,
    busted: Entrant,
    share: int,
    kind: str,
    hand: Hand | None,
    by: User,
    note: str = "",
) -> MoneyMove | None:
    """One winner's line of a head: all of ``share`` in cash (fixed), or the cash half with the
    odd unit and the rest onto the winner's head (PKO)."""
    if share <= 0:
        return None
    cash, added = share, 0
    if kind == BountyKind.PROGRESSIVE and winner.pk != busted.pk:
        added = share // 2  # the odd unit stays with the cash half (see the module docstring)
        cash = share - added
        note = f"PKO: {added} onto the winner's head, {cash} in cash"
    return MoneyMove.objects.create(
        tournament=locked, kind=MoveKind.BOUNTY_WON, entrant=winner, from_entrant=busted,
        hand=hand, method=Method.ROOM, bounty=-cash, owed=cash, note=note[:200], by=by,
    )  # fmt: skip


def share_head(
    locked: Tournament,
    *,
    busted: Entrant,
    winners: Sequence[tuple[int, Entrant]],
    button: int,
    seat_order: Sequence[int],
    hand: Hand | None,
    by: User,
) -> list[MoneyMove]:
    """The busted player's head to the winners (seat, entrant): split as evenly as a unit
    allows, the odd units one each clockwise from the button (RRoP-TI.5 (a))."""
    kind = bounty_kind(locked)
    if kind == BountyKind.NONE or not winners:
        return []
    head = head_of(locked, busted.pk)
    if head <= 0:
        return []
    by_seat = dict(winners)
    shares = split_pot(head, list(by_seat), button, seat_order, 1)
    lines = []
    for seat, share in shares.items():
        note = (
            f"Split pot: {len(shares)} winners, odd unit by {ODD_CHIP}" if len(shares) > 1 else ""
        )
        line = _write(
            locked, winner=by_seat[seat], busted=busted, share=share, kind=kind, hand=hand,
            by=by, note=note,
        )  # fmt: skip
        if line is not None:
            lines.append(line)
    return lines


def pay_the_winners_head(locked: Tournament, *, by: User) -> MoneyMove | None:
    """The tournament is over: the last player's own head is theirs (nobody knocked them out),
    so the bounty pool ends empty."""
    kind = bounty_kind(locked)
    if kind == BountyKind.NONE:
        return None
    winner = locked.entrants.filter(status=EntrantStatus.SEATED).first()
    if winner is None or locked.entrants.filter(status=EntrantStatus.SEATED).count() != 1:
        return None
    if MoneyMove.objects.filter(
        kind=MoveKind.BOUNTY_WON, entrant=winner, from_entrant=winner
    ).exists():
        return None
    head = head_of(locked, winner.pk)
    return _write(
        locked, winner=winner, busted=winner, share=head, kind=kind, hand=None, by=by,
        note="The winner's own head",
    )  # fmt: skip


def hand_bounties(
    locked: Tournament,
    *,
    hand: Hand,
    result: dict[str, Any],
    busted: Iterable[tuple[int, Entrant]],
    seated: dict[int, Entrant],
    by: User,
) -> list[MoneyMove]:
    """The bounties of the players a hand at the desk put out (seat, entrant), in the order
    they were put out, each to the winners of the highest pot they were in; then, when the hand
    ended the tournament, the winner's own head. Called in the award's transaction with the
    tournament locked (``tournaments.table_hands``)."""
    if bounty_kind(locked) == BountyKind.NONE:
        return []
    order = sorted(entry["seat"] for entry in hand.seats)
    lines: list[MoneyMove] = []
    for seat, entrant in busted:
        pots = [pot for pot in result.get("pots", []) if seat in pot.get("eligible", [])]
        if not pots:
            continue
        won = [
            a["seat"] for a in pots[-1].get("awards", []) if a["amount"] > 0 and a["seat"] != seat
        ]
        winners = [(s, seated[s]) for s in won if s in seated]
        lines += share_head(
            locked, busted=entrant, winners=winners, button=hand.button, seat_order=order,
            hand=hand, by=by,
        )  # fmt: skip
    line = pay_the_winners_head(locked, by=by)
    return lines + ([line] if line is not None else [])


def eliminator_by_hand(entrant: Entrant) -> Entrant | None:
    """Who knocked out a player the director put out by hand: the player given the last of
    their chips (``chip_counts.move_chips``: the giver's row names the receiver as ``other``).
    None when their last chips went out of play or were counted away."""
    last = ChipCount.objects.filter(entrant=entrant).order_by("-id").first()
    if last is None or last.kind != ChipChange.TRANSFER_OUT or last.chips_after != 0:
        return None
    other: Entrant | None = last.other
    return other


def manual_bounties(locked: Tournament, *, entrant: Entrant, by: User) -> list[MoneyMove]:
    """The bounty of a player the director put out by hand (``eliminations.eliminate_player``),
    in its transaction: to the player given their last chips, then the winner's own head if
    that ended the tournament."""
    if bounty_kind(locked) == BountyKind.NONE:
        return []
    lines: list[MoneyMove] = []
    winner = eliminator_by_hand(entrant)
    if winner is not None:
        lines += share_head(
            locked, busted=entrant, winners=[(0, winner)], button=0, seat_order=[0], hand=None,
            by=by,
        )  # fmt: skip
    line = pay_the_winners_head(locked, by=by)
    return lines + ([line] if line is not None else [])


def owed_to(entrant: Entrant) -> int:
    total = MoneyMove.objects.filter(
        entrant=entrant, kind__in=(MoveKind.BOUNTY_WON, MoveKind.BOUNTY_PAID)
    ).aggregate(total=Sum("owed"))["total"]
    return total or 0


def pay_bounty(*, entrant: Entrant, method: str, by: User) -> MoneyMove:
    """Pay a player every bounty they are owed (``bounty_paid``: owed down, paid out across the
    desk). Refused when nothing is owed (a second cashier paying the same player finds it
    paid: the tournament row is locked, so one pays and the other is told)."""
    if method not in PAY_METHODS:
        raise BountyRefused("method", "Pay a bounty in cash, by card or with a voucher.")
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        owed = owed_to(entrant)
        if owed <= 0:
            raise BountyRefused("entrant", f"{entrant.name} is owed no bounty: nothing to pay.")
        # The note says the amount as the row's own columns are shown: in the currency.
        currency = currency_of(Prices.objects.filter(tournament_id=locked.pk).first())
        return MoneyMove.objects.create(
            tournament=locked, kind=MoveKind.BOUNTY_PAID, entrant=entrant, method=method,
            owed=-owed, player_out=owed, note=f"Bounties paid: {format_money(owed, currency)}",
            by=by,
        )  # fmt: skip


def bounty_rows(tournament: Tournament) -> tuple[Heads, QuerySet[Entrant]]:
    """The heads and the entrants with bounty money (a head, a win, or something owed or
    paid), for the cashier's bounties page: the players still in first, then by entry."""
    found = heads(tournament)
    ids = {pk for table in (found.head, found.won, found.owed, found.paid)
           for pk, value in table.items() if value}  # fmt: skip
    still_in_first = F("place").asc(nulls_first=True)
    rows = tournament.entrants.filter(pk__in=ids).order_by(still_in_first, "number")
    return found, rows
