"""Reading the table: what a player's chips and words count as at their turn.

``interpret(facing, physical)`` takes what the player to act faces (from the engine's options)
and what they physically did, and rules on it the way the floor does:

* A spoken action is binding (RRoP-BR.8, TDA-40) and a spoken amount stands over the chips
  (RRoP-14.8). "Call" with too many chips is a call with change; "bet" or "raise" with too few
  is brought up to the minimum, no more (RRoP-14.12, RRoP-BR.16); "raise" with a single chip is
  the most allowed up to the chip's value (RRoP-14.11).
* Without a word, facing a bet: a single chip is a call (RRoP-BR.15, RRoP-14.11).
  Several chips are a call when every one is needed; when one of the smallest could be removed
  and still leave the call, the 50% standard decides (TDA-45, TDA-43; in limit a bet and a half
  is a raise, RRoP-BR.14), except that a player's last chips are all-in.
* Without a word and no bet to face: the chips are a bet of their value (RRoP-14.11); in pot
  limit a single chip bigger than the pot is a pot-size bet (RRoP-PL.6).
* Chips already in front (TDA-46): left alone, they count and only the new chips are judged,
  unless they already cover the call (then everything in front is one multiple-chip bet); all
  pulled back, the new chips are judged alone; partly pulled back, what is left and the new
  chips are one multiple-chip bet. With no prior chips listed and none pulled back, the wager
  already made is taken to be in front.
* The amount is then made legal: brought up to the minimum, reduced to the pot in pot limit
  (RRoP-PL.1), exactly one bet in fixed limit (``min_to``), capped by the player's chips.

Chips smaller than the smallest chip that plays do not count, even in quantity (RRoP-BR.7), and
always go back to the player: ``returned`` includes them even when the chips that do play are
short of ``to`` (otherwise ``returned`` is the chips in front minus ``to``, never below 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.engine import citations as rule
from rules.engine.chip_reading import ACTIONS as ACTIONS
from rules.engine.chip_reading import STRUCTURES as STRUCTURES
from rules.engine.chip_reading import VERBAL_WORDS as VERBAL_WORDS
from rules.engine.chip_reading import Facing as Facing
from rules.engine.chip_reading import Interpretation as Interpretation
from rules.engine.chip_reading import Physical as Physical
from rules.engine.errors import BadInput, IllegalAction


@dataclass(frozen=True, slots=True)
class _Count:
    """The chips in front, split into those that play and those too small to."""

    pushed: tuple[int, ...]  # chips pushed out now that play
    prior: tuple[int, ...]  # listed chips already in front, still out, that play
    prior_value: int  # what the chips still in front count for (the wager when unlisted)
    dead: int  # face value of chips smaller than the smallest chip that plays

    @property
    def counted(self) -> int:
        return self.prior_value + sum(self.pushed)


@dataclass(slots=True)
class _Notes:
    """The ruling's sentences, each naming the rules it applies."""

    sentences: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)

    def add(self, sentence: str, *cites: str) -> None:
        named = f" ({', '.join(cites)})" if cites else ""
        self.sentences.append(f"{sentence[0].upper()}{sentence[1:]}{named}.")
        self.cites.extend(cites)


Ruling = tuple[str, int]


def interpret(facing: Facing, physical: Physical) -> Interpretation:
    """What the player's chips and words count as, with the rules that say so.

    Raises ``IllegalAction`` (``cannot_check``, ``raise_not_allowed``) when what was said or
    done cannot be taken, and ``BadInput`` when the prior chips contradict the wager.
    """
    count = _count(facing, physical)
    notes = _Notes()
    if physical.verbal is None:
        action, to = _silent(facing, physical, count, notes)
    else:
        action, to = _spoken(facing, physical, count, notes)
    if count.dead:
        notes.add(
            f"Chips smaller than the {facing.min_chip} chip do not play, even in quantity,"
            f" so {count.dead} in small chips goes back",
            rule.SMALLEST_CHIP,
        )
    returned = max(0, count.counted - to) + count.dead
    if returned and returned != count.dead:
        notes.add(f"{returned}{' in all' if count.dead else ''} goes back to the player")
    return Interpretation(
        action=action,
        to=to,
        returned=returned,
        explanation=" ".join(notes.sentences),
        citations=tuple(dict.fromkeys(notes.cites)),
    )


