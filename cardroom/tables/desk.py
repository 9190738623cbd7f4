"""What the betting desk shows: the hand replayed by the engine, seat by seat, with the
options of the player to act and, for each option refused, the rule that refuses it; actions
made out of turn held on their seat, and when each became binding or void (TDA-53)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.utils.text import format_lazy

from cardroom.core.changes import shared_cache
from cardroom.core.numbers import grouped, grouped_lazy
from cardroom.tables.choices import STANDARD_CHIPS
from cardroom.tables.models import Hand, HandAction, LoggedAction
from cardroom.tables.services import engine_blinds, engine_posts, engine_state, read_hand
from rules.engine.config import GameConfig
from rules.engine.errors import IllegalAction
from rules.engine.out_of_turn import CITATIONS as OUT_OF_TURN_CITATIONS
from rules.engine.out_of_turn import Held, play_action
from rules.engine.seat_order import next_after
from rules.engine.state import (
    Action,
    ActionKind,
    HandState,
    Seat,
    apply,
    legal_options,
    pots,
    snapshot,
    start_hand,
)

#: The largest stack the desk takes: a bet or raise is stored as its total ("to") in
#: ``HandAction.to``, a PositiveIntegerField, whose column holds at most 2^31 - 1 on
#: PostgreSQL. A stack of 10^12 was accepted and the first large raise then overflowed that
#: column (a 500). A stack bounded by the column bounds every amount of the hand: no player
#: can raise to more than they hold. (The betting contract's own limit, 10^15 chips, is for
#: the stateless API; a live table's stacks must also fit the database.)
MAX_STACK = 2_147_483_647
STACK_ERROR = format_lazy("A stack is at most {} chips.", grouped_lazy(MAX_STACK))
AMOUNT_ERROR = format_lazy("An amount is at most {} chips.", grouped_lazy(MAX_STACK))


def desk_view(hand: Hand, state: HandState | None = None) -> dict[str, Any]:
    """The hand as the desk shows it; ``state``: the hand already replayed (``engine_state``),
    when the caller has it. The actions are those the request read (``read_hand``)."""
    actions = read_hand(hand).actions
    state = engine_state(hand) if state is None else state
    snap = snapshot(state)
    options = legal_options(state)
    held = {entry.seat: entry for entry in state.held}
    seats = []
    names, blinds = hand.names or {}, hand.blinds or {}
    straddler = straddler_of(hand, state)
    for entry in hand.seats:
        number = entry["seat"]
        folded, all_in = number in state.folded, state.stacks[number] == 0
        seats.append(
            {
                "seat": number,
                "start": entry["stack"],
                "stack": state.stacks[number],
                "wager": state.street_wager.get(number, 0),
                "folded": folded,
                "all_in": all_in and not folded,
                "button": number == hand.button,
                "name": names.get(str(number), ""),
                "blind": "SB"
                if number == blinds.get("small")
                else "BB"
                if number == blinds.get("big")
                else "",
                "straddle": number == straddler,
                "to_act": number == state.to_act,
                "held": held_words(held[number].action) if number in held else None,
                # Who may be entered out of turn: a player still in with chips, not the one
                # to act (the engine refuses a second held action: TDA-53).
                "may_act_out_of_turn": state.to_act is not None
                and number != state.to_act
                and not folded
                and not all_in,
            }
        )
    why: dict[str, IllegalAction] = {}
    if options is not None and state.to_act is not None:
        if not options.check:
            why["check"] = refusal_of(state, Action(state.to_act, ActionKind.CHECK))
        if options.raise_ is None:
            target = max(state.current_bet, 0) + max(state.min_raise_increment, 1)
            why["raise"] = refusal_of(state, Action(state.to_act, ActionKind.RAISE, target))
    return {
        "snapshot": snap,
        "options": options,
        "why": why,
        "seats": seats,
        "out_of_turn_seats": [s["seat"] for s in seats if s["may_act_out_of_turn"]],
        "out_of_turn_citations": OUT_OF_TURN_CITATIONS,
        "log": action_log(hand, actions),
        "to_act": state.to_act,
        "street": state.street,
        "facing_bet": state.current_bet > 0,
        # Missed blinds posted dead (CR-BB.3) are in the pot but in front of nobody.
        "dead": sum(int(post.get("dead") or 0) for post in hand.posts or []),
    }


logger = logging.getLogger(__name__)

#: How long a device's tap is remembered for its own repeat: a double tap, or a key pressed
#: again before the answer came, arrives within seconds.
TAP_MEMORY_SECONDS = 120


def _tap_key(hand_id: int, seq: int) -> str:
    return f"cardroom:desk-tap:{hand_id}:{seq}"


def remember_tap(action: HandAction, device: str) -> None:
    """Which device (its session) entered the action at this step of its hand, in the shared
    cache: every web process can tell that device's own repeat from another device's tap.

    The broker's Redis when there is one (a round trip), not the database cache, whose every
    ``set`` also counts the cache table's rows (3 queries on each action). A cache outage loses
    only the memory: a repeat is then told as another device's tap, which the desk shows as
    the hand moved on, never as a second action."""
    if not device:
        return
    try:
        shared_cache().set(_tap_key(action.hand_id, action.seq), device, TAP_MEMORY_SECONDS)
    except Exception:  # any cache outage: see above
        logger.warning("desk tap not remembered", exc_info=True)


def own_repeat(
    hand: Hand, *, device: str, by: Any, expected_seq: int, seat: int, action: str,
    to: int | None, out_of_turn: bool = False,
) -> bool:  # fmt: skip
    """Whether a post refused as stale is this device's own tap sent twice (a double tap, or
    a key pressed again before the first answer came): the hand moved exactly one step since,
    and that step is this same action, entered by this log-in from this device (its session)
    and not voided. The desk then shows the hand as it is, without "Someone else got there
    first"; any other change since, or the same action from another device, is said."""
    if not device or hand.seq != expected_seq + 1:
        return False
    try:
        tapped = shared_cache().get(_tap_key(hand.pk, expected_seq + 1))
    except Exception:  # a cache outage: no memory of the tap (``remember_tap``)
        logger.warning("desk tap not read", exc_info=True)
        return False
    if tapped != device:
        return False
    last = hand.actions.filter(seq=expected_seq + 1, voided_at__isnull=True).first()
    return (
        last is not None
        and last.entered_by_id == getattr(by, "pk", None)
        and (last.seat, last.action, last.to, last.out_of_turn) == (seat, action, to, out_of_turn)
    )


