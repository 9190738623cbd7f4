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
