"""The betting API's request body, checked in one place (``../shared/contracts/betting-api.md``).

One declarative description of the body (``GAME``, ``SEAT``, ``ACTION``, ``BLINDS``, ``POST``,
``HAND``, ``PHYSICAL``) drives both the reader and the documentation: ``check`` walks a body
against it (every problem a ``BadInput`` naming its dotted path, ``seats.2.stack``), and
``serializer_for`` derives the DRF serializers that drf-spectacular turns into the OpenAPI
schema. The serializers never validate a request: the schema cannot drift from what is checked.
(Reading by hand, not through DRF's validation, keeps the public hot path fast: about 5x
quicker on the contract's largest body.)

``read_hand`` turns a body into the engine's arguments, ``HandRequest`` (config, button,
seats, actions, blinds, posts); ``build_hand`` deals and replays it. Every list is measured
before it is walked, so the work is bounded by the contract's limits whatever the body holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from rest_framework import serializers

from cardroom.core.numbers import grouped
from rules.engine.chips import Physical
from rules.engine.config import GameConfig
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.state import Action, ActionKind, Blinds, HandState, Post, Seat, replay

ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
VERBALS = ("check", "call", "bet", "raise", "all_in")

#: The contract's limits: seat numbers 1 to 12, at most 1,000 actions, every number from 0 to
#: 10^15 (exact in every JSON client). A body over 256 KB is refused before it is read
#: (``cardroom.core.middleware.BodySizeLimitMiddleware``).
MAX_SEAT = 12
MAX_ACTIONS = 1000
MAX_CHIPS = 10**15
#: The chips of one hand together: twelve stacks of 10^15 total 1.2 x 10^16, past what a JSON
#: client holds exactly (a double's 53 bits: 2^53 - 1). Every number in an answer (the pot, a
#: pot, an award, a stack, chips returned) is at most the stacks' total, or for the chip reader
#: the chips in front, so both are capped here.
MAX_TOTAL = 2**53 - 1


# --- the description of a body ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Whole:
    """A JSON whole number (not ``5.0``, ``"5"`` or ``true``) from ``minimum`` to ``maximum``."""

    minimum: int = 0
    maximum: int = MAX_CHIPS


@dataclass(frozen=True, slots=True)
class Choice:
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Flag:
    """``true`` or ``false``."""


@dataclass(frozen=True, slots=True)
class Field:
    """One member of an object: absent or null gives ``default`` unless ``required``;
    ``nullable`` keeps a null as None."""

    name: str
    kind: Kind
    required: bool = False
    nullable: bool = False
    default: Any = None
    help: str = ""


@dataclass(frozen=True, slots=True)
class Object:
    name: str  # the schema component's name
    fields: tuple[Field, ...]


@dataclass(frozen=True, slots=True)
class ListOf:
    item: Kind
    max_items: int
    min_items: int = 0


Kind = Whole | Choice | Flag | Object | ListOf

GAME = Object(
    "Game",
    (
        Field("structure", Choice(("no_limit", "pot_limit", "fixed_limit")), required=True),
        Field("small_blind", Whole(1), required=True),
        Field("big_blind", Whole(1), required=True),
        Field("ante", Whole(), default=0, help="Posted by every player before the blinds."),
        Field("straddle", Whole(), default=0, help="0 = none; else exactly 2 x big_blind."),
        Field("small_bet", Whole(1), nullable=True, help="Fixed limit: default big_blind."),
        Field("big_bet", Whole(1), nullable=True, help="Fixed limit: default 2 x big_blind."),
        Field("raise_cap", Whole(), default=3, help="Fixed limit: raises after the bet."),
        Field("pot_limit_small_blind_as_big", Flag(), default=False),
        Field("min_chip", Whole(1), default=1, help="The smallest chip that plays."),
        Field("big_blind_ante", Whole(), default=0, help="The big blind posts the table's ante."),
        Field("pot_round_unit", Whole(), default=0, help="Pot limit: round the pot size up."),
    ),
)
SEAT = Object(
    "Seat",
    (
        Field("seat", Whole(1, MAX_SEAT), required=True),
        Field("stack", Whole(1), required=True, help="A player with no chips is not dealt in."),
    ),
)
ACTION = Object(
    "Action",
    (
        Field("seat", Whole(1, MAX_SEAT), required=True),
        Field("action", Choice(ACTIONS), required=True),
        Field("to", Whole(), nullable=True, help="bet/raise: the total wager on the street."),
        Field("out_of_turn", Flag(), default=False, help="Held until the seat's turn (TDA-53)."),
    ),
)
BLINDS = Object(
    "Blinds",
    (
        Field("small", Whole(1, MAX_SEAT), required=True, nullable=True, help="null: dead."),
        Field("big", Whole(1, MAX_SEAT), required=True),
    ),
)
POST = Object(
    "Post",
    (
        Field("seat", Whole(1, MAX_SEAT), required=True),
        Field("live", Whole(), default=0, help="0 or the big blind: counts toward the wager."),
        Field("dead", Whole(), default=0, help="0 or the small blind: dead money."),
    ),
)
HAND_FIELDS = (
    Field("game", GAME, required=True),
    Field("button", Whole(1, MAX_SEAT), required=True, help="With `blinds`, may be dead."),
    Field(
        "seats",
        ListOf(SEAT, MAX_SEAT, 1),
        required=True,
        help="The stacks total at most 2^53 - 1 (9,007,199,254,740,991).",
    ),
    Field("actions", ListOf(ACTION, MAX_ACTIONS), default=()),
    Field("blinds", BLINDS, nullable=True, help="The blind seats (default: from the button)."),
    Field("posts", ListOf(POST, MAX_SEAT), default=(), help="Missed blinds made up."),
)
HAND = Object("Hand", HAND_FIELDS)
PHYSICAL = Object(
    "Physical",
    (
        Field(
            "chips",
            ListOf(Whole(1), 1000),
            default=(),
            help="With prior_chips, at most 2^53 - 1 (9,007,199,254,740,991) in all.",
        ),
        Field("prior_chips", ListOf(Whole(1), 1000), default=()),
    ),
)


# --- checking a body against it -----------------------------------------------------------------


def check(kind: Kind, value: Any, path: str) -> Any:
    """``value`` read as ``kind``: ints, strings, bools, dicts of the named fields (defaults
    filled in) and lists; ``BadInput`` naming ``path`` for the first problem."""
    if isinstance(kind, Whole):
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(f"`{path}` must be a whole number.", path)
        if not kind.minimum <= value <= kind.maximum:
            raise BadInput(
                f"`{path}` must be from {grouped(kind.minimum)} to {grouped(kind.maximum)}.", path
            )
        return value
    if isinstance(kind, Choice):
        if not isinstance(value, str) or value not in kind.choices:
            raise BadInput(f"`{path}` must be one of {', '.join(kind.choices)}.", path)
        return value
    if isinstance(kind, Flag):
        if not isinstance(value, bool):
            raise BadInput(f"`{path}` must be true or false.", path)
        return value
    if isinstance(kind, ListOf):
        if not isinstance(value, list):
            raise BadInput(f"`{path}` must be a list.", path)
        if len(value) > kind.max_items:
            raise BadInput(f"`{path}` holds at most {grouped(kind.max_items)} entries.", path)
        if len(value) < kind.min_items:
            raise BadInput(f"`{path}` needs at least {kind.min_items} entry.", path)
        return [check(kind.item, item, f"{path}.{i}") for i, item in enumerate(value)]
    if not isinstance(value, dict):
        raise BadInput(
            f"`{path}` must be a JSON object." if path else "The body must be a JSON object.",
            path or "body",
        )
    result: dict[str, Any] = {}
    prefix = f"{path}." if path else ""
    for member in kind.fields:
        raw = value.get(member.name)
        where = prefix + member.name
        if raw is None:
            if member.required and not (member.nullable and member.name in value):
                raise BadInput(f"{where} is required.", where)
            result[member.name] = member.default
        else:
            result[member.name] = check(member.kind, raw, where)
    return result


class HandRequest(NamedTuple):
    """A request's hand as the engine takes it: ``replay(*request)`` deals and plays it."""

    config: GameConfig
    button: int
    seats: list[Seat]
    actions: list[Action]
    blinds: Blinds | None
    posts: list[Post]


