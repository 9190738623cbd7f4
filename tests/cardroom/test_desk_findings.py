"""The desk of a table that runs all night, as a dealer uses it: a corrected
deal says so with its reason on the hand it was dealt into (escaped), the wording a dealer
reads (a race lost, the log's amounts, a sitting-out player who now owes the big blind) and
what the seat panel shows during a hand. Also: a read-only log-in is told why it has no
controls, a straddle is offered unticked and names its seat, the seat form's buy-in, a stack
corrected with a reason, a race lost says what changed and who is to act, and the showdown and
award wording."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardroom.tables.desk import award_words
from cardroom.tables.models import Hand, Table
from tests.cardroom import desk_client
from tests.cardroom.desk_client import deal, fold_to_the_big_blind, latest, post, to_act
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(floor_manager: Any) -> Table:
    return make_table(number=4, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400)


def seat(client: Any, table: Table, number: int, name: str, buy_in: int = 200) -> Any:
    answer = desk_client.seat(client, table, number, name, buy_in)
    assert answer.status_code == 200, answer.content.decode()
    return answer


def test_a_corrected_deal_shows_who_corrected_what_and_why_escaped_during_and_after(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"), (4, "Dee Ray")):
        seat(client, table, number, name)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    proposed = re.search(r'<select name="button">.*?<option value="(\d)" selected', html, re.S)
    assert proposed is not None
    button = 4 if proposed.group(1) != "4" else 3
    small, big = (1, 2) if button == 4 else (4, 1)
    reason = "Button was <b>misplaced</b> & moved"
    answer = post(
        client,
        f"/tables/{table.number}/desk/next/",
        {"correct": "on", "button": button, "small": small, "big": big, "reason": reason},
    )
    assert answer.status_code == 200, answer.content.decode()
    hand = latest(table)
    assert hand.correction["reason"] == reason
    escaped = "Button was &lt;b&gt;misplaced&lt;/b&gt; &amp; moved"
    expected = f"Corrected by td: button to seat {button} (proposed: seat {proposed.group(1)})"
    for html in (
        answer.content.decode(),
        client.get(f"/tables/{table.number}/desk/").content.decode(),
    ):
        note = re.search(r'<p class="correction-note" id="hand-correction">(.*?)</p>', html, re.S)
        assert note is not None, "the hand header says the deal was corrected"
        assert note.group(1).startswith(expected)
        assert note.group(1).endswith(f" — {escaped}")
        assert "<b>misplaced</b>" not in html
    # Folded round to the big blind and pushed: the award says it too.
    fold_to_the_big_blind(client, table, hand)
    pushed = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq})
    assert pushed.status_code == 200
    html = pushed.content.decode()
    awarded = html[html.index('id="awarded"') :]
    assert 'id="hand-correction"' in awarded and escaped in awarded


def test_a_deal_as_proposed_shows_no_correction(persona_client: Any, table: Table) -> None:
    client = persona_client("director")
    seat(client, table, 1, "Ana Ruiz")
    seat(client, table, 2, "Bo Chen")
    answer = post(client, f"/tables/{table.number}/desk/next/", {})
    assert answer.status_code == 200
    assert "hand-correction" not in answer.content.decode()


def test_a_tournament_hands_correction_reads_the_same(director: Any) -> None:
    from cardroom.tables.desk import correction_words

    hand = Hand(
        button=5,
        blinds={"small": None, "big": 2},
        correction={"proposed": {"button": 5, "small": 1, "big": 2}, "reason": "seat 1 moved"},
        started_by=director,
    )
    assert correction_words(hand) == (
        "Corrected by td: small blind dead (proposed: seat 1) — seat 1 moved"
    )
    assert correction_words(Hand(button=1, correction={}, started_by=director)) == ""


def test_the_log_and_the_action_panel_write_amounts_with_thousands_separators(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=8, by=floor_manager, seats=6, min_buy_in=2000, max_buy_in=40000)
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name, buy_in=30000)
    hand = deal(client, table)
    first = to_act(client, table)
    data = {"expected_seq": hand.seq, "seat": first, "action": "raise", "to": 12000}
    answer = post(client, f"/hands/{hand.pk}/act/", data)
    assert answer.status_code == 200, answer.content.decode()
    html = answer.content.decode()
    assert f"Seat {first} {hand.names[str(first)]} raises to 12,000" in html
    log = html[html.index('<ol class="log">') :]
    assert "12000" not in log[: log.index("</ol>")]
    panel = html[html.index('<div class="row action-row">') :]
    panel = re.sub(r'(value|min|max)="\d+"', "", panel[: panel.index('<div class="why">')])
    assert "12000" not in panel and "30,000</span>" in panel  # the raise box's range too
    assert re.search(r"Call 11,99[89] <kbd", html), "the Call button says what it puts in"
    hand.refresh_from_db()
    second = to_act(client, table)
    data = {"expected_seq": hand.seq, "seat": second, "action": "call"}
    html = post(client, f"/hands/{hand.pk}/act/", data).content.decode()
    assert re.search(rf"Seat {second} {hand.names[str(second)]} calls 11,99[89]<", html)


def test_a_held_action_is_worded_with_separators_too() -> None:
    from cardroom.tables.desk import held_words
    from rules.engine.state import Action, ActionKind

    assert held_words(Action(3, ActionKind.RAISE, 12000)) == "raise to 12,000"
    assert held_words(Action(3, ActionKind.BET, 1500)) == "bet 1,500"


def test_a_race_lost_on_an_action_a_void_or_a_push_is_worded_for_a_dealer_not_in_steps(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name)
    hand = deal(client, table)
    seen = hand.seq  # this device's view of the hand
    first = to_act(client, table)
    data = {"expected_seq": seen, "seat": first, "action": "call"}
    assert post(client, f"/hands/{hand.pk}/act/", data).status_code == 200  # the other device
    late = [
        post(client, f"/hands/{hand.pk}/act/", {**data, "action": "fold"}),
        post(client, f"/hands/{hand.pk}/void/last/", {"expected_seq": seen, "reason": "x"}),
        post(client, f"/hands/{hand.pk}/award/", {"expected_seq": seen}),
    ]
    for answer in late:
        assert answer.status_code == 409
        html = answer.content.decode()
        alert = html[html.index('role="alert"') :]
        alert = alert[: alert.index("</div>")]
        assert "Someone else got there first" in alert
        assert f"Hand #{hand.number} was changed on another device" in alert
        assert "step" not in alert.lower(), alert
    no_seq = post(client, f"/hands/{hand.pk}/award/", {})
    assert no_seq.status_code == 422
    html = no_seq.content.decode()
    alert = html[html.index('role="alert"') :]
    assert "step" not in alert[: alert.index("</div>")].lower()  # the page's "Void hand" step


def test_the_proposal_says_a_sitting_out_player_passed_by_the_big_blind_now_owes_it(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    names = {1: "Ana Ruiz", 2: "Bo Chen", 3: "Cy Diaz", 4: "Dee Ray"}
    for number, name in names.items():
        seat(client, table, number, name)
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    assert post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq}).status_code == 200
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    big = re.search(r'id="next-seat-(\d)">(?:(?!</li>).)*Big blind', html, re.S)
    assert big is not None
    out = int(big.group(1))  # the next big blind sits out: the big blind passes them
    assert post(client, f"/tables/{table.number}/desk/seats/{out}/out/", {}).status_code == 200
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert f'id="next-seat-{out}"' not in html
    note = re.search(r'<p class="proposal-note missed-note">(.*?)</p>', html, re.S)
    assert note is not None, "the proposal says who comes to owe a blind"
    assert note.group(1) == (
        f"Seat {out} ({names[out]}) is sitting out: passed by the big blind, owes the big blind"
        " and the small blind (CR-BB.5)."
    )
    # Dealt: the seat map shows the debt, and the next proposal does not say it again.
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    assert post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq}).status_code == 200
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert "Owes big + small blinds" in html
    assert f"Seat {out} ({names[out]}) is sitting out: passed by the big blind" not in html


def test_during_a_hand_the_seat_panel_shows_the_stack_behind_now(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=8, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=4000)
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"), (4, "Dee Ray")):
        seat(client, table, number, name, buy_in=1500)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert "at the start of the hand" not in html  # between hands: the stacks are the stacks
    hand = deal(client, table)
    first = to_act(client, table)
    data = {"expected_seq": hand.seq, "seat": first, "action": "raise", "to": 100}
    html = post(client, f"/hands/{hand.pk}/act/", data).content.decode()
    row = html[html.index(f'id="seat-row-{first}"') :]
    row = row[: row.index("</li>")]
    stack = re.search(r'class="seat-stack"[^>]*>([^<]*)<', row)
    assert stack is not None and stack.group(1) == "1,400", row
    assert "1,500 at the start of the hand" in row
    behind = sorted(
        re.findall(r'id="seat-row-\d"(?:(?!</li>).)*?class="seat-stack"[^>]*>([\d,]+)<', html, re.S)
    )
    assert behind == ["1,400", "1,498", "1,499", "1,500"]  # the blinds; the button put in nothing
    # Only a stack that has changed says what it was at the start.
    assert html.count("at the start of the hand") == 3


# --- after the hands-on user test -----------------------------------------------------------

NOTE = "Read-only: dealing and seating need a floor manager or tournament director log-in"


def test_a_staff_log_in_is_told_the_desk_is_read_only_and_a_manager_is_not(
    persona_client: Any, table: Table
) -> None:
    staff = persona_client("staff").get(f"/tables/{table.number}/desk/").content.decode()
    assert NOTE in staff
    for persona in ("floor_manager", "director"):
        html = persona_client(persona).get(f"/tables/{table.number}/desk/").content.decode()
        assert NOTE not in html, persona


def test_a_race_lost_says_the_latest_action_and_who_is_to_act_now(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name)
    hand = deal(client, table)
    seen = hand.seq
    first = to_act(client, table)
    data = {"expected_seq": seen, "seat": first, "action": "call"}
    assert post(client, f"/hands/{hand.pk}/act/", data).status_code == 200  # the other device
    after = to_act(client, table)
    assert after is not None and after != first
    late = post(client, f"/hands/{hand.pk}/act/", {**data, "action": "fold"})
    assert late.status_code == 409
    html = late.content.decode()
    alert = html[html.index('role="alert"') :]
    alert = alert[: alert.index("</div>")]
    assert "Someone else got there first" in alert
    assert f"Latest: Seat {first} {hand.names[str(first)]} calls 2" in alert, alert
    assert f"Seat {after} is now to act." in alert, alert


def test_showdown_legends_and_award_rows_read_cleanly() -> None:
    from django.template.loader import render_to_string

    showdown = {
        "pots": [
            {"name": "the main pot", "amount": 399, "index": 0, "eligible": [{"seat": 1}]},
            {"name": "side pot 1", "amount": 6, "index": 1, "eligible": [{"seat": 2}]},
        ]
    }
    html = render_to_string("cardroom/desk_seats.html#board", {"showdown": showdown, "board": 1})
    assert re.search(r"Side pot 1: <strong>6</strong>", html), html
    rows = [
        {"seat": 1, "name": "Ana", "words": award_words(0, 151), "stack": 151},
        {"seat": 2, "name": "Bo", "words": award_words(6, 4), "stack": 10},
    ]
    hand = {"number": 3, "result": {}}
    html = render_to_string("cardroom/desk_seats.html#awarded", {"awarded": rows, "hand": hand})
    assert '<span class="award-won">151 uncalled returned</span>' in html, html
    assert '<span class="award-won">wins 6 · 4 uncalled returned</span>' in html, html


def test_the_seat_forms_aside_is_not_inside_its_label(persona_client: Any, table: Table) -> None:
    table.missed_blinds = "post"
    table.save()
    html = persona_client("director").get(f"/tables/{table.number}/desk/").content.decode()
    assert "(else posts a big blind now)" in html
    assert not re.search(r"<label[^>]*>(?:(?!</label>).)*else posts a big blind", html, re.S)


def test_the_proposal_names_the_straddler_unticked_and_the_dealt_hand_badges_the_seat(
    persona_client: Any, table: Table
) -> None:
    Table.objects.filter(pk=table.pk).update(straddle=4)
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"), (5, "Kim Lee")):
        seat(client, table, number, name)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    big = re.search(r'id="next-seat-(\d)">(?:(?!</li>).)*Big blind', html, re.S)
    assert big is not None
    order = [1, 2, 3, 5]
    straddler = order[(order.index(int(big.group(1))) + 1) % 4]
    names = {1: "Ana Ruiz", 2: "Bo Chen", 3: "Cy Diaz", 5: "Kim Lee"}
    box = re.search(r'<label class="check" id="straddle-box">(.*?)</label>', html, re.S)
    assert box is not None, html
    assert "checked" not in box.group(1)  # the player's choice: not posted until ticked
    assert f"Seat {straddler} ({names[straddler]}) straddles 4" in box.group(1)
    row = re.search(rf'id="next-seat-{straddler}">(.*?)</li>', html, re.S)
    assert row is not None and "May straddle 4" in row.group(1)
    data = {"straddle_offered": "on", "straddle": "on"}
    assert post(client, f"/tables/{table.number}/desk/next/", data).status_code == 200
    hand = latest(table)
    assert hand.game["straddle"] == 4
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    badges = re.findall(r"Seat (\d)(?:(?!</span>\s*</span>|Seat \d).)*?>Straddle</span>", html)
    assert badges == [str(straddler)], badges


def test_the_straddle_is_not_posted_when_the_box_is_left_unticked(
    persona_client: Any, table: Table
) -> None:
    Table.objects.filter(pk=table.pk).update(straddle=4)
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name)
    data = {"straddle_offered": "on"}  # the form as sent with the box unticked
    assert post(client, f"/tables/{table.number}/desk/next/", data).status_code == 200
    assert latest(table).game["straddle"] == 0
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert ">Straddle</span>" not in html


def test_the_seat_forms_buy_in_starts_empty_and_required_with_the_range_beside_it(
    persona_client: Any, table: Table
) -> None:
    html = persona_client("director").get(f"/tables/{table.number}/desk/").content.decode()
    box = re.search(r'<input type="number" name="buy_in"[^>]*>', html)
    assert box is not None
    assert "required" in box.group(0) and "value=" not in box.group(0), box.group(0)
    assert 'min="40"' in box.group(0) and 'max="400"' in box.group(0)
    assert 'id="buy-in-range-1">40–400</span>' in html


def test_a_stack_typed_wrong_is_corrected_with_a_reason(persona_client: Any, table: Table) -> None:
    from cardroom.seats.models import SeatEvent, TableSeat

    client = persona_client("director")
    seat(client, table, 1, "Zed Enter", buy_in=400)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert 'id="add-range-1">up to 0</span>' in html  # at the maximum already
    url = f"/tables/{table.number}/desk/seats/1/correct/"
    missing = post(client, url, {"stack": 100, "reason": ""})
    assert missing.status_code == 422 and "reason" in missing.content.decode()
    assert post(client, url, {"stack": "lots", "reason": "x"}).status_code == 422
    fixed = post(client, url, {"stack": 100, "reason": "typed 400, bought in for 100"})
    assert fixed.status_code == 200
    row = TableSeat.objects.get(table=table, seat=1, left_at__isnull=True)
    assert row.stack == 100
    event = SeatEvent.objects.filter(table=table, kind="corrected").get()
    assert event.amount == -300 and event.note == "typed 400, bought in for 100"
    assert 'id="add-range-1">up to 300</span>' in fixed.content.decode()
    staff = persona_client("staff")
    assert post(staff, url, {"stack": 50, "reason": "x"}).status_code == 403
