"""The betting desk page: options from the engine, refusals with their rule, 409 on stale."""

import re
from typing import Any

import pytest

from cardroom.tables.models import Hand
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


def test_desk_shows_the_options_of_the_player_to_act(persona_client: Any) -> None:
    hand = make_hand()
    html = persona_client("director").get(f"/tables/{hand.table.number}/desk/").content.decode()
    assert "Seat <strong>1</strong> to act" in html
    assert "Call 2" in html
    assert 'min="4"' in html  # minimum raise to twice the big blind


def test_staff_see_the_desk_without_buttons_and_cannot_post(persona_client: Any) -> None:
    hand = make_hand()
    client = persona_client("staff")
    html = client.get(f"/tables/{hand.table.number}/desk/").content.decode()
    assert "Call 2" not in html
    post = client.post(f"/hands/{hand.pk}/act/", {"expected_seq": 0, "seat": 1, "action": "call"})
    assert post.status_code == 403
    assert client.post(f"/tables/{hand.table.number}/desk/deal/", {}).status_code == 403


def test_a_too_small_raise_is_refused_with_its_citation(persona_client: Any) -> None:
    hand = make_hand()
    response = persona_client("director").post(
        f"/hands/{hand.pk}/act/",
        {"expected_seq": 0, "seat": 1, "action": "raise", "to": 3},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "Refused" in html and 'class="citation"' in html
    assert not hand.actions.exists()


def test_a_stale_desk_gets_409_and_the_fresh_hand(persona_client: Any) -> None:
    hand = make_hand()
    client = persona_client("director")
    client.post(f"/hands/{hand.pk}/act/", {"expected_seq": 0, "seat": 1, "action": "call"})
    stale = client.post(
        f"/hands/{hand.pk}/act/",
        {"expected_seq": 0, "seat": 1, "action": "fold"},
        HTTP_HX_REQUEST="true",
    )
    assert stale.status_code == 409
    assert "Seat <strong>2</strong> to act" in stale.content.decode()


def test_polling_returns_204_until_something_changes(persona_client: Any) -> None:
    hand = make_hand()
    client = persona_client("staff")
    url = f"/tables/{hand.table.number}/desk/?seq={hand.pk}:0"
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 204
    persona_client("director").post(
        f"/hands/{hand.pk}/act/", {"expected_seq": 0, "seat": 1, "action": "call"}
    )
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200


def test_the_deal_form_asks_whether_the_straddle_was_posted(persona_client: Any) -> None:
    table = make_table(number=9, straddle=4)
    client = persona_client("floor_manager")
    page = client.get(f"/tables/{table.number}/desk/").text
    # A voluntary live straddle (RRoP-14.14): unticked until the dealer sees it posted.
    assert 'name="straddle"' in page and "checked" not in page.split('name="straddle"')[1][:40]
    stacks = {"button": 1, "stack_1": 100, "stack_2": 100, "stack_3": 100, "stack_4": 100}
    client.post(f"/tables/{table.number}/desk/deal/", stacks)  # unticked: declined
    hand = Hand.objects.get()
    assert hand.game["straddle"] == 0
    assert "straddle" not in client.get(f"/tables/{make_table(number=10).number}/desk/").text


def test_dealing_from_the_desk(persona_client: Any) -> None:
    table = make_table(number=8)
    response = persona_client("floor_manager").post(
        f"/tables/{table.number}/desk/deal/",
        {"button": 2, "stack_1": 100, "stack_2": 150, "stack_4": 80},
    )
    assert response.status_code == 200
    hand = Hand.objects.get()
    assert hand.button == 2 and [s["seat"] for s in hand.seats] == [1, 2, 4]
    bad = persona_client("floor_manager").post(
        f"/tables/{table.number}/desk/deal/", {"button": 1, "stack_1": 100}
    )
    assert bad.status_code == 422


def count(client: Any, hand: Any, **data: Any) -> Any:
    return client.post(f"/hands/{hand.pk}/count/", {"read": "1", **data})


def test_the_chip_reader_counts_chips_and_words_with_the_rule(persona_client: Any) -> None:
    hand = make_hand()  # 1/2: seat 1 faces the big blind of 2
    client = persona_client("staff")  # it writes nothing: every reader may use it
    one_chip = count(client, hand, chips=["25"])
    assert one_chip.status_code == 200
    assert "Call to 2</strong>, 23 back" in one_chip.text  # an oversized chip is a call
    assert 'class="citation"' in one_chip.text
    two_chips = count(client, hand, chips=["5", "1"])
    assert "Raise to 6</strong>" in two_chips.text  # the 50% standard reached
    said = count(client, hand, chips=["5", "5"], verbal="raise", verbal_to="10")
    assert "Raise to 10</strong>" in said.text
    assert hand.actions.count() == 0


def test_the_chip_reader_taps_chips_before_reading_and_refuses_strange_ones(
    persona_client: Any,
) -> None:
    hand = make_hand()
    client = persona_client("staff")
    tapped = client.post(f"/hands/{hand.pk}/count/", {"chips": ["5"], "add": "25"})
    assert tapped.status_code == 200
    assert 'id="chips-out">5 + 25<' in tapped.text and "reading" not in tapped.text
    strange = count(client, hand, chips=["7"])
    assert strange.status_code == 422
    assert "not a chip used at this table" in strange.text


def test_the_ruling_form_offers_the_chip_reader_for_the_hand_in_dispute(
    persona_client: Any,
) -> None:
    hand = make_hand()
    page = persona_client("director").get(f"/rulings/new/?table={hand.table.number}&hand={hand.pk}")
    assert "What does this count as?" in page.text
    assert f'hx-post="/hands/{hand.pk}/count/"' in page.text
    without_hand = persona_client("director").get(f"/rulings/new/?table={hand.table.number}")
    assert "What does this count as?" not in without_hand.text


def play(hand: Any, *steps: tuple[int, str, int | None]) -> None:
    from django.contrib.auth.models import User

    from cardroom.tables.services import record_action

    by = User.objects.get(username="factory")
    for seat, action, to in steps:
        hand.refresh_from_db()
        record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action=action, to=to)


