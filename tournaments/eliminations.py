"""Eliminations, finishing places, reinstatements and hand-for-hand play."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from cardroom.core.numbers import grouped
from cardroom.core.reasons import clean_reason
from cardroom.core.transitions import move
from cardroom.tables.models import Hand
from tournaments.chip_counts import CHIPS_ELSEWHERE
from tournaments.clock.services import end_clock, reopen_clock
from tournaments.draws.errors import (
    DrawError,
)
from tournaments.draws.seats import SeatRef
from tournaments.models import (
    OUT_OF_PLAY,
    ClockEvent,
    DrawKind,
    DrawStatus,
    Elimination,
    Entrant,
    EntrantStatus,
    MoveReason,
    Reinstatement,
    SeatAssignment,
    SeatMove,
    Tournament,
    TournamentStatus,
    TournamentTableStatus,
)
from tournaments.money.bounties import manual_bounties
from tournaments.money.payouts import at_the_bubble, bubble_burst_this_hand
from tournaments.seating import (
    CORRECTION,
    HAND_FOR_HAND,
    LATE_REGISTRATION,
    cite,
    load_seating,
    lock_tournament,
    mark_seating_changed,
    multi_table,
    refuse_if_in_hand,
    refuse_if_withdrawn,
)


class ChipsLeft(DrawError):
    """A player still holding chips is not put out: the chips go somewhere first, to another
    player or out of play with a reason (``chip_counts.move_chips``, RRoP-TR.18). HTTP 409
    ``chips_left``: the count is the player's as it stands, and nothing was changed."""

    def __init__(self, entrant: Entrant) -> None:
        self.entrant, self.chips = entrant, entrant.chips
        super().__init__(
            "chips_left",
            f"{entrant.name} still has {grouped(entrant.chips)} chips: give them to a player or"
            " take them out of play, with a reason, before putting them out.",
            CHIPS_ELSEWHERE,
        )


def eliminate_player(*, entrant: Entrant, by: User) -> Elimination:
    """A player is out: the seat opens, the place is recorded (shared with the other busts of
    the same hand during hand-for-hand, TDA RP-8), and a balancing check is queued.

    While registration is open no finishing place is fixed (TDA 8): the player may re-enter and
    the field is still growing, so the place is set when registration closes. A player dealt
    into a hand at the desk that is not settled yet is not put out by hand: the hand decides
    (``DrawError("in_hand")``). A player still holding chips is not put out either: the chips
    would vanish from play (``ChipsLeft``); they are moved first."""
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        refuse_if_in_hand(locked, [entrant.pk], doing="put them out")
        current = Entrant.objects.get(pk=entrant.pk)
        if current.status == EntrantStatus.SEATED and current.chips:
            raise ChipsLeft(current)
        elimination = eliminate_locked(locked, entrant, by=by)
        # The bounty to whoever was given the player's last chips, in the same transaction.
        manual_bounties(locked, entrant=current, by=by)
        return elimination


def eliminate_locked(
    locked: Tournament, entrant: Entrant, *, by: User, hand: Hand | None = None
) -> Elimination:
    """``eliminate_player``'s work, in the caller's transaction with the tournament row already
    locked (``seating.lock_tournament``): the desk's settle busts players here (``table_hands``),
    with the ``hand`` that took their last chips, kept on the elimination.

    The heads-up bust completes the tournament: the last player is the winner (1st), nobody
    enters any more, the clock stops (``clock.services.end_clock``) and hand-for-hand ends
    (``seating.mark_seating_changed``)."""
    entrant = Entrant.objects.get(pk=entrant.pk)
    refuse_if_withdrawn(entrant, doing="put them out")
    if entrant.status != EntrantStatus.SEATED:
        raise DrawError(
            "not_seated", f"{entrant} is {entrant.get_status_display().lower()}, not seated."
        )
    # Out of play: put out, or withdrawn (refunded before the draw, never played).
    left = locked.entrants.exclude(status__in=OUT_OF_PLAY).count()
    if left <= 1:
        raise DrawError("winner", f"{entrant} is the last player: the winner.")
    live = SeatAssignment.objects.select_related("table").get(
        entrant=entrant, ended_at__isnull=True
    )
    now = timezone.now()
    if left == 2:  # heads-up bust: the tournament is over, nobody enters any more
        move(locked, TournamentStatus.COMPLETE)
        locked.registration_closed_at = locked.registration_closed_at or now
        locked.save(update_fields=["status", "registration_closed_at", "updated_at"])
        end_clock(locked, by=by)
    place = None if locked.registration_open else left
    live.ended_at = now
    live.save(update_fields=["ended_at"])
    SeatMove.objects.create(
        tournament=locked, entrant=entrant, from_table=live.table.number,
        from_seat=live.seat, reason=MoveReason.ELIMINATED, by=by, at=now,
        citations=cite(HAND_FOR_HAND) if locked.hand_for_hand else [],
    )  # fmt: skip
    round_hand = locked.hand_for_hand_hand if locked.hand_for_hand else None
    elimination = Elimination.objects.create(
        tournament=locked, entrant=entrant, place=place, hand_for_hand_hand=round_hand,
        table_number=live.table.number, seat=live.seat, hand=hand, by=by,
    )  # fmt: skip
    entrant.status, entrant.place = EntrantStatus.ELIMINATED, place
    entrant.save(update_fields=["status", "place"])
    if left == 2:
        recompute_places(locked)  # the winner, and anyone out before registration closed
    elif round_hand is not None and place is not None:
        # RP-8: everyone out on this hand shares the best of their places.
        same_hand = locked.eliminations.standing().filter(hand_for_hand_hand=round_hand)
        Entrant.objects.filter(pk__in=same_hand.values("entrant_id")).update(place=place)
    # The money bubble: the table locks when it bursts, and one player off the money with two
    # tables or more in play, hand-for-hand begins (TDA RP-8; TDA 21 in the 2013-2019 editions)
    # so that players out on one hand share the places they cover, not the luck of a fast table.
    paid, players_left = at_the_bubble(locked, by=by)
    if paid and players_left == paid + 1 and not locked.hand_for_hand and multi_table(locked):
        switch_hand_for_hand(locked, on=True, by=by)
    mark_seating_changed(locked)
    return elimination


