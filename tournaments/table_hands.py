"""Hands at a tournament table: the desk deals the tournament's level to the seated entrants,
with their chips, the dead button moving by the rules; the award puts the chips back on the
entrants and a player left with none is out, in the same transaction.

Rules applied (each cited where it decides something):

- CR-BB.1 (TDA 32, dead button): tournament tables always play a dead button; the big blind
  moves one player to the left each hand and the small blind and button follow it; CR-BB.2: the
  small blind may be dead. The seats are planned by ``rules.engine.rotation``.
- CR-BB.9 (TDA: seats and the button by random draw): the table's first hand has its button
  drawn, high card, from a seed kept with the hand, unless the dealer reported it.
- The clock's level: the blinds and ante of the level the clock reads when the hand is dealt
  (``CR-TP.2``: a new level applies from the next hand); no hand is dealt in a break. The
  level's ante is paid as the tournament says (``Tournament.ante_type``): by every player, or
  once by the big blind as dead money (CR-DM.2, CR-DM.1), never by the room table's cash
  ante type.
- ``CR-TP.1``: every seated player is dealt in and posts blinds and antes, present or
  not; an empty seat is never dealt in. RRoP-TR.19: a player short of a blind or ante posts
  what they have (the engine). RRoP-14.14: the straddle is for non-tournament games.
- ``CR-TP.3``: players out on one hand finish in the order of the chips
  they started it with, more chips the better place; TDA-RP-8: during hand-for-hand, busts on
  the same hand-for-hand hand share the place (``eliminations.eliminate_locked``).

The TDA texts behind the last three are not in the bundled books, so Cardroom writes its
procedure down (the CR book's TP section, ``rules/rulebooks/procedures.toml``) and cites that.

Locking: a deal or an award holds the tournament row shared (``seating.share_tournament``),
then locks the room table (the deal) or the hand (the award, ``cardroom.tables.services``). It
reads the seating, the level and hand-for-hand, which only exclusive writers change, and writes
its own table's hand, button and players' chips, which no other deal or award touches (a
player sits at one table, and a player dealt into a hand not yet settled is not moved or put
out: ``seating.refuse_if_in_hand``; every other write of their chips, a count, a chip race, a
rebuy, holds the tournament exclusive). So deals and awards at different tables go on side by
side, and a balancing move, a table break or a chip count (``seating.lock_tournament``) waits
for those under way, and they for it. An award that changes the tournament itself holds it
exclusive: a player out (the finishing place, the payouts, the bounties, the balancing check,
perhaps the tournament's end, and rows on the tournament's audit chain, which link under its
exclusive lock: ``cardroom/core/audit.py``), or hand-for-hand, where the last table's award
moves the round on. It learns so once it holds the row shared (``TournamentWide``), so its transaction is
rolled back and the award is made again from the start with the row locked exclusive, never
turning the shared hold into an exclusive one: two awards doing so at once would deadlock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, DateTimeField, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.numbers import grouped
from cardroom.core.reasons import clean_reason
from cardroom.seats.hands import proposal_version
from cardroom.tables import services
from cardroom.tables.choices import Structure, default_raise_cap, smallest_chip_in_play
from cardroom.tables.models import Hand, HandStatus, Table
from rules.engine import citations
from rules.engine.button_draw import ButtonDraw
from rules.engine.errors import BadInput
from rules.engine.rotation import Previous, SeatState, plan_next_hand
from rules.engine.seat_order import first_blinds
from tournaments.clock.reading import level_dict, read_clock
from tournaments.colour_ups import smallest_chip
from tournaments.draws.errors import DrawError
from tournaments.eliminations import advance_hand_for_hand, eliminate_locked
from tournaments.models import (
    ClockEvent,
    DrawKind,
    DrawStatus,
    Entrant,
    EntrantStatus,
    Level,
    SeatAssignment,
    Tournament,
    TournamentAnte,
    TournamentStatus,
    TournamentTable,
    TournamentTableStatus,
)
from tournaments.money.bounties import hand_bounties
from tournaments.seating import HAND_FOR_HAND, desk_hands, lock_tournament, share_tournament

DEAD_BUTTON = "CR-BB.1"
NEW_LIMITS = citations.NEW_LEVEL_NEXT_HAND
DEALT_IN = citations.TOURNAMENT_DEALT_IN
SHORT_STACK = "RRoP-TR.19"
NO_STRADDLE = "RRoP-14.14"
SIMULTANEOUS = citations.SAME_HAND_BUSTS
BIG_BLIND_ANTE = "CR-DM.2"
CHIP_RACE = citations.CHIP_RACE


class TournamentWide(Exception):
    """An award holding the tournament shared changes the tournament itself (a player out,
    hand-for-hand's round): ``settle_tournament_hand`` rolls it back and makes it again with
    the tournament locked exclusive. Never seen outside this module."""


class CannotDeal(Refusal):
    """The tournament's state refuses a deal (a break, a player with no chips, hand-for-hand
    waiting for the other tables): a form error, a 422 ``cannot_deal`` in the API."""

    code = "cannot_deal"

    def __init__(self, message: str, *citations: str) -> None:
        super().__init__("table", message, *citations)


def tournament_table_for(table: Table, *, with_tournament: bool = True) -> TournamentTable | None:
    """The tournament table this room table is, in a tournament still in play (or None).
    ``with_tournament`` False: the tournament row is not read with it (a deal or an award reads
    it again under its hold, ``seating.share_tournament``)."""
    playing = TournamentTable.objects.in_play().filter(table_id=table.pk)
    if with_tournament:
        playing = playing.select_related("tournament")
    return playing.first()


def refuse_stranding_the_tournament(table: Table, changes: dict[str, Any]) -> None:
    """A room table a tournament plays at keeps its kind and at least the tournament's seats
    until the tournament is done there (``cardroom.tables.services.TABLE_CHANGE_CHECKS``)."""
    playing = tournament_table_for(table)
    if playing is None:
        return
    where = f"{playing.tournament} plays at {table}"
    errors = {}
    if "kind" in changes:
        errors["kind"] = f"{where}: it changes kind once the tournament is done there."
    if (seats := changes.get("seats")) is not None and seats < playing.seats:
        errors["seats"] = (
            f"{where} with {playing.seats} seats: it keeps them until it is done there."
        )
    if errors:
        raise services.TableInUse(errors)


def _level(tournament: Tournament) -> tuple[Level, str]:
    """The level the clock reads now (the last of the structure once it has run out)."""
    levels = list(tournament.levels.all())
    if not levels:
        raise CannotDeal(f"{tournament} has no blind structure.")
    reading = read_clock(tournament, levels)
    if reading.level is None:
        last = max(levels, key=lambda lv: lv.number)
        return last, reading.names.get(last.number, "")
    if reading.level.is_break:
        raise CannotDeal(
            f"{tournament} is on a break ({reading.remaining_label} left): no hands are dealt "
            "until the next level starts.",
            NEW_LIMITS,
        )
    return reading.level, reading.level_name


def tournament_game(
    table: Table, tournament: Tournament, level: Level, chip: int | None
) -> dict[str, Any]:
    """The table's game with the level's blinds and ante, paid as the tournament says (from
    every player, or a big-blind ante: the big blind's alone, CR-DM.2; never the room table's
    cash ante type), and no straddle (RRoP-14.14), in the tournament's structure. ``chip``:
    the smallest chip of the tournament's chip set at this level (``colour_ups.smallest_chip``;
    None without a chip set)."""
    game = table.engine_game()
    for key in ("big_blind_ante", "small_bet", "big_bet", "raise_cap", "pot_round_unit"):
        game.pop(key, None)
    small_as_big = game.pop("pot_limit_small_blind_as_big", False)
    game.update(
        structure=tournament.structure,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        straddle=0,
        # CR-CU.1: the tournament's chip set, once it has one, says the smallest chip that
        # plays at this level (a colour-up's chip gone from the first hand after its break).
        min_chip=chip
        or table.min_chip
        or smallest_chip_in_play(level.small_blind, level.big_blind, level.ante),
    )
    if tournament.ante_type == TournamentAnte.BIG_BLIND and level.ante:
        # The tournament takes the level's ante from the big blind alone, as dead money
        # (CR-DM.2, CR-DM.1): one ante for the table, not one from every player.
        game.update(ante=0, big_blind_ante=level.ante)
    if tournament.structure == Structure.FIXED_LIMIT:
        game.update(
            small_bet=level.big_blind,
            big_bet=2 * level.big_blind,
            raise_cap=default_raise_cap(tournament.variant),
        )
    if tournament.structure == Structure.POT_LIMIT:
        game["pot_limit_small_blind_as_big"] = small_as_big
    return game


def _seated(ttable: TournamentTable) -> list[SeatAssignment]:
    return list(
        SeatAssignment.objects.filter(table=ttable, ended_at__isnull=True)
        .select_related("entrant")
        .order_by("seat")
    )


def _dealt_hands(table: Table, tournament: Tournament) -> QuerySet[Hand]:
    """This tournament's hands at the room table dealt from its seating, the last first."""
    return desk_hands(tournament).filter(table=table).order_by("-number")