def log_lines(hand: Any) -> list[str]:
    from cardroom.tables.desk import desk_view

    hand.refresh_from_db()
    return [line["text"] for line in desk_view(hand)["log"]]


def test_the_action_log_states_the_amounts_in_the_dealers_words() -> None:
    hand = make_hand(stacks={1: 200, 2: 200, 3: 50})  # button 1, blinds 1/2: seats 2 and 3
    play(hand, (1, "raise", 6), (2, "call", None), (3, "all_in", None), (1, "call", None))
    assert log_lines(hand) == [
        "Seat 1 raises to 6",
        "Seat 2 calls 5",  # the small blind had 1 in
        "Seat 3 goes all-in for 50",  # the big blind's whole stack: 2 posted and 48 more
        "Seat 1 calls 44",
    ]
    play(hand, (2, "fold", None))
    assert log_lines(hand)[-1] == "Seat 2 folds"


def test_the_log_says_checks_and_bets_and_words_a_voided_action_as_entered() -> None:
    from django.contrib.auth.models import User

    from cardroom.tables.services import void_last_action

    hand = make_hand()
    play(hand, (1, "call", None), (2, "call", None), (3, "check", None))  # to the flop
    play(hand, (2, "raise", 10))  # no bet yet: a bet of 10
    hand.refresh_from_db()
    void_last_action(
        hand=hand, by=User.objects.get(username="factory"), expected_seq=hand.seq, reason="x"
    )
    play(hand, (2, "bet", 8), (3, "call", None), (1, "all_in", None))
    assert log_lines(hand) == [
        "Seat 1 calls 2",
        "Seat 2 calls 1",
        "Seat 3 checks",
        "Seat 2 bets 10",  # voided, still worded as it was entered
        "Seat 2 bets 8",
        "Seat 3 calls 8",
        "Seat 1 goes all-in for 198",
    ]