def recompute_places(tournament: Tournament) -> None:
    """Every entrant's finishing place from the standing eliminations, in bust order.

    - Registration open: no places (TDA 8: the field is not final, and a player out may still
      re-enter).
    - An entry followed by a re-entry has no place: that player is still in (or is placed by
      the last entry).
    - The others rank from the field size down in bust order: the first out of N players
      finishes Nth. Busts on one hand-for-hand hand share the best of their places (TDA RP-8).
    - A finished tournament's last player is 1st.
    Only rows whose place changes are written."""
    rows = dict(tournament.entrants.values_list("pk", "place"))
    places: dict[int, int | None] = dict.fromkeys(rows)
    if not tournament.registration_open:
        # An entry refunded before the draw never played: not part of the field.
        final = tournament.entrants.filter(reentries__isnull=True).exclude(
            status=EntrantStatus.WITHDRAWN
        )
        busts = list(
            tournament.eliminations.standing()
            .filter(entrant__in=final)
            .order_by("id")
            .values_list("entrant_id", "hand_for_hand_hand")
        )
        field = final.count()
        best: dict[int, int] = {}
        for k, (pk, hand) in enumerate(busts):
            places[pk] = field - k
            if hand is not None:
                best[hand] = field - k  # the last out on the hand holds the best place
        for pk, hand in busts:
            if hand is not None:
                places[pk] = best[hand]
        if tournament.status == TournamentStatus.COMPLETE:
            out = {pk for pk, _ in busts}
            still_in = [pk for pk in final.values_list("pk", flat=True) if pk not in out]
            if len(still_in) == 1:
                places[still_in[0]] = 1
    changed = [Entrant(pk=pk, place=place) for pk, place in places.items() if rows[pk] != place]
    Entrant.objects.bulk_update(changed, ["place"], batch_size=500)