def _count(facing: Facing, physical: Physical) -> _Count:
    out = () if physical.pulled_back is True else physical.prior_chips
    if physical.pulled_back is False and out and sum(out) < facing.wager:
        raise BadInput(
            f"The chips left in front ({sum(out)}) are fewer than the {facing.wager} already"
            " wagered: list them all, or say some were pulled back.",
            "physical.prior_chips",
        )
    if physical.pulled_back == "some" and not out:
        raise BadInput(
            "Partly pulled back: list the chips still in front in prior_chips.",
            "physical.prior_chips",
        )
    small = facing.min_chip
    prior = tuple(chip for chip in out if chip >= small)
    unlisted = physical.pulled_back is False and not out
    return _Count(
        pushed=tuple(chip for chip in physical.chips if chip >= small),
        prior=prior,
        prior_value=facing.wager if unlisted else sum(prior),
        dead=sum(chip for chip in (*physical.chips, *out) if chip < small),
    )


# --- making an amount legal ------------------------------------------------------------------


def _not_open(facing: Facing, what: str) -> IllegalAction:
    if facing.all_in_to <= facing.current_bet:
        reason = "the player has no chips beyond what it takes to call"
        cites: tuple[str, ...] = (rule.PL_MAX_BET,)
    elif facing.structure == "fixed_limit":
        reason = "the betting is capped, was not re-opened for them, or nobody left could call it"
        cites = (rule.LIMIT_RAISE_CAP, rule.LIMIT_HALF_BET_ALL_IN, rule.TDA_REOPENING)
    else:
        reason = "the betting was not re-opened for them, or nobody left could call a raise"
        cites = (rule.TDA_REOPENING,)
    then = "Call or fold." if facing.call is not None else "Check."
    return IllegalAction(
        "raise_not_allowed",
        f"{what} cannot stand: no bet or raise is open to this player now ({reason}). {then}",
        *cites,
    )


def _wager(facing: Facing, amount: int, notes: _Notes, *, single_chip: bool = False) -> Ruling:
    """A bet or raise to ``amount``, made legal: reduced to the most allowed (the pot, the one
    fixed-limit bet, the player's chips), or brought up to the minimum and no further."""
    if facing.min_to is None or facing.max_to is None:
        raise _not_open(facing, f"A {facing.word}")
    word = facing.word
    if amount > facing.max_to:
        if facing.max_to == facing.all_in_to:
            notes.add(
                f"The player has {facing.all_in_to} in all, so the {word} stops there: all-in",
                rule.PL_MAX_BET,
            )
        elif facing.structure == "pot_limit" and single_chip:
            notes.add(
                f"A chip bigger than the pot, put out without a word, is a pot-size {word},"
                f" to {facing.max_to}",
                rule.PL_SINGLE_CHIP_OVER_POT,
            )
        elif facing.structure == "pot_limit":
            notes.add(
                f"A {word} to {amount} is more than the pot allows: it is reduced to the pot,"
                f" to {facing.max_to}",
                rule.PL_OVERSIZE_REDUCED,
            )
        else:
            notes.add(
                f"In fixed limit a {word} is exactly one bet: to {facing.max_to}, not {amount}",
                rule.BRING_UP_SHORT_WAGER,
            )
        amount = facing.max_to
    elif amount < facing.min_to:
        if facing.structure == "fixed_limit":
            notes.add(
                f"In fixed limit a {word} is exactly one bet: brought up to {facing.min_to}",
                rule.BRING_UP_SHORT_WAGER,
            )
        else:
            notes.add(
                f"A {word} to {amount} is short of the minimum and the player has the chips:"
                f" brought up to {facing.min_to}, no more",
                rule.NL_RAISE_BROUGHT_UP,
                rule.BRING_UP_SHORT_WAGER,
            )
        amount = facing.min_to
    return ("all_in" if amount == facing.all_in_to else word), amount