def submit_buttons(form: str) -> list[str]:
    return re.findall(r"<button(?![^>]*type=\"button\")[^>]*>\s*([^<]*)", form)


def test_no_desk_form_has_fold_or_void_as_its_default(persona_client: Any) -> None:
    """STYLE: Enter submits a form through its first submit button, so that button is never
    Fold or Void; the raise box sits in a form whose only button raises."""
    hand = make_hand()
    html = persona_client("director").get(f"/tables/{hand.table.number}/desk/").text
    forms = re.findall(r"<form.*?</form>", html, re.S)
    defaults = {submit_buttons(form)[0].strip() for form in forms if submit_buttons(form)}
    assert not any(d.startswith(("Fold", "Void")) for d in defaults)
    raise_form = next(form for form in forms if 'name="to"' in form)
    assert [b.strip() for b in submit_buttons(raise_form)] == ["Raise"]


def test_a_double_tap_of_the_same_action_is_not_a_conflict(persona_client: Any) -> None:
    """The same device sending the same action twice (a double tap, or a key pressed again
    before the answer): the first goes in once, the second shows the desk without a refusal."""
    hand = make_hand()
    client = persona_client("director")
    tap = {"expected_seq": 0, "seat": 1, "action": "call"}
    assert client.post(f"/hands/{hand.pk}/act/", tap, HTTP_HX_REQUEST="true").status_code == 200
    again = client.post(f"/hands/{hand.pk}/act/", tap, HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    html = again.content.decode()
    assert "got there first" not in html and 'class="refusal' not in html
    assert "Seat <strong>2</strong> to act" in html
    assert hand.actions.count() == 1


def test_the_same_action_from_another_log_in_is_still_a_conflict(persona_client: Any) -> None:
    hand = make_hand()
    tap = {"expected_seq": 0, "seat": 1, "action": "call"}
    persona_client("director").post(f"/hands/{hand.pk}/act/", tap)
    other = persona_client("floor_manager").post(
        f"/hands/{hand.pk}/act/", tap, HTTP_HX_REQUEST="true"
    )
    assert other.status_code == 409
    assert "Someone else got there first" in other.content.decode()


def test_a_repeat_after_the_hand_moved_on_is_a_conflict(persona_client: Any) -> None:
    hand = make_hand()
    client = persona_client("director")
    client.post(f"/hands/{hand.pk}/act/", {"expected_seq": 0, "seat": 1, "action": "call"})
    client.post(f"/hands/{hand.pk}/act/", {"expected_seq": 1, "seat": 2, "action": "call"})
    late = client.post(
        f"/hands/{hand.pk}/act/",
        {"expected_seq": 0, "seat": 1, "action": "call"},
        HTTP_HX_REQUEST="true",
    )
    assert late.status_code == 409
    assert hand.actions.count() == 2


def test_the_same_action_from_another_device_of_the_same_log_in_is_a_conflict(
    persona_client: Any,
) -> None:
    """A table's two tablets may share the dealer's log-in: the second tablet's tap was not
    its own repeat, and it is told the first got there first."""
    hand = make_hand()
    tap = {"expected_seq": 0, "seat": 1, "action": "call"}
    first, second = persona_client("director"), persona_client("director")  # two sessions
    assert first.post(f"/hands/{hand.pk}/act/", tap, HTTP_HX_REQUEST="true").status_code == 200
    other = second.post(f"/hands/{hand.pk}/act/", tap, HTTP_HX_REQUEST="true")
    assert other.status_code == 409
    assert "Someone else got there first" in other.content.decode()
    assert first.post(f"/hands/{hand.pk}/act/", tap, HTTP_HX_REQUEST="true").status_code == 200
    assert hand.actions.count() == 1
