"""Bounties: a fixed bounty or a PKO head won at the desk by the winners of the pot the busted
player lost (split pots split it, odd units clockwise from the button), two busts on one hand
paying both, the winner's own head at the end, paying at the cage, and the bounty money
conserved over any sequence of busts."""

import itertools
from typing import Any

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.core.roles import Role
from tests.factories import make_user
from tests.tournaments.factories import make_tournament
from tests.tournaments.test_table_hands import (
    at,
    chips,
    one_table,
    play,
    room,
    set_chips,
    settle,
)
from tournaments import chip_counts, eliminations, table_hands
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.money import bounties
from tournaments.money.models import BountyKind, Method, MoneyMove, MoveKind, Prices

pytestmark = pytest.mark.django_db
#: A room table of its own for each example of the property test.
TABLE_NUMBERS = itertools.count(201)


def priced(tournament: Tournament, by: Any, *, bounty: int, kind: str) -> None:
    """A price list with a bounty and an entry line for every entrant (as the cashier takes
    them: the bounty part in the ledger's bounty column)."""
    Prices.objects.create(
        tournament=tournament, entry_prize=10_000, entry_bounty=bounty, bounty_kind=kind
    )
    for entrant in tournament.entrants.order_by("number"):
        MoneyMove.objects.create(
            tournament=tournament, kind=MoveKind.ENTRY, entrant=entrant, method=Method.CASH,
            player_in=10_000 + bounty, pool=10_000, bounty=bounty, chips=entrant.chips, by=by,
        )  # fmt: skip


def won(tournament: Tournament) -> list[tuple[int, int, int]]:
    """(winner, busted, cash) of each bounty_won line, oldest first."""
    return list(
        MoneyMove.objects.filter(tournament=tournament, kind=MoveKind.BOUNTY_WON)
        .order_by("id")
        .values_list("entrant_id", "from_entrant_id", "owed")
    )


def conserved(tournament: Tournament) -> tuple[int, int]:
    """(the bounty column + owed + paid out in bounties, the bounty the entries brought in)."""
    lines = MoneyMove.objects.filter(tournament=tournament)
    totals = lines.aggregate(bounty=Sum("bounty"), owed=Sum("owed"))
    paid = lines.filter(kind=MoveKind.BOUNTY_PAID).aggregate(out=Sum("player_out"))["out"] or 0
    brought = lines.filter(kind__in=bounties.HEAD_KINDS).aggregate(b=Sum("bounty"))["b"] or 0
    return (totals["bounty"] or 0) + (totals["owed"] or 0) + paid, brought


def test_a_fixed_bounty_goes_to_the_player_who_won_the_pot(director: Any) -> None:
    tournament = one_table(director, button=3)
    priced(tournament, director, bounty=2_500, kind=BountyKind.FIXED)
    set_chips(tournament, {4: 1_000})
    loser, winner = at(tournament, 4), at(tournament, 5)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {4: "all_in", 5: "call"}), director, [[5], [4]])
    line = MoneyMove.objects.get(tournament=tournament, kind=MoveKind.BOUNTY_WON)
    assert (line.entrant_id, line.from_entrant_id, line.hand_id) == (winner.pk, loser.pk, hand.pk)
    assert (line.bounty, line.owed, line.player_out) == (-2_500, 2_500, 0)
    found = bounties.heads(tournament)
    assert found.head[loser.pk] == 0 and found.head[winner.pk] == 2_500  # fixed: unchanged
    assert found.owed[winner.pk] == 2_500
    assert conserved(tournament)[0] == conserved(tournament)[1] == 6 * 2_500


def test_a_pko_head_pays_half_in_cash_the_odd_unit_too_and_half_onto_the_winners_head(
    director: Any,
) -> None:
    tournament = one_table(director, button=3)
    priced(tournament, director, bounty=2_501, kind=BountyKind.PROGRESSIVE)
    set_chips(tournament, {4: 1_000})
    loser, winner = at(tournament, 4), at(tournament, 5)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {4: "all_in", 5: "call"}), director, [[5], [4]])
    line = MoneyMove.objects.get(tournament=tournament, kind=MoveKind.BOUNTY_WON)
    assert (line.owed, line.bounty) == (1_251, -1_251)  # the odd unit in cash
    assert bounties.onto_head(line.note) == 1_250
    found = bounties.heads(tournament)
    assert found.head[winner.pk] == 2_501 + 1_250 and found.head[loser.pk] == 0
    # The bounty column holds exactly the heads still in play.
    column = MoneyMove.objects.filter(tournament=tournament).aggregate(b=Sum("bounty"))["b"]
    assert column == sum(found.head.values()) == 6 * 2_501 - 1_251