def close_registration(*, tournament: Tournament, by: User) -> Tournament:
    """Late registration and re-entry end (TDA 8): the field is final, so the players already
    out get their finishing places, and every bust from now on gets one at once."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if not locked.registration_open:
            raise DrawError(
                "registration_closed", "Registration is already closed.", LATE_REGISTRATION
            )
        locked.registration_closed_at = timezone.now()
        locked.save(update_fields=["registration_closed_at", "updated_at"])
        ClockEvent.objects.create(
            tournament=locked, action="registration_closed", level_number=locked.level_number,
            by=by,
        )  # fmt: skip
        recompute_places(locked)
        # The places are fixed now (TDA 8): if the players left are already no more than the
        # places paid (busts while registration was open), the bubble burst then, so the table
        # locks now. Not before: while registration is open a late entry still grows the pool
        # and the places paid, and the table with them.
        at_the_bubble(locked, by=by)
    return locked


def reinstate_player(*, entrant: Entrant, by: User, reason: str) -> Reinstatement:
    """Undo a mistaken elimination (an "Out" clicked by mistake): the player goes back to the
    seat they were put out of, places are worked out again, and a ``Reinstatement`` row (who,
    when, why) plus a seat move record the correction. The elimination row stays.

    TDA 1 (fairness first): the player never left the table, so the seat is theirs. If it is
    no longer free (someone was drawn into it, or the table broke) the correction is refused:
    any other seat would be a new seat assignment, which TDA 6/8-A/10 give by random draw,
    never by the director's hand."""
    reason = clean_reason(reason, "Say why the elimination is undone: it goes on record.")
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        entrant = Entrant.objects.get(pk=entrant.pk)
        elimination = entrant.eliminations.standing().order_by("-id").first()
        if entrant.status != EntrantStatus.ELIMINATED or elimination is None:
            raise DrawError("not_eliminated", f"{entrant} is not eliminated.", CORRECTION)
        again = entrant.reentries.order_by("number").first()
        if again is not None:
            raise DrawError(
                "reentered", f"{entrant.name} has re-entered as #{again.number}: the first entry "
                "stays out.", CORRECTION,
            )  # fmt: skip
        table = (
            locked.tables.select_related("table").filter(number=elimination.table_number).first()
        )
        seat = elimination.seat
        if table is None or seat is None or table.status != TournamentTableStatus.ACTIVE:
            raise DrawError(
                "seat_not_free", f"{table or 'The table'} has broken since: "
                f"{entrant.name} cannot go back to seat {seat}. The elimination stands.",
                CORRECTION,
            )  # fmt: skip
        seating = load_seating(locked, at=[table.number])
        occupant = seating.by_table[table.number].get(seat)
        holder = seating.reserved.get(SeatRef(table.number, seat))
        if occupant is not None or holder is not None:
            who = occupant.player if occupant is not None else holder
            other = locked.entrants.get(number=cast(int, who))  # one of the two is there
            raise DrawError(
                "seat_not_free", f"{entrant.name} cannot go back to table {table.room_number} seat "
                f"{seat}: it is {'taken by' if occupant else 'reserved for'} {other}. "
                "The elimination stands.", CORRECTION,
            )  # fmt: skip
        now = timezone.now()
        SeatAssignment.objects.create(
            tournament=locked, entrant=entrant, table=table, seat=seat,
            reason=MoveReason.REINSTATED, started_at=now,
        )  # fmt: skip
        SeatMove.objects.create(
            tournament=locked, entrant=entrant, to_table=table.number, to_seat=seat,
            reason=MoveReason.REINSTATED, note=reason, citations=cite(CORRECTION), by=by, at=now,
        )  # fmt: skip
        reinstatement = Reinstatement.objects.create(
            tournament=locked, elimination=elimination, entrant=entrant,
            table_number=table.number, seat=seat, reason=reason, by=by,
        )  # fmt: skip
        entrant.status, entrant.place = EntrantStatus.SEATED, None
        entrant.save(update_fields=["status", "place"])
        if locked.status == TournamentStatus.COMPLETE:
            final_drawn = locked.draws.filter(
                kind=DrawKind.FINAL_TABLE, status=DrawStatus.REVEALED
            ).exists()
            move(locked, TournamentStatus.FINAL_TABLE if final_drawn else TournamentStatus.RUNNING)
            reopen_clock(locked, by=by)
        recompute_places(locked)
        mark_seating_changed(locked)
    return reinstatement


def set_hand_for_hand(*, tournament: Tournament, on: bool, by: User) -> Tournament:
    """Switch hand-for-hand play (TDA RP-8) on or off; switching on records the announcement
    time and starts counting hands, so busts on one hand share the place."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.hand_for_hand == on:
            return locked
        if on and not multi_table(locked):
            raise DrawError(
                "one_table",
                "Play is on one table: hand-for-hand keeps two tables or more in step, so there "
                "is nothing to announce.",
                HAND_FOR_HAND,
            )
        return switch_hand_for_hand(locked, on=on, by=by)


def switch_hand_for_hand(locked: Tournament, *, on: bool, by: User | None) -> Tournament:
    """``set_hand_for_hand``'s write, the tournament row locked by the caller (the director,
    or the bust that leaves one player off the money, and the end of the hand that burst the
    bubble): the flag, the announcement, the clock's log."""
    locked.hand_for_hand = on
    if on:
        locked.hand_for_hand_announced_at = timezone.now()
        locked.hand_for_hand_hand += 1
    locked.save(update_fields=["hand_for_hand", "hand_for_hand_announced_at",
                               "hand_for_hand_hand", "updated_at"])  # fmt: skip
    ClockEvent.objects.create(
        tournament=locked, action="hand_for_hand_on" if on else "hand_for_hand_off",
        level_number=locked.level_number, by=by,
    )  # fmt: skip
    return locked


def advance_hand_for_hand(locked: Tournament, *, by: User) -> Tournament:
    """The next hand-for-hand hand begins, the tournament row locked by the caller: the desk's
    settle of the last table's hand, or the director (``table_hands.next_hand_for_hand``).
    Logged on the clock: each hand-for-hand hand starts there (``hand_for_hand_next``). When
    this hand burst the money bubble, hand-for-hand ends instead (``hand_for_hand_off``)."""
    if not locked.hand_for_hand:
        raise DrawError("not_hand_for_hand", "Hand-for-hand is off.", HAND_FOR_HAND)
    if bubble_burst_this_hand(locked):
        # The hand that burst the money bubble is over on every table: everyone out on it
        # shares the places it covered (TDA RP-8-A), and play goes back to its own pace.
        return switch_hand_for_hand(locked, on=False, by=by)
    locked.hand_for_hand_hand += 1
    locked.save(update_fields=["hand_for_hand_hand", "updated_at"])
    ClockEvent.objects.create(
        tournament=locked, action="hand_for_hand_next", level_number=locked.level_number, by=by
    )
    return locked
