"""The chip counts' pages and API: who may (counts and corrections: directors and floor
managers; moves: directors), what is refused and how (422 keeping what was typed, 409 when a
hand at the desk holds the player), the table map answering each change, and a property:
any run of corrections and moves keeps the log and the counts in agreement, and moves never
make or lose a chip."""

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.test_table_hands import at, one_table, room
from tournaments import chip_counts, table_hands
from tournaments.chip_counts import ChipsRefused
from tournaments.models import ChipChange, ChipCount, Entrant, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def count_url(tournament: Tournament, number: int) -> str:
    return reverse("tournaments:count_correct", args=[tournament.pk, number])


def test_who_may_count_correct_and_move_chips(persona_client: Any, director: Any) -> None:
    tournament = one_table(director)
    number = at(tournament, 2).number
    body = {"chips": "20500", "reason": "Recount"}
    counts = reverse("tournaments:table_counts", args=[tournament.pk, 1])
    move = reverse("tournaments:chips_move", args=[tournament.pk, number])
    staff = persona_client("staff")
    assert staff.post(count_url(tournament, number), body).status_code == 403
    assert staff.get(counts).status_code == 403
    assert staff.post(counts, {"reason": "x"}).status_code == 403
    manager = persona_client("floor_manager")
    assert manager.post(move, {"to": "out", "chips": "1", "reason": "x"}).status_code == 403
    assert manager.get(counts).status_code == 200
    done = manager.post(count_url(tournament, number), body, headers=HTMX)
    assert done.status_code == 200 and b'id="table-map"' in done.content
    assert done.headers["HX-Retarget"] == "#table-map"
    assert b"count corrected: 20,500 (was 20,000)" in done.content
    assert Entrant.objects.get(tournament=tournament, number=number).chips == 20_500
    assert not ChipCount.objects.filter(kind=ChipChange.OUT_OF_PLAY).exists()


@pytest.mark.parametrize(
    ("chips", "said"),
    [
        ("²", "A whole number in digits"),
        ("٣", "A whole number in digits"),
        ("-5", "A whole number in digits"),
        ("1.5", "A whole number in digits"),
        ("9" * 30, "At most 9,007,199,254,740,991 chips."),
        ("", "This field is required."),
    ],
)
def test_a_bad_correction_is_a_422_with_the_typed_value_kept(
    persona_client: Any, director: Any, chips: str, said: str
) -> None:
    tournament = one_table(director)
    number = at(tournament, 2).number
    client = persona_client("director")
    answer = client.post(
        count_url(tournament, number), {"chips": chips, "reason": "Recount"}, headers=HTMX
    )
    assert answer.status_code == 422
    html = answer.content.decode()
    assert said in html and f'value="{chips}"' in html and 'value="Recount"' in html
    assert f'id="count-{number}"' in html and "autofocus" in html
    assert Entrant.objects.get(tournament=tournament, number=number).chips == 20_000


def test_a_correction_without_a_reason_or_for_a_player_in_a_hand_is_refused(
    persona_client: Any, director: Any
) -> None:
    tournament = one_table(director, button=1)
    client = persona_client("director")
    number = at(tournament, 4).number
    no_reason = client.post(count_url(tournament, number), {"chips": "5", "reason": " "})
    assert no_reason.status_code == 422 and b"This field is required." in no_reason.content
    table_hands.deal_tournament_hand(table=room(tournament), by=director)
    in_hand = client.post(count_url(tournament, number), {"chips": "5", "reason": "Recount"})
    assert in_hand.status_code == 409
    assert b"correct the count once its pots are pushed" in in_hand.content