def _final_table_draws(tournament: Tournament) -> QuerySet[Any]:
    """The final table's draws dealt (TDA RP-9), the latest first: everyone sits afresh and the
    button starts again from the one the dealer reports (high card), not from the hands
    before it."""
    return tournament.draws.filter(kind=DrawKind.FINAL_TABLE, status=DrawStatus.REVEALED).order_by(
        "-revealed_at"
    )


def _redrawn_at(tournament: Tournament) -> datetime | None:
    """When the final table was drawn (``_final_table_draws``), or None."""
    return _final_table_draws(tournament).values_list("revealed_at", flat=True).first()


def _previous(table: Table, tournament: Tournament) -> Previous | None:
    """The last awarded hand's button and blinds (a voided hand is redealt as it was), since
    the final table's redraw when there was one (``_redrawn_at``, as a subquery: one query)."""
    redrawn = _final_table_draws(tournament).values("revealed_at")[:1]
    # ``desk_hands`` starts at the tournament's creation: without a redraw that bound stands.
    since = Coalesce(Subquery(redrawn), Value(tournament.created_at), output_field=DateTimeField())
    last = (
        _dealt_hands(table, tournament)
        .filter(awarded_at__isnull=False, started_at__gte=since)
        .values_list("button", "blinds")
        .first()
    )
    if last is None:
        return None
    button, blinds = last
    if blinds is None:
        return None
    return Previous(button=button, small=blinds.get("small"), big=blinds["big"])