def read_hand(data: Any) -> HandRequest:
    """Read an evaluate (interpret, award) body's hand into engine objects, or ``BadInput``
    (400 ``bad_request``) naming the dotted path of the first problem."""
    if isinstance(data, dict):
        data = {**data, "actions": _actions_without_ignored_to(data.get("actions"))}
    body = check(HAND, data, "")
    try:
        config = GameConfig(**body["game"])
    except BadInput as exc:  # the config names the game's own field: give its dotted path
        field = f"game.{exc.field}" if exc.field else "game"
        raise BadInput(exc.message, field, citations=exc.citations) from None
    seats = [Seat(seat["seat"], seat["stack"]) for seat in body["seats"]]
    total = sum(seat.stack for seat in seats)
    if total > MAX_TOTAL:
        raise BadInput(
            f"The stacks total {grouped(total)}: a hand holds at most {grouped(MAX_TOTAL)} chips, so that"
            " every total in the answer is exact in every JSON client.",
            "seats",
        )
    actions = []
    for index, entry in enumerate(body["actions"]):
        kind = ActionKind(entry["action"])
        to = entry["to"]
        if kind in (ActionKind.BET, ActionKind.RAISE) and to is None:
            raise BadInput(
                f"A {kind} needs `to`: the total wager on the street.", f"actions.{index}.to"
            )
        actions.append(Action(entry["seat"], kind, to, entry["out_of_turn"]))
    raw_blinds = body["blinds"]
    blinds = None if raw_blinds is None else Blinds(raw_blinds["small"], raw_blinds["big"])
    posts = [Post(post["seat"], post["live"], post["dead"]) for post in body["posts"]]
    return HandRequest(config, body["button"], seats, actions, blinds, posts)


