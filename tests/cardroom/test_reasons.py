"""A reason on record is read one way everywhere: spaces collapsed, required, at most 200."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.core.reasons import REASON_MAX, clean_reason
from cardroom.tables import services
from tests.factories import make_hand, make_table


def test_spaces_collapse_and_an_empty_reason_is_refused_with_the_callers_question() -> None:
    assert clean_reason("  dealer \n exposed\tthe card ") == "dealer exposed the card"
    for empty in ("", "   ", "\n\t", None):
        with pytest.raises(ValidationError) as refused:
            clean_reason(empty, "Say why the hand is voided.")
        assert refused.value.message_dict == {"reason": ["Say why the hand is voided."]}


def test_one_length_for_every_reason() -> None:
    assert clean_reason("x" * REASON_MAX) == "x" * REASON_MAX
    with pytest.raises(ValidationError) as refused:
        clean_reason("x" * (REASON_MAX + 1))
    assert refused.value.message_dict == {
        "reason": [f"A reason is at most {REASON_MAX} characters ({REASON_MAX + 1} given)."]
    }


@pytest.mark.django_db
def test_a_void_keeps_the_reason_as_every_other_record_does(floor_manager: Any) -> None:
    hand = make_hand()
    voided = services.void_hand(
        hand=hand, by=floor_manager, expected_seq=hand.seq, reason="  misdeal:\n two  cards "
    )
    assert voided.void_reason == "misdeal: two cards"
    other = make_hand(table=make_table(number=10))
    with pytest.raises(ValidationError) as refused:
        services.void_hand(hand=other, by=floor_manager, expected_seq=other.seq, reason="y" * 201)
    assert "at most 200 characters" in refused.value.message_dict["reason"][0]


def test_a_reason_is_refused_as_the_callers_own_refusal() -> None:
    """The seat map's reasons are refused as the seat map refuses (422 ``seat_refused``), with
    no wrapper of its own around ``clean_reason``."""
    from cardroom.seats.services import SeatRefused

    for reason in ("", "x" * (REASON_MAX + 1)):
        with pytest.raises(SeatRefused) as refused:
            clean_reason(reason, "Say why the stack is corrected.", error=SeatRefused)
        assert list(refused.value.message_dict) == ["reason"]


def test_an_optional_reason_may_be_empty_but_not_longer() -> None:
    assert clean_reason(" \n ", optional=True) == ""
    assert clean_reason(" Kim  asked ", optional=True) == "Kim asked"
    with pytest.raises(ValidationError, match="at most 200 characters"):
        clean_reason("x" * (REASON_MAX + 1), optional=True)


@pytest.mark.django_db
def test_a_released_offer_keeps_its_reason_whole_or_refuses_it(floor_manager: Any) -> None:
    """A released offer's reason follows the one rule: never cut at 300 characters unsaid."""
    from cardroom.waitlists import services as waitlists
    from tests.cardroom.test_waitlist_offers import called_leo

    game, _one, _two, leo = called_leo(floor_manager)
    with pytest.raises(ValidationError, match="at most 200 characters"):
        waitlists.release_offer(entry=leo, by=floor_manager, reason="y" * (REASON_MAX + 1))
    leo.refresh_from_db()
    assert leo.status == "called"  # nothing was released
    waitlists.release_offer(entry=leo, by=floor_manager, reason="z" * REASON_MAX)
    note = game.events.filter(kind="passed").get().note
    assert note.endswith(": " + "z" * REASON_MAX)