def test_a_tables_counts_form_is_prefilled_keeps_what_was_typed_and_records_them_all(
    persona_client: Any, director: Any
) -> None:
    tournament = one_table(director)
    client = persona_client("floor_manager")
    url = reverse("tournaments:table_counts", args=[tournament.pk, 1])
    form = client.get(url, headers=HTMX)
    html = form.content.decode()
    assert form.status_code == 200 and "<html" not in html
    numbers = sorted(e.number for e in tournament.entrants.all())
    assert html.count('value="20000"') == 6 and html.count("autofocus") == 1
    assert 'hx-post="' in html and "Record the counts" in html
    typed = {f"chips_{n}": str(20_000 + 100 * i) for i, n in enumerate(numbers)}
    refused = client.post(
        url, {**typed, f"chips_{numbers[2]}": "2O000", "reason": ""}, headers=HTMX
    )
    html = refused.content.decode()
    assert refused.status_code == 422 and "<html" not in html
    assert 'value="2O000"' in html and 'value="20100"' in html  # what was typed, kept
    assert "A whole number in digits" in html and "This field is required." in html
    assert not ChipCount.objects.exists()
    done = client.post(url, {**typed, "reason": "First break"}, headers=HTMX)
    assert done.status_code == 200 and done.headers["HX-Retarget"] == "#table-map"
    assert b"Table 101 counted: 6 counts recorded." in done.content
    assert ChipCount.objects.filter(kind=ChipChange.COUNT).count() == 6
    # Without JavaScript: the page of its own, and back to the tournament when done.
    page = client.get(url)
    assert page.status_code == 200 and b"<html" in page.content
    back = client.post(url, {**typed, "reason": "Again"})
    assert back.status_code == 302


def test_a_zero_count_says_the_player_must_be_put_out(persona_client: Any, director: Any) -> None:
    tournament = one_table(director)
    ana = at(tournament, 5)
    answer = persona_client("director").post(
        count_url(tournament, ana.number), {"chips": "0", "reason": "Nothing left"}, headers=HTMX
    )
    assert answer.status_code == 200
    assert f"No chips left: {ana.name} #{ana.number}. Put the player out.".encode() in (
        answer.content
    )


def test_the_page_shows_whether_the_chips_add_up(persona_client: Any, director: Any) -> None:
    tournament = one_table(director)
    client = persona_client("director")
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Chips in play 120,000 · expected 120,000 ✓" in page
    chip_counts.correct_count(
        entrant=at(tournament, 1), chips=19_000, reason="Dropped", by=director
    )
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "expected 120,000: 1,000 missing" in page and "chip-difference" in page
    assert "correction 20,000 → 19,000" in page and "“Dropped”" in page


def test_each_player_offers_the_two_ways_out_to_directors_beside_the_count(
    persona_client: Any, director: Any
) -> None:
    tournament = one_table(director)
    ana, bo = at(tournament, 1), at(tournament, 2)
    url = reverse("tournaments:detail", args=[tournament.pk])
    page = persona_client("director").get(url).content.decode()
    move = reverse("tournaments:chips_move", args=[tournament.pk, ana.number])
    assert f'action="{move}"' in page and f'id="move-to-{ana.number}"' in page
    assert f'<option value="{bo.number}">{bo.name} #{bo.number} (seat 2)</option>' in page
    # A floor manager corrects counts but does not decide where chips go.
    page = persona_client("floor_manager").get(url).content.decode()
    assert f'id="count-{ana.number}"' in page and f'action="{move}"' not in page


def test_moving_chips_on_the_page_refuses_a_stranger_and_too_many(
    persona_client: Any, director: Any
) -> None:
    tournament = one_table(director)
    ana, bo = at(tournament, 1), at(tournament, 2)
    client = persona_client("director")
    url = reverse("tournaments:chips_move", args=[tournament.pk, ana.number])
    nobody = client.post(url, {"to": "99", "chips": "5", "reason": "x"}, headers=HTMX)
    assert nobody.status_code == 422 and b"Nobody has entry number 99" in nobody.content
    many = client.post(url, {"to": str(bo.number), "chips": "20001", "reason": "x"}, headers=HTMX)
    assert many.status_code == 422 and b"has 20,000 chips: at most that moves" in many.content
    assert b'value="20001"' in many.content
    done = client.post(url, {"to": str(bo.number), "chips": "500", "reason": "Pot"}, headers=HTMX)
    assert done.status_code == 200
    assert f"500 chips of {ana.name} to {bo.name} #{bo.number}.".encode() in done.content


# --- the API ------------------------------------------------------------------------------------

API = "/api/v1/tournaments/"