def test_a_split_pot_splits_the_bounty_the_odd_unit_clockwise_from_the_button(
    director: Any,
) -> None:
    tournament = one_table(director, button=3)
    priced(tournament, director, bounty=2_501, kind=BountyKind.FIXED)
    set_chips(tournament, {4: 1_000})
    loser, five, six = at(tournament, 4), at(tournament, 5), at(tournament, 6)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    hand = play(hand, director, {4: "all_in", 5: "call", 6: "call"})
    settle(hand, director, [[5, 6], [4]])
    # Seat 5 is the first winner clockwise from the button (3): the odd unit (RRoP-TI.5 (a)).
    assert won(tournament) == [(five.pk, loser.pk, 1_251), (six.pk, loser.pk, 1_250)]


def test_two_players_out_on_one_hand_pay_both_heads(director: Any) -> None:
    tournament = one_table(director, button=6)
    priced(tournament, director, bounty=2_000, kind=BountyKind.PROGRESSIVE)
    set_chips(tournament, {1: 1_000, 2: 3_000})
    small, big, three = at(tournament, 1), at(tournament, 2), at(tournament, 3)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {1: "all_in", 2: "all_in", 3: "call"}), director, [[3], [1], [2]])
    # The smaller stack out first (CR-TP.3), each head half in cash, half onto seat 3's head.
    assert won(tournament) == [(three.pk, small.pk, 1_000), (three.pk, big.pk, 1_000)]
    assert bounties.head_of(tournament, three.pk) == 2_000 + 1_000 + 1_000


def test_the_winner_takes_their_own_head_and_no_bounty_money_is_left(director: Any) -> None:
    tournament = one_table(director, players=3)
    priced(tournament, director, bounty=1_001, kind=BountyKind.PROGRESSIVE)
    a, b, c = sorted(chips(tournament))
    tournament.tables.update(button=a)
    set_chips(tournament, {b: 2_000})
    table = room(tournament)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    settle(play(hand, director, {b: "all_in", c: "call"}), director, [[c], [b]])
    champion, second = at(tournament, a), at(tournament, c)
    set_chips(tournament, {c: 5_000, a: 20_000 + 17_000})
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    settle(play(hand, director, {c: "all_in", a: "call"}), director, [[a], [c]])
    tournament.refresh_from_db()
    assert tournament.status == "complete"
    own = MoneyMove.objects.get(kind=MoveKind.BOUNTY_WON, entrant=champion, from_entrant=champion)
    # c won b's 1,001 (501 cash, 500 onto the head); a won c's 1,501 (751 cash, 750 on).
    assert own.owed == 1_001 + 750 and own.hand_id is None
    column = MoneyMove.objects.filter(tournament=tournament).aggregate(b=Sum("bounty"))["b"]
    assert column == 0
    owed = bounties.heads(tournament).owed
    assert owed[second.pk] == 501 and owed[champion.pk] == 751 + 1_751
    assert sum(owed.values()) == 3 * 1_001


def test_a_player_put_out_by_hand_pays_the_player_given_their_last_chips(director: Any) -> None:
    tournament = one_table(director, players=4)
    priced(tournament, director, bounty=500, kind=BountyKind.FIXED)
    giver, taker = tournament.entrants.order_by("number")[:2]
    chip_counts.move_chips(
        from_entrant=giver, to_entrant=taker, chips=giver.chips, reason="Lost a pot", by=director
    )
    eliminations.eliminate_player(entrant=giver, by=director)
    assert won(tournament) == [(taker.pk, giver.pk, 500)]


def test_chips_taken_out_of_play_name_no_eliminator(director: Any) -> None:
    tournament = one_table(director, players=4)
    priced(tournament, director, bounty=500, kind=BountyKind.FIXED)
    giver = tournament.entrants.order_by("number").first()
    assert giver is not None
    chip_counts.move_chips(
        from_entrant=giver, to_entrant=None, chips=giver.chips, reason="Penalty", by=director
    )
    eliminations.eliminate_player(entrant=giver, by=director)
    assert won(tournament) == [] and bounties.head_of(tournament, giver.pk) == 500


def test_no_bounty_no_lines(director: Any) -> None:
    tournament = one_table(director, button=3)
    set_chips(tournament, {4: 1_000})
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {4: "all_in", 5: "call"}), director, [[5], [4]])
    assert not MoneyMove.objects.filter(tournament=tournament).exists()