def _actions_without_ignored_to(raw: Any) -> Any:
    """The contract: a ``to`` sent with a fold, check, call or all-in is ignored, unless it is
    a number out of range. Drop the ignored ones before checking."""
    if not isinstance(raw, list) or len(raw) > MAX_ACTIONS:
        return raw
    kept = []
    for entry in raw:
        if (
            isinstance(entry, dict)
            and entry.get("action") not in ("bet", "raise")
            and "to" in entry
            and not isinstance(entry["to"], int)
        ):
            entry = {key: value for key, value in entry.items() if key != "to"}
        kept.append(entry)
    return kept


def build_hand(data: Any) -> tuple[HandState, tuple[int, IllegalAction] | None]:
    """The engine's hand from a request body, replayed: the state and ``(index, error)`` for
    the first illegal action (or None); ``BadInput`` (a 400) for what cannot be dealt."""
    return replay(*read_hand(data))


def read_physical(data: Any) -> Physical:
    """The interpret body's ``physical`` object, every number within the contract's limits."""
    checked = check(PHYSICAL, data, "physical")
    total = sum(checked["chips"]) + sum(checked["prior_chips"])
    if total > MAX_TOTAL:
        raise BadInput(
            f"The chips in front total {grouped(total)}: at most {grouped(MAX_TOTAL)}, so that the chips"
            " returned are exact in every JSON client.",
            "physical.chips",
        )
    verbal = data.get("verbal")
    if isinstance(verbal, dict) and verbal.get("to") is not None:
        check(Whole(1), verbal["to"], "physical.verbal.to")
    return Physical.from_dict({**data, **checked})


# --- the schema, derived from the same description -----------------------------------------------


class StrictInteger(serializers.IntegerField):
    """A JSON integer for the schema (and for other APIs' serializers): ``"5"``, ``5.5`` and
    ``true`` are type errors, not numbers. At most 10^15 unless told otherwise."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_CHIPS)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


def serializer_for(
    kind: Object, name: str | None = None, **extra: Any
) -> type[serializers.Serializer[Any]]:
    """A DRF serializer class documenting ``kind`` (for drf-spectacular; never validates),
    named ``<name>Serializer`` (default: the kind's name), with ``extra`` fields added. One
    class per kind (the schema has one component per name)."""
    if name is None and not extra and kind in _SERIALIZERS:
        return _SERIALIZERS[kind]
    attrs: dict[str, Any] = {"__module__": __name__}
    attrs |= {member.name: _field_for(member.kind, **_options(member)) for member in kind.fields}
    attrs.update(extra)
    made = type(f"{name or kind.name}Serializer", (serializers.Serializer,), attrs)
    if name is None and not extra:
        _SERIALIZERS[kind] = made
    return made


_SERIALIZERS: dict[Object, type[serializers.Serializer[Any]]] = {}


def _options(member: Field) -> dict[str, Any]:
    options: dict[str, Any] = {"help_text": member.help} if member.help else {}
    if member.nullable:
        options["allow_null"] = True
    if not member.required:
        if member.default is not None:
            options["default"] = (
                list(member.default) if isinstance(member.default, tuple) else member.default
            )
        else:
            options["required"] = False
    return options


def _field_for(kind: Kind, **options: Any) -> Any:
    if isinstance(kind, Whole):
        return StrictInteger(min_value=kind.minimum, max_value=kind.maximum, **options)
    if isinstance(kind, Choice):
        return serializers.ChoiceField(choices=list(kind.choices), **options)
    if isinstance(kind, Flag):
        return serializers.BooleanField(**options)
    if isinstance(kind, Object):
        return serializer_for(kind)(**options)
    allow_empty = kind.min_items == 0
    if isinstance(kind.item, Object):
        # many=True makes a ListSerializer (DRF's many_init), which takes max_length; the
        # stubs type the call as Serializer.__init__, which does not.
        return serializer_for(kind.item)(  # type: ignore[call-arg]
            many=True, max_length=kind.max_items, allow_empty=allow_empty, **options
        )
    return serializers.ListField(
        child=_field_for(kind.item), max_length=kind.max_items, allow_empty=allow_empty, **options
    )


GameSerializer = serializer_for(GAME)
SeatSerializer = serializer_for(SEAT)
ActionSerializer = serializer_for(ACTION)
HandSerializer = serializer_for(HAND)