def _call(facing: Facing, count: _Count, notes: _Notes, *, spoken: bool) -> Ruling:
    """A call (the caller has said why): short chips brought up, the excess given back."""
    call_to = facing.call_to
    if count.counted < call_to:
        notes.add(
            f"The chips are short of the call: it is brought up to {call_to}",
            rule.BRING_UP_SHORT_WAGER,
        )
    elif count.counted > call_to and spoken:
        notes.add(
            f"The chips beyond the call of {call_to} go back: the words stand over the chips",
            rule.NL_VERBAL_OVER_CHIPS,
        )
    if call_to == facing.all_in_to:
        notes.add(f"The call takes every chip the player has: all-in for {call_to}")
    return "call", call_to


# --- no words: the chips speak ---------------------------------------------------------------


def _silent(facing: Facing, physical: Physical, count: _Count, notes: _Notes) -> Ruling:
    if not count.pushed:
        if facing.call is None:
            said = "No chips that play and no words" if physical.chips else "No chips, no words"
            notes.add(f"{said}, with no bet to face: a check", rule.TDA_VERBAL_AND_CHIPS)
            return "check", facing.wager
        if not physical.chips:
            raise IllegalAction(
                "cannot_check",
                f"Nothing was put out or said facing a bet of {facing.current_bet}: a player"
                f" facing a bet cannot check. Call {facing.call}, raise or fold.",
                rule.MIN_WAGER,
            )
        notes.add(
            "Chips put forward facing a bet are at least a call, and these do not play: the"
            f" call of {facing.call_to} is still owed",
            rule.BRING_UP_SHORT_WAGER,
        )
        return "call", facing.call_to
    if facing.call is None:
        return _silent_bet(facing, physical, count, notes)
    return _silent_facing_bet(facing, physical, count, notes)


def _silent_bet(facing: Facing, physical: Physical, count: _Count, notes: _Notes) -> Ruling:
    """No bet to face (or the big blind's option): the chips are a bet of their value."""
    word = facing.word
    if facing.min_to is None:
        raise _not_open(facing, "Chips put out as a bet")
    single = len(count.pushed) == 1 and physical.pulled_back != "some"
    if single:
        chip = count.pushed[0]
        with_prior = (
            f" (with the {count.prior_value} already in front)" if count.prior_value else ""
        )
        notes.add(
            f"A single {chip} chip put out without a word, with nothing to call, is a {word} of"
            f" its full value, to {count.counted}{with_prior}",
            rule.NL_SINGLE_CHIP,
        )
    else:
        notes.add(
            f"Chips put out without a word, with nothing to call, are a {word} of everything in"
            f" front, to {count.counted}",
            rule.TDA_VERBAL_AND_CHIPS,
        )
    return _wager(facing, count.counted, notes, single_chip=single)


def _prior_situation(facing: Facing, physical: Physical, count: _Count, notes: _Notes) -> None:
    """Which TDA-46 situation the chips already in front put the player in."""
    if physical.pulled_back is True:
        notes.add(
            "The chips already in front were pulled back: the new chips are judged alone",
            rule.TDA_PRIOR_CHIPS,
        )
    elif physical.pulled_back == "some":
        notes.add(
            "Some of the chips already in front were pulled back: those left out and the new"
            " chips are judged together as one multiple-chip bet, not as a single chip",
            rule.TDA_PRIOR_CHIPS,
        )
    elif count.prior_value >= facing.current_bet:
        notes.add(
            f"The {count.prior_value} already in front covers the call of {facing.current_bet},"
            " so adding chips makes one multiple-chip bet of everything in front",
            rule.TDA_PRIOR_CHIPS,
        )
    elif count.prior_value:
        notes.add(
            f"The {count.prior_value} already in front was left alone and does not cover the"
            " call: it counts, and the new chips are judged",
            rule.TDA_PRIOR_CHIPS,
        )