def straddler_of(hand: Hand, state: Any) -> int | None:
    """The seat that posted the straddle in ``hand``, or None: the first seat dealt in after
    the big blind, none heads-up or behind a dead small blind, and none when the player did
    not post it (the hand's game then has straddle 0) or could not cover it (the bring-in
    stayed the big blind). ``citations.NL_STRADDLE`` (RRoP-14.14), as the engine posts it."""
    amount = int((hand.game or {}).get("straddle") or 0)
    dealt = sorted(entry["seat"] for entry in hand.seats)
    big, small = getattr(state, "bb_seat", None), getattr(state, "sb_seat", None)
    if not amount or len(dealt) < 3 or small is None or big is None or big not in dealt:
        return None
    seat = next_after(big, dealt)
    return seat if seat != small and state.bring_in == amount else None


def hand_chip_set(hand: Hand | None, table: Any) -> list[int]:
    """The chips the chip reader offers for ``hand``: the stocked denominations from the
    smallest chip that plays in the hand's own game (a tournament level's 25/50 plays no 1s
    or 5s, though the room's table was set up 1/2), never a chip smaller than that
    (``citations.SMALLEST_CHIP``); the table's set between hands."""
    smallest = int((hand.game or {}).get("min_chip") or 0) if hand is not None else 0
    if not smallest:
        return list(table.chip_set)
    return [chip for chip in STANDARD_CHIPS if chip >= smallest][:6]