def test_the_api_counts_corrects_and_moves_with_its_refusals(
    api_client_for: Any, director: Any
) -> None:
    tournament = one_table(director, button=1)
    ana, bo = at(tournament, 1), at(tournament, 2)
    base = f"{API}{tournament.pk}/"
    staff, manager, td = (api_client_for(p) for p in ("staff", "floor_manager", "director"))
    body = {"chips": 21_000, "reason": "Recount"}
    assert staff.post(f"{base}entrants/{ana.number}/count/", body, format="json").status_code == 403
    move = {"to": bo.number, "chips": 100, "reason": "Pot"}
    moved = manager.post(f"{base}entrants/{ana.number}/chips/move/", move, format="json")
    assert moved.status_code == 403
    for bad in ("²", -1, 1.5, True, "9" * 17):
        answer = td.post(
            f"{base}entrants/{ana.number}/count/", {**body, "chips": bad}, format="json"
        )
        assert answer.status_code == 400, bad
        assert answer.json()["error"]["code"] == "bad_request"
    done = manager.post(f"{base}entrants/{ana.number}/count/", body, format="json")
    assert done.status_code == 201 and done.json()["chips_before"] == 20_000
    assert done.json()["kind"] == "correction" and done.json()["by"] == "fm"
    too_many = td.post(
        f"{base}entrants/{ana.number}/chips/move/", {**move, "chips": 21_001}, format="json"
    )
    assert too_many.status_code == 422 and too_many.json()["error"]["code"] == "chips_refused"
    pair = td.post(f"{base}entrants/{ana.number}/chips/move/", move, format="json")
    assert pair.status_code == 201
    assert [row["kind"] for row in pair.json()] == ["transfer_out", "transfer_in"]
    counts = {str(e.number): e.chips for e in tournament.entrants.all()}
    short = {k: v for k, v in counts.items() if k != str(bo.number)}
    missing = td.post(
        f"{base}tables/1/counts/", {"counts": short, "reason": "Break"}, format="json"
    )
    assert missing.status_code == 422 and "counted whole" in missing.json()["error"]["message"]
    whole = td.post(f"{base}tables/1/counts/", {"counts": counts, "reason": "Break"}, format="json")
    assert whole.status_code == 201 and len(whole.json()) == 6
    summary = staff.get(f"{base}chips/").json()
    assert summary["expected"] == 120_000 and summary["difference"] == 1_000
    table_hands.deal_tournament_hand(table=room(tournament), by=director)
    held = td.post(f"{base}entrants/{ana.number}/count/", body, format="json")
    assert held.status_code == 409 and held.json()["error"]["code"] == "in_hand"


# --- a property: the log and the counts agree, moves conserve chips ----------------------------


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.tuples(st.sampled_from(["correct", "give", "out"]), st.integers(1, 6),
                                st.integers(1, 6), st.integers(0, 60_000)), max_size=12))  # fmt: skip
def test_any_run_of_corrections_and_moves_keeps_the_chips_accounted_for(
    director: Any, steps: list[tuple[str, int, int, int]]
) -> None:
    """Counted + out of play - what counts and corrections changed = entries x starting stack,
    after any run of corrections, transfers and chips out of play (refused steps write
    nothing); each entrant's count is the last ``chips_after`` the log has for them; a
    transfer's two rows move the same chips."""
    with transaction.atomic():
        tournament = one_table(director)
        seats = {seat: at(tournament, seat) for seat in range(1, 7)}
        for kind, one, other, chips in steps:
            giver = Entrant.objects.get(pk=seats[one].pk)
            try:
                if kind == "correct":
                    chip_counts.correct_count(entrant=giver, chips=chips, reason="r", by=director)
                else:
                    to = seats[other] if kind == "give" else None
                    chip_counts.move_chips(
                        from_entrant=giver, to_entrant=to, chips=chips, reason="r", by=director
                    )
            except ChipsRefused:
                pass
        check = chip_counts.reconcile(tournament)
        assert check.in_play + check.out_of_play - check.corrected == 6 * 20_000
        assert check.difference == check.corrected
        for entrant in tournament.entrants.all():
            last = entrant.chip_counts.order_by("-id").first()
            assert entrant.chips == (last.chips_after if last else 20_000)
        for row in ChipCount.objects.filter(tournament=tournament, kind=ChipChange.TRANSFER_OUT):
            pair = ChipCount.objects.get(
                tournament=tournament, transfer=row.transfer, kind=ChipChange.TRANSFER_IN
            )
            assert row.chips_before - row.chips_after == pair.chips_after - pair.chips_before > 0
        transaction.set_rollback(True)