def test_pay_bounty_pays_what_is_owed_once(director: Any) -> None:
    cashier = make_user(username="cage", role=Role.CASHIER)
    tournament = one_table(director, button=3)
    priced(tournament, director, bounty=2_500, kind=BountyKind.FIXED)
    set_chips(tournament, {4: 1_000})
    winner = at(tournament, 5)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {4: "all_in", 5: "call"}), director, [[5], [4]])
    with pytest.raises(bounties.BountyRefused):
        bounties.pay_bounty(entrant=winner, method=Method.ROOM, by=cashier)
    line = bounties.pay_bounty(entrant=winner, method=Method.CASH, by=cashier)
    assert (line.kind, line.owed, line.player_out, line.by) == (
        MoveKind.BOUNTY_PAID, -2_500, 2_500, cashier,
    )  # fmt: skip
    assert line.note == "Bounties paid: $25.00"  # as the row's amounts read, never "2,500"
    assert bounties.owed_to(winner) == 0 and bounties.heads(tournament).paid[winner.pk] == 2_500
    with pytest.raises(bounties.BountyRefused, match="owed no bounty"):
        bounties.pay_bounty(entrant=winner, method=Method.CASH, by=cashier)
    total, brought = conserved(tournament)
    assert total == brought


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=2, max_value=7),
    bounty=st.integers(min_value=0, max_value=10_001),
    kind=st.sampled_from([BountyKind.FIXED, BountyKind.PROGRESSIVE]),
    data=st.data(),
)
def test_bounty_money_is_conserved_over_any_busts(
    director: Any, players: int, bounty: int, kind: str, data: st.DataObject
) -> None:
    tournament = make_tournament(
        by=director, tables=1, entrants=players, first_table=next(TABLE_NUMBERS)
    )
    priced(tournament, director, bounty=bounty, kind=kind)
    tournament.entrants.update(status=EntrantStatus.SEATED)
    alive = {n: e for n, e in enumerate(tournament.entrants.order_by("number"), start=1)}
    while len(alive) > 1:
        seat = data.draw(st.sampled_from(sorted(alive)))
        others = sorted(set(alive) - {seat})
        winners = data.draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
        button = data.draw(st.integers(min_value=1, max_value=players))
        bounties.share_head(
            tournament, busted=alive[seat], winners=[(s, alive[s]) for s in winners],
            button=button, seat_order=list(range(1, players + 1)), hand=None, by=director,
        )  # fmt: skip
        Entrant.objects.filter(pk=alive.pop(seat).pk).update(status=EntrantStatus.ELIMINATED)
        total, brought = conserved(tournament)
        assert total == brought == players * bounty
        column = MoneyMove.objects.filter(tournament=tournament).aggregate(b=Sum("bounty"))["b"]
        assert column == sum(bounties.heads(tournament).head.values())
    bounties.pay_the_winners_head(tournament, by=director)
    for entrant in tournament.entrants.all():
        if bounties.owed_to(entrant):
            bounties.pay_bounty(entrant=entrant, method=Method.CASH, by=director)
    lines = MoneyMove.objects.filter(tournament=tournament)
    assert lines.aggregate(b=Sum("bounty"), o=Sum("owed")) == {"b": 0, "o": 0}
    paid = lines.filter(kind=MoveKind.BOUNTY_PAID).aggregate(p=Sum("player_out"))["p"] or 0
    assert paid == players * bounty


# --- the cashier's bounties page ---------------------------------------------------------------


def knocked_out(director: Any) -> tuple[Tournament, Entrant]:
    """A PKO where seat 5 put seat 4 out at the desk; seat 5 is owed 1,251."""
    tournament = one_table(director, button=3)
    priced(tournament, director, bounty=2_501, kind=BountyKind.PROGRESSIVE)
    set_chips(tournament, {4: 1_000})
    winner = at(tournament, 5)
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {4: "all_in", 5: "call"}), director, [[5], [4]])
    return tournament, winner


def test_the_cashier_sees_the_heads_and_pays_what_is_owed(client: Any, director: Any) -> None:
    tournament, winner = knocked_out(director)
    client.force_login(make_user(username="cage", role=Role.CASHIER))
    page = client.get(f"/tournaments/{tournament.pk}/money/bounties/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Progressive knockout" in text and "$37.51" in text  # seat 5's head: 25.01 + 12.50
    assert "Pay $12.51" in text
    pay = f"/tournaments/{tournament.pk}/money/bounties/{winner.number}/pay/"
    assert client.post(pay, {"method": "room"}).status_code == 422  # not a way the cage pays
    response = client.post(pay, {"method": "cash"}, follow=True)
    assert response.redirect_chain[-1][1] == 302
    assert f"Paid {winner.name} #{winner.number} $12.51 in bounties." in response.content.decode()
    again = client.post(pay, {"method": "cash"})
    assert again.status_code == 422 and "owed no bounty" in again.content.decode()
    assert MoneyMove.objects.filter(kind=MoveKind.BOUNTY_PAID).count() == 1


@pytest.mark.parametrize("role", [Role.STAFF, Role.FLOOR_MANAGER])
def test_only_money_takers_see_or_pay_bounties(client: Any, director: Any, role: Role) -> None:
    tournament, winner = knocked_out(director)
    client.force_login(make_user(username="other", role=role))
    assert client.get(f"/tournaments/{tournament.pk}/money/bounties/").status_code == 403
    pay = f"/tournaments/{tournament.pk}/money/bounties/{winner.number}/pay/"
    assert client.post(pay, {"method": "cash"}).status_code == 403
    assert bounties.owed_to(winner) == 1_251
