"""A tournament's price list: made in the room's currency on first sight, changed by the director
while nothing has been paid, refused when it does not hold together, locked by the first payment."""

from typing import Any

import pytest

from tests.tournaments.factories import make_tournament
from tournaments.money.models import BountyKind, Prices
from tournaments.money.prices import (
    PricesLocked,
    PricesRefused,
    locked_prices,
    prices_for,
    set_prices,
)
from tournaments.setup import register_entrant

pytestmark = pytest.mark.django_db


def test_the_price_list_is_made_once_in_the_rooms_currency(director: Any, settings: Any) -> None:
    settings.CARDROOM_CURRENCY, settings.CARDROOM_CURRENCY_MINOR_UNITS = "KRW", -1
    tournament = make_tournament(by=director, tables=1)
    prices = prices_for(tournament)
    assert (prices.currency, prices.minor_units, prices.entry_price) == ("KRW", 0, 0)
    settings.CARDROOM_CURRENCY = "USD"
    assert prices_for(tournament).pk == prices.pk and prices_for(tournament).currency == "KRW"
    assert Prices.objects.count() == 1


def test_the_director_sets_the_prices_and_who_did_is_kept(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    prices = set_prices(
        tournament=tournament, by=director, entry_prize=10_000, entry_fee=1_000,
        entry_bounty=2_500, bounty_kind=BountyKind.PROGRESSIVE, places_share=1_250,
    )  # fmt: skip
    assert (prices.entry_price, prices.places_share, prices.updated_by) == (13_500, 1_250, director)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"rebuy_limit": 2, "rebuy_prize": 100, "rebuy_last_level": 4}, "rebuy_chips"),
        ({"rebuy_limit": 2, "rebuy_chips": 100, "rebuy_prize": 100}, "rebuy_last_level"),
        ({"rebuy_limit": 2, "rebuy_chips": 100, "rebuy_last_level": 4}, "rebuy_prize"),
        ({"addon_limit": 1, "addon_chips": 5, "addon_prize": 5, "addon_first_level": 4,
          "addon_last_level": 3}, "addon_last_level"),
        ({"entry_prize": 100, "entry_bounty": 50}, "bounty_kind"),
        ({"entry_prize": 100, "bounty_kind": BountyKind.FIXED}, "entry_bounty"),
        ({"reentry_limit": 1}, "reentry_limit"),
        ({"rounding": 0}, "rounding"),
        ({"places_fixed": 0, "places_share": 0}, "places_share"),
        ({"entry_prize": -1}, "entry_prize"),
        ({"entry_prize": True}, "entry_prize"),
        ({"entry_prize": "100"}, "entry_prize"),
        ({"rebuy_limit": 10**6}, "rebuy_limit"),
        ({"bounty_kind": "half"}, "bounty_kind"),
        ({"price": 5}, "price"),
    ],
)  # fmt: skip
def test_a_price_list_that_does_not_hold_together_is_refused(
    director: Any, fields: dict[str, Any], field: str
) -> None:
    tournament = make_tournament(by=director, tables=1)
    with pytest.raises(PricesRefused) as refused:
        set_prices(tournament=tournament, by=director, **fields)
    assert field in refused.value.message_dict
    assert prices_for(tournament).entry_price == 0 and prices_for(tournament).rebuy_limit == 0


def test_the_first_payment_locks_the_prices(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    set_prices(tournament=tournament, by=director, entry_prize=10_000)
    assert not locked_prices(tournament)
    register_entrant(tournament=tournament, name="Ana Ruiz", by=director)
    assert locked_prices(tournament)
    with pytest.raises(PricesLocked) as locked:
        set_prices(tournament=tournament, by=director, entry_prize=20_000)
    assert locked.value.code == "prices_locked"
    assert prices_for(tournament).entry_prize == 10_000


def test_after_the_first_payment_the_payout_settings_change_until_the_table_locks(
    director: Any,
) -> None:
    from tournaments.money import payouts
    from tournaments.money.prices import PayoutSettingsLocked

    tournament = make_tournament(by=director, tables=1)
    set_prices(tournament=tournament, by=director, entry_prize=10_000)
    register_entrant(tournament=tournament, name="Ana Ruiz", by=director)
    set_prices(tournament=tournament, by=director, places_fixed=3, entry_prize=10_000)
    assert prices_for(tournament).places_fixed == 3  # the price given unchanged: no refusal
    payouts.lock_table(tournament=tournament, by=director, reason="The bubble burst")
    with pytest.raises(PayoutSettingsLocked) as locked:
        set_prices(tournament=tournament, by=director, places_fixed=5)
    assert locked.value.code == "payouts_locked" and prices_for(tournament).places_fixed == 3
