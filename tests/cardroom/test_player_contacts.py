"""Properties of the room's reading of a contact and of "name, contact" in a name box: a
phone typed with any spaces, dashes, dots or brackets is one contact; an e-mail in any case
is one; reading twice changes nothing; a name with a phone or e-mail after its last comma
splits back into the two as typed."""

from hypothesis import given
from hypothesis import strategies as st

from cardroom.seats.models import contact_key, split_contact

DIGITS = st.text(alphabet="0123456789", min_size=4, max_size=15)
SEPARATORS = st.lists(st.sampled_from([" ", "-", ".", "(", ")", "/", "+"]), max_size=6)
NAME = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=12
).map(lambda word: f"{word} Ruiz")


@given(DIGITS, SEPARATORS, st.randoms(use_true_random=False))
def test_a_phone_is_its_digits_however_it_is_written(
    digits: str, separators: list[str], random: object
) -> None:
    written = list(digits)
    for separator in separators:
        written.insert(random.randrange(len(written) + 1), separator)  # type: ignore[attr-defined]
    assert contact_key("".join(written)) == digits
    assert contact_key(contact_key("".join(written))) == digits


@given(st.emails())
def test_an_e_mail_in_any_case_is_one_contact(address: str) -> None:
    assert contact_key(address.upper()) == contact_key(f"  {address.lower()} ")
    assert contact_key(contact_key(address)) == contact_key(address)


@given(NAME, st.one_of(DIGITS, st.emails()))
def test_a_name_and_its_contact_split_back_as_typed(name: str, contact: str) -> None:
    assert split_contact(f"{name}, {contact}") == (name, contact)
    assert split_contact(f"  {name} ,{contact} ") == (name, contact)
    assert split_contact(name) == (name, "")
