"""Players as people: one record per name and contact (a phone read as its digits, an e-mail
case-folded), two people of one name told apart by their contacts, a name alone finding the
one player of that name or asking which; a bar (reason, who, when) refusing a seat, a list
and (``tests/tournaments/test_player_entries.py``) a tournament entry; every change to a
player in the player's chained log."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.core import audit
from cardroom.core.api_errors import Conflict
from cardroom.seats import services as players
from cardroom.seats.models import Player, PlayerChange, contact_key, split_contact
from cardroom.waitlists import services as waitlists
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("+34 600-12-34", "34600 1234".replace(" ", "")),
        ("(0)20 7946 0958", "02079460958"),
        ("Ana.Ruiz@Mail.COM ", "ana.ruiz@mail.com"),
        ("ÖLF@Bérg.se", "ölf@bérg.se"),
        ("", ""),
        ("٣٤٥", ""),  # Arabic-Indic digits are not a phone's ASCII digits
    ],
)
def test_a_contact_is_read_as_its_digits_or_its_folded_e_mail(typed: str, key: str) -> None:
    assert contact_key(typed) == key


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        ("Ana Ruiz, 600 123 456", ("Ana Ruiz", "600 123 456")),
        ("  Ana   Ruiz ,ana@mail.com", ("Ana Ruiz", "ana@mail.com")),
        ("Smith, John", ("Smith, John", "")),
        ("Ana Ruiz, 12", ("Ana Ruiz, 12", "")),  # too short for a phone: part of the name
        (", 600123456", (", 600123456", "")),  # no name before it
    ],
)
def test_a_contact_typed_after_the_name_is_split_off(line: str, parts: tuple[str, str]) -> None:
    assert split_contact(line) == parts


def test_the_same_name_and_contact_is_one_person_however_typed(floor_manager: Any) -> None:
    ana = players.find_or_create_player(
        name="Ana Ruiz", contact="+34 600 12 34 56", by=floor_manager
    )
    for typed, contact in (("ANA  ruiz", "34600123456"), ("ana ruiz, 34-600-123-456", "")):
        assert players.find_or_create_player(name=typed, contact=contact, by=floor_manager) == ana
    assert Player.objects.count() == 1


def test_two_people_of_one_name_stay_two_and_a_name_alone_asks_which(floor_manager: Any) -> None:
    one = players.find_or_create_player(name="Jöhn Smith", contact="600111222", by=floor_manager)
    two = players.find_or_create_player(
        name="JÖHN SMITH", contact="john@smith.org", by=floor_manager
    )
    assert one != two and Player.objects.count() == 2
    Player.objects.filter(pk=two.pk).update(notes="tall, red cap")
    with pytest.raises(players.PlayerAmbiguous) as asked:
        players.find_or_create_player(name="jöhn smith", by=floor_manager)
    [message] = asked.value.message_dict["name"]
    assert "Jöhn Smith (…1222)" in message and "JÖHN SMITH (….org; tall, red cap)" in message
    assert "600111222" not in message  # the last digits tell them apart, not the whole number
    assert Player.objects.count() == 2


def test_a_name_alone_is_the_one_player_of_that_name(floor_manager: Any) -> None:
    ana = players.find_or_create_player(name="Ana Ruiz", contact="600 1234", by=floor_manager)
    assert players.find_or_create_player(name="ana ruiz", by=floor_manager) == ana
    # A new contact with a known name is a new person: two people with one name stay two.
    other = players.find_or_create_player(name="Ana Ruiz, 611 9999", by=floor_manager)
    assert other != ana and other.contact == "611 9999" and other.name == "Ana Ruiz"


def test_a_contact_that_is_neither_phone_nor_e_mail_is_refused(floor_manager: Any) -> None:
    with pytest.raises(players.SeatRefused) as refused:
        players.find_or_create_player(name="Ana Ruiz", contact="ask Bob", by=floor_manager)
    assert "phone number" in refused.value.message_dict["name"][0]
    assert not Player.objects.exists()


def test_barring_is_recorded_and_refuses_a_cash_seat(floor_manager: Any) -> None:
    table = make_table(number=1, by=floor_manager)
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    with pytest.raises(players.SeatRefused):
        players.bar_player(player=ana, reason="  ", by=floor_manager)
    barred = players.bar_player(player=ana, reason="Abused a dealer", by=floor_manager)
    assert (barred.barred, barred.barred_reason, barred.barred_by) == (
        True, "Abused a dealer", floor_manager,
    )  # fmt: skip
    with pytest.raises(players.PlayerBarred) as refused:
        players.seat_player(table=table, player=ana, seat=1, buy_in=100, by=floor_manager)
    [message] = refused.value.message_dict["name"]
    assert message.startswith(f"Ana Ruiz is barred from the room by {floor_manager} on ")
    assert message.endswith(": Abused a dealer")
    with pytest.raises(Conflict):
        players.bar_player(player=ana, reason="again", by=floor_manager)
    players.bar_player(player=ana, reason="Apologised", by=floor_manager, barred=False)
    players.seat_player(table=table, player=ana, seat=1, buy_in=100, by=floor_manager)
    log = list(PlayerChange.objects.values_list("kind", "barred", "reason"))
    assert log == [("barred", True, "Abused a dealer"), ("unbarred", False, "Apologised")]
    assert audit.verify() == []
    with pytest.raises(ValidationError):
        PlayerChange.objects.filter(player=ana).delete()


def test_a_barred_player_is_refused_a_list_and_the_kiosk_says_only_ask_the_floor(
    floor_manager: Any,
) -> None:
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    players.bar_player(player=ana, reason="Abused a dealer", by=floor_manager)
    with pytest.raises(waitlists.WaitlistRefused) as floor:
        waitlists.add_to_list(game_list=game, name="ana ruiz", by=floor_manager)
    assert "Abused a dealer" in floor.value.message_dict["name"][0]
    with pytest.raises(waitlists.WaitlistRefused) as kiosk:
        waitlists.add_to_list(game_list=game, name="Ana Ruiz", source="kiosk")
    assert kiosk.value.message_dict["name"] == [waitlists.KIOSK_ASK_THE_FLOOR]
    assert not game.entries.exists()


def test_an_edit_is_checked_logged_and_never_makes_two_records_of_one_person(
    floor_manager: Any,
) -> None:
    ana = players.find_or_create_player(name="Ana Ruiz", contact="600 1234", by=floor_manager)
    bo = players.find_or_create_player(name="Bo Li", by=floor_manager)
    edited = players.edit_player(
        player=bo, name=" Bo  Lì ", alias="Bee", contact="bo@li.net", notes="regular",
        by=floor_manager,
    )  # fmt: skip
    assert (edited.name, edited.contact_key, edited.alias_key) == ("Bo Lì", "bo@li.net", "bee")
    with pytest.raises(players.SeatRefused) as same:
        players.edit_player(
            player=bo, name="ANA RUIZ", alias="", contact="6001234", notes="", by=floor_manager
        )
    assert "Ana Ruiz (…1234) already has that name and contact" in str(same.value)
    with pytest.raises(players.SeatRefused) as bad:
        players.edit_player(
            player=ana, name="!!", alias="", contact="x", notes="", by=floor_manager
        )
    assert set(bad.value.message_dict) == {"name", "contact"}
    assert list(PlayerChange.objects.values_list("kind", "name", "contact")) == [
        ("edited", "Bo Lì", "bo@li.net")
    ]
