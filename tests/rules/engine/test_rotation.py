"""Planning the next hand (``rules.engine.rotation``): the dead button (CR-BB.1, CR-BB.2), the
moving button (CR-BB.4), missed blinds (CR-BB.3, CR-BB.5), new players and new games
(CR-BB.6) and heads-up (CR-BB.7), each worked example of the CR book among them.

Pure: runs with ``-p no:django``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

from rules.engine import citations as cite
from rules.engine.errors import BadInput
from rules.engine.posting import Post
from rules.engine.rotation import Plan, Previous, SeatState, plan_next_hand


def playing(*numbers: int, **flags: Iterable[int]) -> list[SeatState]:
    """Seats ``numbers`` playing; ``out=[3]`` sits seat 3 out, ``new=[4]``, ``waits=[5]``,
    ``big=[6]`` (owes a big blind), ``small=[7]`` (owes a small blind)."""
    out, new = set(flags.get("out", ())), set(flags.get("new", ()))
    waits, big, small = (set(flags.get(k, ())) for k in ("waits", "big", "small"))
    every = sorted(set(numbers) | out | new | waits | big | small)
    return [
        SeatState(
            n,
            active=n not in out,
            owes_big=n in big,
            owes_small=n in small,
            new=n in new,
            waits=n in waits,
        )
        for n in every
    ]


def plan(
    seats: list[SeatState],
    previous: Previous | None,
    rule: str = "dead",
    missed: str = "post",
    sb: int = 50,
    bb: int = 100,
    straddle: bool = False,
) -> Plan:
    return plan_next_hand(
        seats=seats,
        previous=previous,
        rule=rule,
        missed_blinds=missed,
        small_blind=sb,
        big_blind=bb,
        straddle=straddle,
    )


def positions(p: Plan) -> tuple[int, int | None, int]:
    return p.button, p.small, p.big


def then(p: Plan) -> Previous:
    return Previous(p.button, p.small, p.big)


def test_first_hand_the_button_is_the_first_player_and_nobody_posts() -> None:
    p = plan(playing(2, 4, 7, new=[2, 4, 7]), None)
    assert positions(p) == (2, 4, 7)
    assert p.dealt == (2, 4, 7) and p.posts == () and p.waiting == ()
    assert p.cleared == (2, 4, 7)
    assert cite.NEW_PLAYER in p.citations and cite.DEAD_BUTTON in p.citations


def test_first_hand_heads_up_the_button_posts_the_small_blind() -> None:
    p = plan(playing(3, 6), None)
    assert positions(p) == (3, 3, 6)
    assert cite.HEADS_UP in p.citations


def test_cr_bb_1_example_a_dead_button() -> None:
    # Seats 1-6; button 3, small 4, big 5; seat 4 is eliminated.
    p = plan(playing(1, 2, 3, 5, 6), Previous(3, 4, 5))
    assert positions(p) == (4, 5, 6)
    assert p.dealt == (1, 2, 3, 5, 6)
    assert p.citations == (cite.DEAD_BUTTON,)


def test_a_dead_small_blind_when_the_last_big_blind_is_gone() -> None:
    p = plan(playing(1, 2, 3, 4, 6), Previous(3, 4, 5))
    assert positions(p) == (4, None, 6)
    assert cite.DEAD_SMALL_BLIND in p.citations
    # The next hand the button goes to the dead small blind's seat.
    assert positions(plan(playing(1, 2, 3, 4, 6), then(p))) == (5, 6, 1)


def test_cr_bb_4_example_the_button_moves_to_the_next_player() -> None:
    seats = playing(1, 2, 4, 5, 7)
    p = plan(seats, Previous(2, 4, 5), rule="moving")
    assert positions(p) == (4, 5, 7) and p.citations == (cite.MOVING_BUTTON,)
    p = plan(playing(1, 2, 4, 5, out=[7]), Previous(2, 4, 5), rule="moving")
    assert positions(p) == (4, 5, 1)
    assert p.missed[7] == (True, True) and cite.MISSED_BLINDS_ACCRUE in p.citations


def test_cr_bb_5_example_missing_the_big_blind_under_a_dead_button() -> None:
    p = plan(playing(1, 2, 4, 5, 6, out=[3]), Previous(6, 1, 2))
    assert positions(p) == (1, 2, 4) and p.missed[3] == (True, True)
    assert cite.MISSED_BLINDS_ACCRUE in p.citations
    p = plan(playing(1, 2, 4, 5, 6, out=[3], big=[3], small=[3]), then(p))
    assert positions(p) == (2, 4, 5) and p.missed[3] == (True, True)
    back = playing(1, 2, 4, 5, 6, big=[3], small=[3])
    posted = plan(back, then(p))
    assert positions(posted) == (4, 5, 6)
    assert posted.posts == (Post(3, 100, 50),) and 3 in posted.dealt
    assert posted.cleared == (3,) and posted.missed[3] == (False, False)
    assert cite.MISSED_BLINDS in posted.citations
    # Waiting: seats 6, 1 and 2 take the big blind, then seat 3 does.
    waited = plan(back, then(p), missed="wait")
    assert waited.waiting == (3,) and waited.posts == () and 3 not in waited.dealt
    assert waited.missed[3] == (True, True)
    bigs = []
    previous = then(p)
    for _ in range(4):
        step = plan(back, previous, missed="wait")
        bigs.append(step.big)
        previous = then(step)
    assert bigs == [6, 1, 2, 3]
    assert step.cleared == (3,) and step.posts == () and step.missed[3] == (False, False)
    # The player may choose to wait at a table that posts.
    chose = plan(playing(1, 2, 4, 5, 6, big=[3], small=[3], waits=[3]), then(p))
    assert chose.waiting == (3,) and chose.posts == ()


def test_cr_bb_5_example_missing_the_small_blind() -> None:
    p = plan(playing(1, 3, 4, 5, 6, out=[2]), Previous(6, 1, 2))
    assert positions(p) == (1, None, 3)
    assert p.missed[2] == (False, True)
    back = playing(1, 3, 4, 5, 6, small=[2])
    nxt = plan(back, then(p))
    assert nxt.button == 2 and nxt.waiting == (2,) and nxt.posts == ()
    after = plan(back, then(nxt))
    assert after.posts == (Post(2, 0, 50),) and after.cleared == (2,)


def test_cr_bb_6_example_two_new_players_under_a_moving_button() -> None:
    seats = playing(1, 3, 5, 7, new=[4, 8])
    p = plan(seats, Previous(5, 7, 1), rule="moving", sb=1, bb=2)
    assert positions(p) == (7, 1, 3)
    assert p.waiting == (8,) and p.posts == (Post(4, 2, 0),)
    assert p.dealt == (1, 3, 4, 5, 7) and p.cleared == (4,)
    assert cite.NEW_PLAYER in p.citations
    nxt = plan(playing(1, 3, 4, 5, 7, new=[8]), then(p), rule="moving", sb=1, bb=2)
    assert positions(nxt) == (1, 3, 4) and nxt.posts == (Post(8, 2, 0),)
    # A table that waits: seat 4 waits one hand and takes the big blind the next.
    w = plan(seats, Previous(5, 7, 1), rule="moving", missed="wait", sb=1, bb=2)
    assert w.waiting == (4, 8) and w.posts == ()
    w2 = plan(seats, then(w), rule="moving", missed="wait", sb=1, bb=2)
    assert positions(w2) == (1, 3, 4) and 4 in w2.cleared and w2.waiting == (8,)


def test_cr_bb_7_example_from_three_players_to_two() -> None:
    p = plan(playing(2, 5), Previous(2, 5, 8))
    assert positions(p) == (5, 5, 2) and cite.HEADS_UP in p.citations
    assert positions(plan(playing(2, 5), then(p))) == (2, 2, 5)
    other = plan(playing(2, 8), Previous(2, 5, 8))
    assert positions(other) == (8, 8, 2)


def test_fewer_than_two_players_is_bad_input() -> None:
    with pytest.raises(BadInput, match="Fewer than two"):
        plan(playing(3, out=[4, 5]), Previous(3, 4, 5))
    with pytest.raises(BadInput):
        plan([], None)


def test_a_player_right_after_the_big_blind_straddles_instead_of_posting() -> None:
    # CR-BB.3: a player who posts the straddle makes up nothing and owes nothing more.
    seats = playing(1, 2, 3, 5, big=[4], small=[4])
    p = plan(seats, Previous(1, 2, 3), straddle=True)
    assert positions(p) == (2, 3, 4) and p.cleared == (4,)  # the big blind reaches seat 4
    p = plan(playing(1, 2, 3, 4, big=[5]), Previous(1, 2, 3), straddle=True)
    assert positions(p) == (2, 3, 4) and p.posts == () and p.cleared == (5,)
    assert p.missed[5] == (False, False)
    p = plan(playing(1, 2, 3, 4, big=[5]), Previous(1, 2, 3), straddle=False)
    assert p.posts == (Post(5, 100, 0),)


def test_a_player_who_owes_takes_the_big_blind_and_owes_nothing_more() -> None:
    p = plan(playing(1, 2, 4, big=[3], small=[3]), Previous(4, 1, 2), missed="wait")
    assert p.big == 3 and p.cleared == (3,) and p.posts == ()
    assert cite.MISSED_BLINDS in p.citations


def test_a_new_game_when_fewer_than_two_players_have_been_playing() -> None:
    # Everyone else left: the one regular and two new players start a new game.
    p = plan(playing(5, new=[1, 8]), Previous(5, 6, 7), missed="wait")
    assert p.dealt == (1, 5, 8) and p.posts == () and p.waiting == ()
    assert p.button == 8 and (p.small, p.big) == (1, 5)
    assert p.cleared == (1, 8) and cite.NEW_PLAYER in p.citations


def test_sitting_out_players_keep_their_debts_and_new_ones_owe_nothing() -> None:
    seats = playing(1, 2, 4, 6, out=[3, 5], new=[5], big=[3])
    p = plan(seats, Previous(1, 2, 4))
    # The small blind moved from seat 2 to seat 4, past seat 3: it owes both now.
    assert p.big == 6 and p.missed[5] == (False, False) and p.missed[3] == (True, True)
    assert 5 not in p.dealt + p.waiting


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"rule": "floating"}, "rule"),
        ({"missed": "never"}, "missed_blinds"),
        ({"bb": -1}, "big_blind"),
        ({"sb": True}, "small_blind"),
    ],
)
def test_bad_settings_name_their_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(BadInput) as error:
        plan(playing(1, 2), None, **kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_bad_seats_are_refused() -> None:
    with pytest.raises(BadInput, match="twice"):
        plan([SeatState(1, True), SeatState(1, True), SeatState(2, True)], None)
    with pytest.raises(BadInput, match="whole number"):
        plan([SeatState(0, True), SeatState(2, True)], None)
    with pytest.raises(BadInput) as error:
        plan(playing(1, 2), Previous(0, None, 2))
    assert error.value.field == "previous.button"
    with pytest.raises(BadInput) as error:
        plan([SeatState(1, True), SeatState(2, True, stack=-1)], None)
    assert error.value.field == "seats.1.stack"
    with pytest.raises(BadInput) as error:
        plan_next_hand(
            seats=playing(1, 2), previous=None, rule="dead", missed_blinds="post",
            small_blind=1, big_blind=2, ante=-1,
        )  # fmt: skip
    assert error.value.field == "ante"


def test_moving_button_going_heads_up_the_big_blind_moves_on() -> None:
    # CR-BB.7: seats 1, 2, 3; button 1, blinds 2 and 3; seat 1 leaves.
    p = plan(playing(2, 3), Previous(1, 2, 3), rule="moving")
    assert positions(p) == (3, 3, 2) and cite.HEADS_UP in p.citations
    assert positions(plan(playing(2, 3), then(p), rule="moving")) == (2, 2, 3)


@pytest.mark.parametrize(("seat", "hands"), [(4, 2), (8, 1)])
def test_moving_button_heads_up_a_new_player_gets_the_big_blind_within_two_hands(
    seat: int, hands: int
) -> None:
    seats = playing(2, 6, new=[seat])
    previous = Previous(2, 2, 6)
    for _ in range(hands - 1):
        p = plan(seats, previous, rule="moving")
        assert p.waiting == (seat,) and p.dealt == (2, 6) and p.button == p.small
        previous = then(p)
    p = plan(seats, previous, rule="moving")
    assert p.big == seat and p.cleared == (seat,) and p.posts == ()
    assert p.button not in (p.small, p.big)


def test_moving_button_heads_up_the_big_blind_stops_at_a_waiting_player() -> None:
    # Heads-up between seats 2 and 6 (seat 6 the button and small blind, seat 2 the big
    # blind); seat 4 waits. The big blind would move on to seat 6 heads-up, past seat 4: it
    # stops at seat 4 instead, three are dealt in (CR-BB.4, CR-BB.7).
    p = plan(playing(2, 6, waits=[4]), Previous(6, 6, 2), rule="moving", missed="wait")
    assert positions(p) == (6, 2, 4) and p.cleared == (4,) and p.waiting == ()
    assert cite.HEADS_UP not in p.citations


def test_f19_moving_button_the_big_blind_stops_at_the_player_waiting_for_it() -> None:
    # CR-BB.4 example "The big blind stops at a player waiting for it". A moving-button table
    # that waits. Hand 3: button 7, small blind 2, big blind 3; seat 5 came back owing and
    # waits for the big blind. With seat 2 still there, hand 4 is button 2, blinds 3 and 5.
    oz = {"waits": [5], "big": [5], "small": [5]}
    p = plan(playing(2, 3, 7, **oz), Previous(7, 2, 3), rule="moving", missed="wait")
    assert positions(p) == (2, 3, 5) and p.cleared == (5,) and p.dealt == (2, 3, 5, 7)
    # Seat 2 leaves before hand 4: the big blind does not go past seat 5 to seat 7 (heads-up
    # between 3 and 7); seat 5 takes it, seat 3 the small blind, the button stays on seat 7.
    p = plan(playing(3, 7, **oz), Previous(7, 2, 3), rule="moving", missed="wait")
    assert positions(p) == (7, 3, 5) and p.dealt == (3, 5, 7) and p.waiting == ()
    assert p.cleared == (5,) and p.posts == () and p.missed[5] == (False, False)
    assert cite.HEADS_UP not in p.citations and cite.MOVING_BUTTON in p.citations
    # Hand 5: the button moves on to seat 3, the blinds to 5 and 7. The big blind went
    # 3, 5, 7 and the small blind 2, 3, 5: nobody posted a blind twice in a row.
    p = plan(playing(3, 5, 7), then(p), rule="moving", missed="wait")
    assert positions(p) == (3, 5, 7)


def test_moving_button_out_of_heads_up_nobody_posts_the_small_blind_twice() -> None:
    # Heads-up: seat 2 the button and small blind, seat 6 the big blind; seat 4 is new and
    # waits. Moving the button to seat 6 would give seat 2 the small blind again and take the
    # big blind past it to seat 4: the big blind moves on to seat 2 instead, heads-up again,
    # and reaches seat 4 the hand after (CR-BB.7). Small blinds 2, 6, 2; big blinds 6, 2, 4.
    p = plan(playing(2, 6, new=[4]), Previous(2, 2, 6), rule="moving", missed="wait")
    assert positions(p) == (6, 6, 2) and p.waiting == (4,)
    p = plan(playing(2, 6, new=[4]), then(p), rule="moving", missed="wait")
    assert positions(p) == (6, 2, 4) and p.cleared == (4,)


def test_moving_button_the_big_blind_leaves_and_a_new_player_is_next() -> None:
    # Button 1, blinds 2 and 3; seat 3 leaves; seat 4 is new. The big blind goes on to seat 4
    # (not past it to seat 6 with seat 4 waiting an orbit): seat 2, the only player before it,
    # posts the small blind again and seat 1 keeps the button.
    p = plan(playing(1, 2, 5, 6, new=[4]), Previous(1, 2, 3), rule="moving")
    assert positions(p) == (1, 2, 4) and p.cleared == (4,) and p.posts == ()
    assert p.dealt == (1, 2, 4, 5, 6)


def test_dead_button_out_of_heads_up() -> None:
    # Last hand heads-up: seat 2 the button and small blind, seat 6 the big blind.
    # A new player in seat 8 is reached by the big blind at once.
    p = plan(playing(2, 6, new=[8]), Previous(2, 2, 6))
    assert positions(p) == (2, 6, 8) and p.cleared == (8,) and p.posts == ()
    # One in seat 4 is not: the big blind goes round to seat 2, the button before seat 6.
    p = plan(playing(2, 6, new=[4]), Previous(2, 2, 6))
    assert positions(p) == (5, 6, 2) and p.posts == (Post(4, 100, 0),)
    p = plan(playing(2, 6, new=[4]), Previous(2, 2, 6), missed="wait")
    assert positions(p) == (6, 6, 2) and p.waiting == (4,) and cite.HEADS_UP in p.citations


def test_a_dead_small_blind_behind_seat_one_puts_the_button_on_the_last_seat() -> None:
    p = plan(playing(1, 2, 3, 9, out=[4]), Previous(8, None, 1))
    assert positions(p) == (9, 1, 2)


def test_a_player_after_the_big_blind_who_cannot_cover_the_straddle_posts_what_they_owe() -> None:
    # RRoP-14.14: the straddle is twice the big blind, posted whole or not at all (contract v2,
    # "Straddle not posted"). Seat 5 owes a big blind: with 150 it cannot straddle 200, so it
    # posts its missed blind (CR-BB.3); it used to be let off its debt for a straddle it never
    # posted.
    owing = playing(1, 2, 3, 4, big=[5])

    def with_stack(stack: int) -> list[SeatState]:
        return [replace(s, stack=stack) if s.seat == 5 else replace(s, stack=1000) for s in owing]

    short = plan_next_hand(
        seats=with_stack(150), previous=Previous(1, 2, 3), rule="dead", missed_blinds="post",
        small_blind=50, big_blind=100, straddle=True,
    )  # fmt: skip
    assert positions(short) == (2, 3, 4) and short.posts == (Post(5, 100, 0),)
    assert short.cleared == (5,) and cite.MISSED_BLINDS in short.citations
    enough = plan_next_hand(
        seats=with_stack(200), previous=Previous(1, 2, 3), rule="dead", missed_blinds="post",
        small_blind=50, big_blind=100, straddle=True,
    )  # fmt: skip
    assert enough.posts == () and enough.cleared == (5,)
    # Every player's ante comes first: 205 less an ante of 10 cannot cover the straddle.
    after_ante = plan_next_hand(
        seats=with_stack(205), previous=Previous(1, 2, 3), rule="dead", missed_blinds="post",
        small_blind=50, big_blind=100, straddle=True, ante=10,
    )  # fmt: skip
    assert after_ante.posts == (Post(5, 100, 0),)