def button_seed(table: Table, ttable: TournamentTable) -> str:
    """The seed of the draw for the button at a tournament table's first hand (CR-BB.9): the
    room table's stored seed, for this tournament's table (and after a final table's redraw,
    TDA RP-9, a draw of its own), so each start draws anew."""
    redrawn = _redrawn_at(ttable.tournament)
    seed = f"{table.button_seed}:tournament {ttable.tournament_id} table {ttable.number}"
    return seed + (f":redrawn {redrawn.isoformat()}" if redrawn is not None else "")


@dataclass(frozen=True)
class _Placed:
    """Where the next hand's button and blinds fall (``small`` None: dead), the rules that
    placed them, and the draw for the button that placed a table's first one (CR-BB.9) with the
    seed it was drawn from."""

    button: int
    small: int | None
    big: int
    rules: tuple[str, ...]
    draw: ButtonDraw | None = None
    seed: str = ""


def _plan(
    table: Table, ttable: TournamentTable, occupied: list[int], button: int | None, level: Level
) -> _Placed:
    """The next hand's button and blinds: from the last hand by the dead button, or at the
    table's first hand from the button the dealer reported (high card for the button) or
    from the draw for it."""
    previous = _previous(table, ttable.tournament)
    if previous is None and button is not None:
        first = first_blinds(button, occupied)
        heads_up = (citations.HEADS_UP,) if len(occupied) == 2 else ()
        return _Placed(first.button, first.small, first.big, (DEAD_BUTTON, *heads_up))
    # CR-BB.9 (TDA: seats and the button by random draw): the table's first hand, with no
    # button the dealer has reported, has its button drawn, high card, from a stored seed.
    seed = button_seed(table, ttable) if previous is None else ""
    draw = random.Random(seed) if previous is None else None
    try:
        plan = plan_next_hand(
            seats=[SeatState(seat=s, active=True) for s in occupied],
            previous=previous,
            rule="dead",
            missed_blinds="post",
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            draw=draw,
        )
    except BadInput as exc:
        raise CannotDeal(exc.message, DEAD_BUTTON) from exc
    return _Placed(plan.button, plan.small, plan.big, plan.citations, plan.draw, seed)


