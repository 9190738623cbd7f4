"""Recording a deal the players left agreed: the method, the remaining prizes, the amount left
to play for and each player's consent, with the stacks the desk counts at that moment, as a
``Deal`` row and a ``deal`` line in the money ledger (all zeros: the ledger shows the deal),
in one transaction with the tournament locked. The payouts read each dealt player's share
from the row (the share, and the amount left to play for to the eventual winner).

The seeds say nothing of deals. The policy enforced is the published one (the MSPT's deal
policy, and the TDA's position that a deal is the players' own business which the house
records and enforces its policy on):

- unanimous: every player left agrees, each asked by the director (``DEAL_UNANIMOUS``);
- at least the room's share of the remaining prizes is left to play for
  (``Prices.deal_min_play_for``, in basis points; ``DEAL_PLAY_FOR``);
- the clock keeps running: recording a deal stops nothing (``DEAL_CLOCK_RUNS``);
- one deal a tournament (the database's ``one_deal_a_tournament``): a second is a 409.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from cardroom.core.api_errors import Conflict, Refusal
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.money.currency import currency_of, format_money
from tournaments.money.models import Deal, Method, MoneyMove, MoveKind, PayoutTable, Prices
from tournaments.prizes.deals import MAX_PLAYERS, DealError, quote
from tournaments.seating import lock_tournament, refuse_if_in_hand

#: Published practice behind each refusal (the seeds are silent on deals).
DEAL_UNANIMOUS = "MSPT deal policy: every player left agrees"
DEAL_PLAY_FOR = "House deal policy: a share of the prizes left to play for"
DEAL_CLOCK_RUNS = "TDA: the clock keeps running during deal talks"
DEAL_HOUSE_RECORDS = "TDA: deals are the players' business; the house records them"


class DealRefused(Refusal):
    """A deal the policy or its input refuses: 422 ``deal_refused``, naming the field."""

    code = "deal_refused"


def players_left(tournament: Tournament) -> list[Entrant]:
    """The players still in, biggest stack first (then by entry number), bounded."""
    rows = tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("-chips", "number")
    return list(rows[: MAX_PLAYERS + 1])


def table_prizes(tournament: Tournament, players: int) -> list[int] | None:
    """The remaining prizes from the payout table in force (its newest version): places 1 to
    ``players``. None when the tournament has no payout table."""
    table = PayoutTable.objects.filter(tournament_id=tournament.pk).order_by("-version").first()
    if table is None:
        return None
    return [int(prize) for prize in table.prizes[:players]]


def least_play_for(tournament: Tournament) -> int:
    """The room's least share left to play for in a deal, in basis points (0: none)."""
    prices = Prices.objects.filter(tournament_id=tournament.pk).only("deal_min_play_for").first()
    return prices.deal_min_play_for if prices is not None else 0


def refuse_policy(
    prices: Prices | None, players: Sequence[Entrant], agreed: Collection[int], prizes: list[int],
    play_for: int,
) -> None:  # fmt: skip
    """The house's deal policy, each refusal naming the published practice it applies."""
    missing = [p for p in players if p.pk not in agreed]
    if missing:
        names = ", ".join(f"{p.name} #{p.number}" for p in missing)
        raise DealRefused(
            "consent", f"Every player left agrees to a deal: not yet {names}.", DEAL_UNANIMOUS
        )
    least = prices.deal_min_play_for if prices is not None else 0
    if least and play_for * 10_000 < least * sum(prizes):
        need = -(-least * sum(prizes) // 10_000)
        raise DealRefused(
            "play_for",
            f"The room's deal policy leaves at least {least / 100:g}% of the remaining "
            f"prizes to play for: {format_money(need, currency_of(prices))} or more.",
            DEAL_PLAY_FOR,
        )


def record_deal(
    *,
    tournament: Tournament,
    method: str,
    prizes: Sequence[int] | None,
    play_for: int,
    agreed: Collection[int],
    by: User,
    unit: int = 1,
) -> Deal:
    """Record the deal: the method's shares of the remaining prizes (the payout table's places
    for the players left, or ``prizes`` as typed where there is none) from the desk's counts
    now, with ``agreed`` the entrant ids of the players who said yes to the director. A player
    in a hand not pushed yet is a 409 (the stacks are not settled); a deal already recorded is
    a 409; the policy or the input refused, 422."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if Deal.objects.filter(tournament_id=locked.pk).exists():
            raise Conflict("deal_recorded", f"{locked} already has a deal on record.")
        players = players_left(locked)
        if len(players) < 2:
            raise DealRefused("consent", "A deal is made by two players or more still in play.")
        if len(players) > MAX_PLAYERS:
            raise DealRefused("consent", "More players are left than a deal shares between.")
        refuse_if_in_hand(locked, [p.pk for p in players], doing="record a deal")
        shared = table_prizes(locked, len(players))
        if shared is None:
            shared = list(prizes or [])
        prices = Prices.objects.filter(tournament_id=locked.pk).first()
        refuse_policy(prices, players, agreed, shared, play_for)
        try:
            made = quote(
                method, [p.chips for p in players], shared, unit=unit, play_for=play_for,
                money=currency_of(prices).format,
            )  # fmt: skip
        except DealError as error:
            raise DealRefused(error.field, error.message) from None
        asked_by = by.get_username()
        rows = [
            {"entrant": p.pk, "number": p.number, "name": p.name, "chips": p.chips,
             "share": share, "consented": True, "asked_by": asked_by}
            for p, share in zip(players, made.shares, strict=True)
        ]  # fmt: skip
        try:
            with transaction.atomic():
                deal = Deal.objects.create(
                    tournament=locked, method=made.method.value, players=rows, prizes=shared,
                    play_for=play_for, unit=unit, by=by,
                    citations=[DEAL_UNANIMOUS, DEAL_PLAY_FOR, DEAL_CLOCK_RUNS, DEAL_HOUSE_RECORDS],
                )  # fmt: skip
        except IntegrityError:
            raise Conflict("deal_recorded", f"{locked} already has a deal on record.") from None
        MoneyMove.objects.create(
            tournament=locked, kind=MoveKind.DEAL, method=Method.ROOM, deal=deal,
            note=f"Deal: {made.method.value}, {len(rows)} players", by=by,
        )  # fmt: skip
    return deal