#: A chip reading's action, as the dealer says it.
READING_WORDS = {
    "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise", "all_in": "All-in",
}  # fmt: skip


def reading_words(action: str, to: int) -> str:
    """What a chip reading counts as: "Raise to 600", "Call to 200" (the street's total, as the
    action panel's raise box takes it), "Check"."""
    word = READING_WORDS.get(action, action.replace("_", " ").capitalize())
    return word if action == "check" else f"{word} to {grouped(to)}"


def refusal_of(state: Any, action: Action) -> IllegalAction:
    """Ask the engine why an option is not offered: try it on a copy and keep the refusal."""
    trial = state.copy()
    try:
        apply(trial, action)
    except IllegalAction as refusal:
        return refusal
    return IllegalAction("unavailable", "Not available now.")


def held_words(action: Action) -> str:
    """A held action as the dealer says it: "raise to 12,000", "call", "all-in"."""
    kind = ActionKind(action.kind)
    if kind is ActionKind.RAISE or kind is ActionKind.BET:
        to = grouped(action.to or 0)
        return f"{kind} to {to}" if kind is ActionKind.RAISE else f"bet {to}"
    return "all-in" if kind is ActionKind.ALL_IN else str(kind)


def action_log(hand: Hand, actions: Sequence[HandAction | LoggedAction]) -> list[dict[str, Any]]:
    """Each action entered, in the dealer's words with its amount ("Seat 1 calls 44"): the
    hand is replayed so a call or an all-in states the chips it put in. A voided action is
    worded against the state it was entered in (voids take back the last action, so the
    live actions before it are exactly what the dealer saw). An action made out of turn is
    held; the action whose turn-passing made a held one binding or void says so, with the
    rule (TDA-53)."""
    seats = [Seat(seat=entry["seat"], stack=entry["stack"]) for entry in hand.seats]
    # Dealt as the hand was: its blinds (a dead button or small blind) and missed-blind posts.
    state = start_hand(
        GameConfig.from_dict(hand.game),
        hand.button,
        seats,
        engine_blinds(hand.blinds),
        engine_posts(hand.posts),
    )
    names = hand.names or {}
    raises: list[tuple[int, int, str, str]] = []  # (index, seat, street, verb): the bet grew
    held_on: dict[int, str] = {}  # a held action's index: the street it was made on
    entries, index = [], 0
    for entry in actions:
        live = entry.voided_at is None
        trial = state if live else state.copy()
        before, street, bet = list(trial.held), trial.street, trial.current_bet
        text = log_line(trial, index, entry, names)
        notes = []
        if any(h.index == index for h in trial.held):
            held_on[index] = street
        elif trial.street == street and trial.street_wager.get(entry.seat, 0) > bet:
            # The entry itself put in more than the bet: the action to every later seat
            # changed (a binding held action it set off is not its doing).
            verb = "went all-in" if entry.action == "all_in" else "bet" if bet == 0 else "raised"
            raises.append((index, entry.seat, street, verb))
        for settled in before:
            if settled in trial.held:
                continue
            notes.append(settle_note(settled, settled in trial.voided, held_on, raises, names))
        entries.append({"action": entry, "text": text, "notes": notes})
        if live:
            index += 1
    return entries


def settle_note(
    held: Held,
    void: bool,
    held_on: dict[int, str],
    raises: list[tuple[int, int, str, str]],
    names: dict[str, str] | None = None,
) -> str:
    """A held action settled (TDA-53): "Seat 6 Ana Ruiz's out-of-turn raise to 800 stands:
    ...", or "... is void: seat 5 Bo Chen raised; seat 6 has every option"."""
    seat, words = held.seat, held_words(held.action)
    who = seat_words(seat, names)
    if not void:
        return f"{who}'s out-of-turn {words} stands: the action to it did not change"
    street = held_on.get(held.index)
    changed = next((r for r in raises if r[0] > held.index and r[2] == street), None)
    if changed is None:
        return f"{who}'s out-of-turn {words} is void: its turn never came on the {street}"
    return (
        f"{who}'s out-of-turn {words} is void: {seat_words(changed[1], names, lower=True)}"
        f" {changed[3]}; seat {seat} has every option"
    )


