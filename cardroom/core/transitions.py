"""Declared state transitions: a model with a state field declares, once, which state may
become which (and why: the rule, or the floor's reason), and every write of that field goes
through ``move``, which refuses a move the declaration does not hold.

The model declares (the plumbing only reads declarations, as the audit chains do)::

    TRANSITIONS = Transitions(
        {EntryStatus.WAITING: {EntryStatus.CALLED: "called to a seat", ...}, ...},
        conflict="entry_changed",
    )

    class WaitlistEntry(models.Model):
        transitions = {"status": TRANSITIONS}

and a service writes ``move(entry, EntryStatus.CALLED)`` where it wrote ``entry.status = ...``,
then saves as before (``move`` sets the field, it does not save). An undeclared move is the row
not being in the state the service decided on (someone changed it first): ``Conflict``, 409,
look again. ``tests/test_transitions.py`` checks that no other code writes a declared field
and that every declared move is made by some service, every other one refused."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from cardroom.core.api_errors import Conflict


@dataclass(frozen=True)
class Transitions:
    """One state field's moves: from each state, the states it may become, each with the rule
    or the reason that moves it. A state missing as a key is final. ``conflict``: the code of
    the ``Conflict`` an undeclared move raises."""

    moves: Mapping[str, Mapping[str, str]]
    conflict: str

    def allows(self, source: str, target: str) -> bool:
        return target in self.moves.get(source, {})

    def pairs(self) -> list[tuple[str, str]]:
        """Every declared move, (from, to)."""
        return [(source, target) for source, targets in self.moves.items() for target in targets]


class Stateful(Protocol):
    """A model instance whose class declares its state fields' ``Transitions``."""

    transitions: ClassVar[Mapping[str, Transitions]]


def move(instance: Stateful, to: str, *, field: str = "status") -> None:
    """Set ``instance``'s ``field`` to ``to`` if its declaration allows the move from where it
    is now; otherwise raise ``Conflict`` (nothing set). The caller saves, as it did."""
    declared = type(instance).transitions[field]
    source: str = getattr(instance, field)
    if not declared.allows(source, to):
        label = _label(instance, field, source)
        raise Conflict(
            declared.conflict,
            f"{instance} is {label} now: it cannot become {_label(instance, field, to)}."
            " Look again.",
        )
    setattr(instance, field, to)


def _label(instance: Any, field: str, value: str) -> str:
    """The state's name as people read it ("called to a seat"), from the field's choices."""
    choices = dict(type(instance)._meta.get_field(field).flatchoices)
    return str(choices.get(value, value)).lower()