def _silent_facing_bet(facing: Facing, physical: Physical, count: _Count, notes: _Notes) -> Ruling:
    call_to, counted = facing.call_to, count.counted
    _prior_situation(facing, physical, count, notes)
    # TDA-46: chips in front that cover the call, or that were partly pulled back, are judged
    # with the new ones as one multiple-chip bet.
    together = physical.pulled_back == "some" or (
        physical.pulled_back is False and count.prior_value >= facing.current_bet
    )
    if len(count.pushed) == 1 and not together:
        notes.add(
            f"A single {count.pushed[0]} chip put out facing a bet, with no raise declared"
            " first, is a call",
            rule.SINGLE_CHIP_CALL,
            rule.NL_SINGLE_CHIP,
        )
        return _call(facing, count, notes, spoken=False)

    judged = count.pushed + count.prior if together else count.pushed
    smallest = min(judged)
    if counted - smallest < call_to:
        notes.add(
            f"Taking away one of the smallest chips (a {smallest}) would leave less than the"
            f" {call_to} needed to call: every chip is needed, so it is a call",
            rule.TDA_MULTIPLE_CHIPS,
        )
        return _call(facing, count, notes, spoken=False)
    if facing.min_to is None:
        notes.add(
            f"A {smallest} chip could be taken away and still leave the call, but no raise is"
            " open to this player now, so it is a call",
            rule.TDA_MULTIPLE_CHIPS,
            rule.TDA_REOPENING,
        )
        return _call(facing, count, notes, spoken=False)
    if counted >= facing.all_in_to:
        notes.add(
            f"These are the player's last chips and a {smallest} chip could be taken away and"
            " still leave the call: all-in, whether or not the 50% standard is reached",
            rule.TDA_MULTIPLE_CHIPS,
        )
        return _wager(facing, facing.all_in_to, notes)
    return _fifty_percent(facing, count, smallest, notes)


def _fifty_percent(facing: Facing, count: _Count, smallest: int, notes: _Notes) -> Ruling:
    """TDA-43/45 (RRoP-BR.14 in limit): half a raise over the call makes it a full raise."""
    assert facing.min_to is not None  # the caller checked that a raise is open
    counted, bet, increment = count.counted, facing.current_bet, facing.min_raise_increment
    # Chips are whole: reaching half the increment means reaching its upper half-chip.
    threshold = bet + (increment + 1) // 2
    reached = counted >= threshold
    limit = facing.structure == "fixed_limit"
    notes.add(
        f"A {smallest} chip could be taken away and still leave the {bet} to call, so the"
        f" chips are judged by {'a bet and a half' if limit else 'the 50% standard'}",
        rule.TDA_MULTIPLE_CHIPS,
    )
    if limit:
        standard = (
            f"A bet plus half a bet or more is a raise: half a {increment} bet over the call"
            f" is {threshold}, and {counted} {'reaches' if reached else 'is short of'} it"
        )
        half_rule = rule.FULL_BET_AND_HALF
    else:
        standard = (
            f"Half a minimum raise ({increment}) over the call is {threshold}, and {counted}"
            f" {'reaches' if reached else 'is short of'} it"
        )
        half_rule = rule.TDA_RAISE_AMOUNTS
    if not reached:
        notes.add(f"{standard}, so it is a call", half_rule)
        return _call(facing, count, notes, spoken=False)
    if counted < facing.min_to:
        held = f"the player is held to a full raise, to {facing.min_to}"
        notes.add(f"{standard}, so {held}", half_rule)
        return _wager(facing, facing.min_to, notes)
    notes.add(f"{standard}, so it is a raise to {counted}", half_rule)
    return _wager(facing, counted, notes)


# --- words spoken ----------------------------------------------------------------------------