def seat_words(seat: int, names: dict[str, str] | None = None, *, lower: bool = False) -> str:
    """A seat as the desk names it: "Seat 1 Ana Ruiz" when the hand knows who sat there (the
    seat map's names, kept on the hand), else "Seat 1"."""
    name = (names or {}).get(str(seat), "")
    return f"{'seat' if lower else 'Seat'} {seat}" + (f" {name}" if name else "")


#: Each action's words, never its code ("all_in" is "goes all-in").
ACTION_WORDS = {
    "fold": "folds",
    "check": "checks",
    "call": "calls",
    "bet": "bets",
    "raise": "raises",
    "all_in": "goes all-in",
}


def log_line(
    state: HandState,
    index: int,
    entry: HandAction | LoggedAction,
    names: dict[str, str] | None = None,
) -> str:
    """Play ``entry`` on ``state`` (held if made out of turn) and say what it did, naming the
    player where the hand knows them ("Seat 1 Ana Ruiz goes all-in for 400")."""
    seat = entry.seat
    who = seat_words(seat, names)
    facing = state.current_bet
    wager, stack = state.street_wager.get(seat, 0), state.stacks.get(seat, 0)
    try:
        action = Action.from_dict(entry.as_engine_dict())
        refused = play_action(state, index, action)
    except (IllegalAction, ValueError):
        words = ACTION_WORDS.get(entry.action, entry.action.replace("_", " "))
        amount = f" {grouped(entry.to)}" if entry.to is not None else ""
        return f"{who} {words}{amount}"
    if refused is None and any(h.index == index for h in state.held):
        return f"{who}: {held_words(action)} out of turn, held until its turn"
    paid = stack - state.stacks[seat]
    kind = ActionKind(entry.action)
    if kind is ActionKind.FOLD:
        return f"{who} folds"
    if kind is ActionKind.CHECK or (kind is ActionKind.CALL and paid == 0):
        return f"{who} checks"
    if kind is ActionKind.ALL_IN or paid == stack:
        # The chips in front of the player once all-in: this street's whole wager.
        return f"{who} goes all-in for {grouped(wager + paid)}"
    if kind is ActionKind.CALL:
        return f"{who} calls {grouped(paid)}"
    if facing == 0:
        return f"{who} bets {grouped(wager + paid)}"
    return f"{who} raises to {grouped(wager + paid)}"


def correction_words(hand: Hand) -> str:
    """The dealer's correction of the proposed button and blinds, as a floor person reviewing
    the hand reads it: "Corrected by staff: button to seat 4 (proposed: seat 3) — reason"; ""
    when the hand was dealt as proposed. Plain text: the template escapes the reason."""
    correction = hand.correction or {}
    if not correction:
        return ""
    proposed = correction.get("proposed") or {}
    # Cash hands keep the proposal's blinds as {"small", "big"}; tournament hands flat.
    was_blinds = proposed.get("blinds") or {
        "small": proposed.get("small"),
        "big": proposed.get("big"),
    }
    now_blinds = hand.blinds or {}

    def where(seat: Any) -> str:
        return "dead" if seat is None else f"seat {seat}"

    changes = []
    if proposed.get("button") != hand.button:
        changes.append(f"button to seat {hand.button} (proposed: {where(proposed.get('button'))})")
    for key, word in (("small", "small blind"), ("big", "big blind")):
        now, was = now_blinds.get(key), was_blinds.get(key)
        if now != was:
            to = "dead" if now is None else f"to seat {now}"
            changes.append(f"{word} {to} (proposed: {where(was)})")
    what = "; ".join(changes) or "button and blinds"
    reason = str(correction.get("reason") or "").strip()
    return f"Corrected by {hand.started_by}: {what}" + (f" — {reason}" if reason else "")