def propose_tournament_hand(
    table: Table, tournament_table: TournamentTable | None = None
) -> dict[str, Any]:
    """The next hand at a tournament table: button and blinds (dead button), the seated
    entrants with their chips and names, the level from the clock. ``CannotDeal`` when the
    tournament refuses a deal (a break, a player with no chips, fewer than two players).
    ``tournament_table``: ``tournament_table_for(table)``, when the caller has just read it."""
    return _proposal(table, tournament_table)[0]


def refuse_odd_chips(seated: list[SeatAssignment], unit: int | None) -> None:
    """After a colour-up every count is a whole number of the smallest chip in play (CR-CU.1):
    a table whose chips have not been raced off (CR-CU.3) waits for its race, or a count
    corrected, rather than play chips that no longer exist."""
    odd = [a for a in seated if unit and a.entrant.chips % unit]
    if odd and unit:
        raise CannotDeal(
            f"{odd[0].entrant.name} in seat {odd[0].seat} has {grouped(odd[0].entrant.chips)}, "
            f"not a whole number of {grouped(unit)} chips (the smallest in play): run the chip "
            "race at this table, or correct the count.",
            CHIP_RACE,
        )


def _proposal(
    table: Table, ttable: TournamentTable | None = None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The proposal (``propose_tournament_hand``) and what the hand keeps of the draw for the
    button when one placed it: shown without its seed, kept with the seed it was drawn from.
    ``ttable``: the table's ``tournament_table_for``, read just now (else read here)."""
    ttable = ttable or tournament_table_for(table)
    if ttable is None:
        raise CannotDeal(f"{table} is not a table of a tournament in play.")
    tournament = ttable.tournament
    level, level_name = _level(tournament)
    seated = _seated(ttable)
    broke = [a for a in seated if a.entrant.chips == 0]
    if broke:
        raise CannotDeal(
            f"{broke[0].entrant.name} in seat {broke[0].seat} has no chips: put the player out "
            "before the next deal.",
            SIMULTANEOUS,
        )
    if len(seated) < 2:
        raise CannotDeal(f"{ttable} has fewer than two players: nothing to deal.", DEALT_IN)
    occupied = [a.seat for a in seated]
    placed = _plan(table, ttable, occupied, ttable.button, level)
    citations = [*placed.rules, DEAD_BUTTON, DEALT_IN, NEW_LIMITS, NO_STRADDLE]
    chip = smallest_chip(tournament, level.number)
    game = tournament_game(table, tournament, level, chip)
    refuse_odd_chips(seated, chip)
    if game.get("big_blind_ante"):
        citations.append(BIG_BLIND_ANTE)
    forced = level.big_blind + level.ante  # the big blind's, with either kind of ante
    if any(a.entrant.chips < forced for a in seated):
        citations.append(SHORT_STACK)
    hold = ""
    if tournament.hand_for_hand:
        citations.append(HAND_FOR_HAND)
        hold = _waiting_for_the_others(table, tournament)
    proposal: dict[str, Any] = {
        "button": placed.button,
        "blinds": {"small": placed.small, "big": placed.big},
        "seats": [{"seat": a.seat, "stack": a.entrant.chips} for a in seated],
        "posts": [],
        "names": {str(a.seat): a.entrant.name for a in seated},
        "entrants": {str(a.seat): a.entrant.number for a in seated},
        "waiting": [],
        "missed": {},
        "citations": list(dict.fromkeys(citations)),
        "level": level_dict(level, level_name, tournament.ante_type),
        "game": game,
        "tournament": tournament.pk,
        "table_number": ttable.number,
        # Hand-for-hand: this table has played its hand of the round, the others have not
        # all finished theirs: the desk shows the next hand with Deal held, and why.
        "hold": hold,
        # The table's first hand: the draw for the button (CR-BB.9), shown at the desk.
        "first_button": placed.draw is not None,
        "button_draw": placed.draw.shown() if placed.draw is not None else None,
    }
    # What the dealer saw: any change to it (a player moved in or out, chips, the level, the
    # last hand) changes the version, so a deal confirming an old proposal is a 409.
    proposal["version"] = proposal_version(proposal)
    kept = placed.draw.record(placed.seed) if placed.draw is not None else None
    return proposal, kept


@dataclass(frozen=True)
class HandForHandRound:
    """Hand-for-hand (TDA RP-8): the hand being played, the tables in play that deal (two
    players or more) which have finished it (dealt and pushed) and those which have not."""

    hand: int
    played: tuple[TournamentTable, ...]
    waiting: tuple[TournamentTable, ...]

    @property
    def finished(self) -> bool:
        return not self.waiting

    @property
    def count(self) -> str:
        """How many of the tables have played, "3 of 4"."""
        return f"{len(self.played)} of {len(self.played) + len(self.waiting)}"

    @property
    def waiting_names(self) -> str:
        """The tables still to play the hand by their one name: "Table 101, Table 102"."""
        return ", ".join(t.name for t in self.waiting)


def hand_for_hand_round(tournament: Tournament) -> HandForHandRound | None:
    """Which tables have played the hand-for-hand hand (None while hand-for-hand is off)."""
    if not tournament.hand_for_hand:
        return None
    dealing = (
        tournament.tables.in_play()
        .filter(assignments__ended_at__isnull=True)
        .annotate(players=Count("assignments"))
        .filter(players__gte=2)
        .select_related("table")
        .order_by("number")
    )
    started = _round_started(tournament)
    played: list[TournamentTable] = []
    waiting: list[TournamentTable] = []
    for ttable in dealing:
        hand = _played_this_round(ttable.table, tournament, started)
        (played if hand is not None and hand.settled else waiting).append(ttable)
    return HandForHandRound(tournament.hand_for_hand_hand, tuple(played), tuple(waiting))


def hand_for_hand_mark(tournament: Tournament) -> str:
    """What changes whenever a desk waiting in hand-for-hand should look again: the hand being
    played and how many hands of it have been pushed (two queries, however many tables)."""
    if not tournament.hand_for_hand:
        return ""
    started = _round_started(tournament)
    pushed = desk_hands(tournament).filter(awarded_at__isnull=False)
    if started is not None:
        pushed = pushed.filter(started_at__gte=started)
    return f"h{tournament.hand_for_hand_hand}.{pushed.count()}"


def _waiting_for_the_others(table: Table, tournament: Tournament) -> str:
    """Why this table's Deal waits (empty when it does not): it has played its hand of the
    round and the round is not released."""
    if _played_this_round(table, tournament, _round_started(tournament)) is None:
        return ""
    state = hand_for_hand_round(tournament)
    if state is None or state.finished:
        return ""
    return f"Waiting for the other tables: hand-for-hand, {state.count} have played."


def next_hand_for_hand(*, tournament: Tournament, by: User, force: bool = False) -> Tournament:
    """The director releases the next hand-for-hand hand. Refused while a table in play has not
    finished (pushed) its hand of this one, naming it; ``force``: the director was asked
    ("3 of 4 tables have played: release the next hand anyway?") and said yes."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        state = hand_for_hand_round(locked)
        if state is not None and not state.finished and not force:
            raise DrawError(
                "hand_not_finished",
                f"Hand-for-hand hand {state.hand}: {state.count} tables have played "
                f"({state.waiting_names} not yet). The next hand is released when every "
                "table has pushed this one.",
                HAND_FOR_HAND,
            )
        return advance_hand_for_hand(locked, by=by)


def _round_started(tournament: Tournament) -> datetime | None:
    """When the hand-for-hand hand being played began (switched on, or the last advance)."""
    return (
        ClockEvent.objects.filter(
            tournament=tournament, action__in=["hand_for_hand_on", "hand_for_hand_next"]
        )
        .order_by("-at", "-id")
        .values_list("at", flat=True)
        .first()
    )


def _played_this_round(
    table: Table, tournament: Tournament, started: datetime | None
) -> Hand | None:
    """The table's hand (not voided) dealt since ``started`` (``_round_started``)."""
    hands = _dealt_hands(table, tournament)
    if started is not None:
        hands = hands.filter(started_at__gte=started)
    return hands.exclude(state=HandStatus.VOIDED).first()


def deal_tournament_hand(
    *,
    table: Table,
    by: User,
    button: int | None = None,
    small: int | None = None,
    big: int | None = None,
    reason: str = "",
    version: str = "",
    tournament_table: TournamentTable | None = None,
) -> Hand:
    """Deal the proposal, or the dealer's correction of its button or blinds (``small`` 0: a
    dead small blind; recorded with the reason, which a correction needs). With ``version``
    from the proposal, a proposal changed since (a player moved, a new level) is a 409. The
    tournament row is held shared first, so the seating read is the seating dealt while deals
    at other tables go on; the table's button is updated to the hand's. ``tournament_table``: ``tournament_table_for(table)``,
    when the caller has just read it (the proposal reads it again under the lock)."""
    ttable = tournament_table or tournament_table_for(table)
    if ttable is None:
        raise CannotDeal(f"{table} is not a table of a tournament in play.")
    with transaction.atomic():
        # Shared: the deal reads the seating and hand-for-hand's round and writes only this
        # table's hand and button (the table's row lock keeps a second deal here out).
        tournament = share_tournament(ttable.tournament_id)
        if tournament.hand_for_hand:
            played = _played_this_round(table, tournament, _round_started(tournament))
            if played is not None:
                raise CannotDeal(
                    f"Hand-for-hand: {played} is this table's hand {tournament.hand_for_hand_hand}"
                    "; the next is dealt when every table has finished it.",
                    HAND_FOR_HAND,
                )
        # The seating as it stands under the hold: the table still in play (a break or the
        # tournament's end, exclusive writers, may have come first), read without the
        # tournament, which the hold has just read.
        fresh = TournamentTable.objects.filter(
            pk=ttable.pk, status=TournamentTableStatus.ACTIVE
        ).first()
        if fresh is None or tournament.status == TournamentStatus.COMPLETE:
            raise CannotDeal(f"{table} is not a table of a tournament in play.")
        fresh.tournament = tournament
        proposal, drawn = _proposal(table, fresh)
        if version and version != proposal["version"]:
            raise Conflict(
                "seat_map_changed",
                f"{ttable} changed since the proposal (seats, chips or level): look again "
                "and deal.",
            )
        want_button: int = proposal["button"] if button is None else button
        want_big: int = big or proposal["blinds"]["big"]
        chosen = {
            "button": want_button,
            "small": proposal["blinds"]["small"] if small is None else (small or None),
            "big": want_big,
        }
        proposed = {
            "button": proposal["button"],
            "small": proposal["blinds"]["small"],
            "big": proposal["blinds"]["big"],
        }
        correction: dict[str, Any] = {}
        if chosen != proposed:
            reason = clean_reason(reason, "Say why the button or blinds differ from the proposal.")
            correction = {"proposed": proposed, "reason": reason}
        hand = services.start_hand(
            table=table, by=by, button=want_button, seats=proposal["seats"],
            straddle=False, game=proposal["game"],
            blinds={"small": chosen["small"], "big": want_big}, posts=[],
            names=proposal["names"], correction=correction,
            button_draw=drawn, savepoint=False,
        )  # fmt: skip
        TournamentTable.objects.filter(pk=ttable.pk).update(button=hand.button)
    return hand


def settle_tournament_hand(
    *,
    hand: Hand,
    by: User,
    expected_seq: int,
    showdown: dict[str, Any] | None,
    tournament_table: TournamentTable | None = None,
) -> Hand:
    """Push the pots (``services.award_hand``) and put the chips back on the entrants; a player
    left with none is out in the same transaction, those who started the hand with more chips
    finishing higher. Hand-for-hand: the last table to finish the hand moves play on to the
    next one. The tournament row is held before the hand: shared, or exclusive when the award
    puts a player out or hand-for-hand is on (``TournamentWide``). Called outside any
    transaction holding the tournament. ``tournament_table``:
    ``tournament_table_for(hand.table)``, when the caller has just read it."""
    ttable = tournament_table or tournament_table_for(hand.table)
    if ttable is None or not hand.names:
        raise Conflict("not_tournament_hand", f"{hand} was not dealt from a tournament's seating.")

    def attempt(shared: bool) -> Hand:
        return _settle(
            ttable, shared=shared, hand=hand, by=by, expected_seq=expected_seq, showdown=showdown
        )

    try:
        return attempt(shared=True)
    except TournamentWide:
        # Rolled back, the shared hold with it (PostgreSQL's manual, "Explicit Locking": a
        # lock taken after a savepoint is released when the savepoint is rolled back, row
        # locks as table locks; so too inside a caller's transaction): the award again, from
        # the start, the tournament locked exclusive.
        return attempt(shared=False)


def _settle(
    ttable: TournamentTable,
    *,
    shared: bool,
    hand: Hand,
    by: User,
    expected_seq: int,
    showdown: dict[str, Any] | None,
) -> Hand:
    """The award in one transaction, the tournament held ``shared`` (``TournamentWide`` as soon
    as it would change the tournament) or locked exclusive."""
    with transaction.atomic():
        if shared:
            tournament = share_tournament(ttable.tournament_id)
            if tournament.hand_for_hand:
                # TDA RP-8: the last table to push the round's hand moves it on; two awards
                # holding the row shared would each see the other's table still playing.
                raise TournamentWide
        else:
            tournament = lock_tournament(ttable.tournament_id)

        def apply(locked: Hand, result: dict[str, Any]) -> None:
            if shared and any(entry["stack"] == 0 for entry in result["stacks"]):
                raise TournamentWide  # a player out: a place, the money, perhaps the end
            _apply_award(tournament, ttable, locked, result, by)

        settled = services.award_hand(
            hand=hand, by=by, expected_seq=expected_seq, showdown=showdown, after=apply,
            savepoint=False,
        )  # fmt: skip
        state = hand_for_hand_round(tournament)
        if state is not None and tournament.status != TournamentStatus.COMPLETE and state.finished:
            advance_hand_for_hand(tournament, by=by)
    return settled


def _apply_award(
    tournament: Tournament,
    ttable: TournamentTable,
    hand: Hand,
    result: dict[str, Any],
    by: User,
) -> None:
    seated = {a.seat: a.entrant for a in _seated(ttable)}
    started = {entry["seat"]: entry["stack"] for entry in hand.seats}
    busted: list[tuple[int, int, Entrant]] = []
    counts: list[Entrant] = []
    for entry in result["stacks"]:
        seat, chips = entry["seat"], entry["stack"]
        entrant = seated.get(seat)
        if entrant is None or entrant.name != hand.names.get(str(seat)):
            raise Conflict(
                "seating_changed",
                f"Seat {seat} at {ttable} has changed since {hand} was dealt: the director "
                "sorts out the chips before the pots are pushed.",
            )
        # The count alone is written (the entrants read above keep their rows as read).
        counts.append(Entrant(pk=entrant.pk, chips=chips))
        if chips == 0:
            busted.append((started[seat], seat, entrant))
    # Every count in one write, however many players were dealt in.
    Entrant.objects.bulk_update(counts, ["chips"])
    # Fewest chips at the start of the hand out first, so the bigger stack finishes higher.
    # Each is seated as read with the tournament locked: putting one out changes no other's
    # status.
    out = []
    for _, seat, entrant in sorted(busted, key=lambda b: (b[0], b[1])):
        if entrant.status == EntrantStatus.SEATED:
            eliminate_locked(tournament, entrant, by=by, hand=hand)
            out.append((seat, entrant))
    # Their bounties to the winners of the pots they lost (and the winner's own head when the
    # hand ended the tournament), in the same transaction.
    # Nobody at zero: no bounty changes hands and the tournament goes on (two players or more
    # kept chips), so the bounty rules' reads are skipped.
    if busted:
        hand_bounties(tournament, hand=hand, result=result, busted=out, seated=seated, by=by)