def _spoken(facing: Facing, physical: Physical, count: _Count, notes: _Notes) -> Ruling:
    said = physical.verbal
    if said == "check":
        if facing.call is not None:
            raise IllegalAction(
                "cannot_check",
                f'"Check" is not possible facing a bet of {facing.current_bet}: call'
                f" {facing.call}, raise or fold.",
                rule.MIN_WAGER,
            )
        notes.add("A spoken check is binding; any chips put out go back", rule.VERBAL_BINDING)
        return "check", facing.wager
    if said == "call":
        if facing.call is None:
            notes.add('"Call" with nothing to call is a check', rule.VERBAL_BINDING)
            return "check", facing.wager
        notes.add(
            f"A spoken call is binding and stands over the chips: a call to {facing.call_to}",
            rule.VERBAL_BINDING,
            rule.TDA_VERBAL_AND_CHIPS,
        )
        return _call(facing, count, notes, spoken=True)
    if said == "all_in":
        if facing.all_in_to <= facing.current_bet or facing.stack == 0:
            if facing.call is None:
                notes.add(
                    "All-in with no chips behind and nothing to call is a check",
                    rule.VERBAL_BINDING,
                )
                return "check", facing.wager
            notes.add(
                f"A spoken all-in for {facing.all_in_to}, no more than the bet, is a call",
                rule.VERBAL_BINDING,
            )
            return _call(facing, count, notes, spoken=True)
        if facing.min_to is None:
            raise _not_open(facing, '"All-in" for more than the call')
        playing = facing.playing_all_in_to
        if playing <= facing.current_bet or playing < facing.min_to:
            # Chips smaller than the smallest that plays cannot make a bet or a raise.
            if facing.call is None:
                notes.add(
                    f"All-in with no playing chip beyond the {facing.current_bet} is a check",
                    rule.VERBAL_BINDING,
                    rule.SMALLEST_CHIP,
                )
                return "check", facing.wager
            notes.add(
                f"A spoken all-in whose playing chips make no legal {facing.word} is a call",
                rule.VERBAL_BINDING,
                rule.SMALLEST_CHIP,
            )
            return _call(facing, count, notes, spoken=True)
        notes.add(
            f"A spoken all-in is binding and stands over the chips: every chip that plays, to"
            f" {playing}",
            rule.VERBAL_BINDING,
            rule.TDA_VERBAL_AND_CHIPS,
        )
        if playing < facing.all_in_to:
            notes.add(
                f"The {facing.all_in_to - playing} behind in chips smaller than the"
                f" {facing.min_chip} chip do not play",
                rule.SMALLEST_CHIP,
            )
        # Below every chip behind, it is a bet or raise to that total, not an all-in (the engine's
        # all_in puts in every chip, the ones that do not play included).
        return _wager(facing, playing, notes)
    return _spoken_wager(facing, physical, count, notes)


def _spoken_wager(facing: Facing, physical: Physical, count: _Count, notes: _Notes) -> Ruling:
    said, word = str(physical.verbal), facing.word
    if facing.min_to is None:
        raise _not_open(facing, f'"{said.capitalize()}"')
    counts_as = f", which counts as a {word}," if said != word else ""
    if physical.verbal_to is not None:
        amount = physical.verbal_to
        put_out = bool(physical.chips) or physical.pulled_back is not False
        if put_out and count.counted != amount:
            notes.add(
                f'"{said.capitalize()} to {amount}"{counts_as} is binding, and the amount'
                f" spoken stands over the {count.counted} in chips",
                rule.VERBAL_BINDING,
                rule.NL_VERBAL_OVER_CHIPS,
                rule.TDA_VERBAL_AND_CHIPS,
            )
        else:
            notes.add(
                f'"{said.capitalize()} to {amount}"{counts_as} is binding',
                rule.VERBAL_BINDING,
                rule.TDA_VERBAL_AND_CHIPS,
            )
        return _wager(facing, amount, notes)
    single = len(count.pushed) == 1 and physical.pulled_back != "some"
    if count.counted <= max(facing.current_bet, facing.wager):
        notes.add(
            f'"{said.capitalize()}"{counts_as} is binding; with no amount said and no chips'
            f" past the {facing.current_bet} to match, it is the smallest {word} allowed,"
            f" to {facing.min_to}",
            rule.VERBAL_BINDING,
            rule.NL_RAISE_BROUGHT_UP,
        )
        return _wager(facing, facing.min_to, notes)
    if single and facing.call is not None:
        notes.add(
            f'"{said.capitalize()}" declared first with a single {count.pushed[0]} chip is the'
            f" largest {word} allowed up to the chip's value, to {count.counted}",
            rule.NL_SINGLE_CHIP,
            rule.VERBAL_BINDING,
        )
    else:
        notes.add(
            f'"{said.capitalize()}"{counts_as} is binding, and with no amount said the chips put'
            f" out say how much: to {count.counted}",
            rule.VERBAL_BINDING,
            rule.TDA_VERBAL_AND_CHIPS,
        )
    return _wager(facing, count.counted, notes, single_chip=single)