# --- showdown: the dealer taps the winners of each pot ----------------------------------------

#: Variants with a low half (the pot split high and low).
HIGH_LOW_VARIANTS = frozenset({"omaha_hilo", "stud_hilo"})


def pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def showdown_view(
    hand: Hand, *, variant: str, run_it_twice: bool, state: HandState | None = None
) -> dict[str, Any] | None:
    """What the desk shows once the betting is over and the pots are not yet pushed: each
    pot with its amount and the seats eligible for it (a pot with one eligible player needs
    no tap), whether the game has a low half and whether the table runs it twice; or, when
    everyone else folded, the one seat the pots go to. None while betting goes on.
    ``state``: the hand already replayed, when the caller has it."""
    if hand.awarded_at is not None or hand.state == "voided":
        return None
    state = engine_state(hand) if state is None else state
    if state.street not in ("showdown", "complete"):
        return None
    names = hand.names or {}
    live = [s for s in state.seat_order if s not in state.folded]
    if state.street == "complete":
        return {"complete": True, "winner": live[0], "name": names.get(str(live[0]), "")}
    pot_rows = []
    for index, pot in enumerate(pots(state)):
        pot_rows.append(
            {
                "index": index,
                "name": pot_name(index),
                "amount": pot.amount,
                "eligible": [{"seat": s, "name": names.get(str(s), "")} for s in pot.eligible],
                "alone": len(pot.eligible) == 1,
            }
        )
    return {
        "complete": False,
        "pots": pot_rows,
        "live": live,
        "high_low": variant in HIGH_LOW_VARIANTS,
        "twice": run_it_twice,
    }


class TapError(ValueError):
    """The taps cannot be a showdown (a pot with no winner, winners that contradict another
    pot): the message says which pot and why."""


def ranking_from_taps(
    eligible: list[list[int]], taps: list[set[int]], live: list[int], *, low: bool
) -> list[list[int]]:
    """A ranking the engine's award accepts (``rules.engine.award``: each pot goes to the
    best-ranked group's seats eligible for it), built from the winners tapped per pot.

    Pots are read main pot first: a pot whose eligible seats include a player already ranked
    goes to the best such group (a winner of the main pot who is in a side pot wins it too:
    the best hand wins every pot it is in, RRoP-TI.5); otherwise the pot's taps become the
    next group. A pot with one eligible player needs no tap. The high ranking ends with the
    players who won nothing, tied; a low ranking leaves them out (no qualifying low): a pot
    with no low tapped and no low winner of an earlier pot in it has no qualifying low."""
    groups: list[list[int]] = []
    for index, (seats, won) in enumerate(zip(eligible, taps, strict=True)):
        implied = best_of(groups, seats)
        if not won and not implied and len(seats) == 1 and not low:
            won = set(seats)
        if not won:
            if implied or low:
                continue
            raise TapError(f"Tap the winner of {pot_name(index)}.")
        if not won <= set(seats):
            stray = sorted(won - set(seats))[0]
            raise TapError(f"Seat {stray} is not in {pot_name(index)}.")
        if implied:
            if set(implied) != won:
                raise TapError(
                    f"{pot_name(index).capitalize()}: seat {implied[0]} won a pot before it and"
                    f" is in this one, so the best hand among its players is theirs."
                )
            continue
        groups.append(sorted(won))
    if not low:
        ranked = {seat for group in groups for seat in group}
        rest = [seat for seat in live if seat not in ranked]
        if rest:
            groups.append(rest)
    for index, (seats, won) in enumerate(zip(eligible, taps, strict=True)):
        got = set(best_of(groups, seats))
        if won and got != won:
            raise TapError(f"The winners tapped for {pot_name(index)} contradict another pot.")
    return groups


def best_of(groups: list[list[int]], eligible: list[int]) -> list[int]:
    """The engine's reading of a ranking for one pot: its best group's eligible seats."""
    for group in groups:
        winners = [seat for seat in group if seat in eligible]
        if winners:
            return winners
    return []


def showdown_from_taps(
    view: dict[str, Any], taps: dict[str, set[int]], *, twice: bool
) -> dict[str, Any]:
    """The award's ``showdown`` from the desk's taps: ``taps["1-high-0"]`` the seats tapped
    as winning the main pot on the first board, ``"2-low-1"`` the low of side pot 1 on the
    second (run it twice, RRoP-14.17). Raises ``TapError``."""
    eligible = [[e["seat"] for e in pot["eligible"]] for pot in view["pots"]]
    boards = []
    for board in (1, 2) if twice else (1,):
        entry: dict[str, Any] = {}
        for half in ("high", "low") if view["high_low"] else ("high",):
            tapped = [taps.get(f"{board}-{half}-{i}", set()) for i in range(len(eligible))]
            try:
                ranking = ranking_from_taps(eligible, tapped, view["live"], low=half == "low")
            except TapError as exc:
                prefix = f"Board {board}, " if twice else ""
                words = "low: " if half == "low" else ""
                raise TapError(f"{prefix}{words}{exc}") from exc
            entry["ranking" if half == "high" else "low_ranking"] = ranking
        boards.append(entry)
    if twice:
        return {"boards": boards}
    return boards[0]


def award_rows(hand: Hand) -> list[dict[str, Any]]:
    """After the award: each seat dealt in, what it won (in words) and its stack."""
    result = hand.result or {}
    names = hand.names or {}
    won: dict[int, int] = {}
    for pot in result.get("pots", []):
        for award in pot.get("awards", []):
            won[award["seat"]] = won.get(award["seat"], 0) + award["amount"]
    back = {entry["seat"]: entry["amount"] for entry in result.get("returned", [])}
    start = {entry["seat"]: entry["stack"] for entry in hand.seats}
    walk = walk_winner(hand, won)
    return [
        {
            "seat": entry["seat"],
            "name": names.get(str(entry["seat"]), ""),
            "won": won.get(entry["seat"], 0),
            "returned": back.get(entry["seat"], 0),
            "words": award_words(
                won.get(entry["seat"], 0), back.get(entry["seat"], 0), walk=walk == entry["seat"]
            ),
            "stack": entry["stack"],
            "change": entry["stack"] - start.get(entry["seat"], 0),
        }
        for entry in result.get("stacks", [])
    ]


def walk_winner(hand: Hand, won: dict[int, int]) -> int | None:
    """The seat that won a walk, or None: everyone folded to a player who never had to act
    (the big blind, or the straddle), so the pot is the blinds and the big blind's part
    nobody called goes back (``HandState.returned``)."""
    actions = [a for a in read_hand(hand).actions if a.voided_at is None]
    winners = [seat for seat, amount in won.items() if amount]
    if not actions or len(winners) != 1 or any(a.action != "fold" for a in actions):
        return None
    return winners[0] if all(a.seat != winners[0] for a in actions) else None


def award_words(won: int, returned: int, *, walk: bool = False) -> str:
    """What a seat took from the award, as the floor says it: "wins the blinds: 3 (2 won,
    1 uncalled returned)" for a walk, "wins 600 · 150 uncalled returned" otherwise; the
    uncalled part of a bet is never won, it goes back to whoever bet it."""
    if walk:
        return f"wins the blinds: {grouped(won + returned)}" + (
            f" ({grouped(won)} won, {grouped(returned)} uncalled returned)" if returned else ""
        )
    parts = [f"wins {grouped(won)}"] if won else []
    if returned:
        parts.append(f"{grouped(returned)} uncalled returned")
    return " · ".join(parts)
