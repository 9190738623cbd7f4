"""A table's configuration history in the words of its settings form, not its field names."""

from dataclasses import dataclass
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist
from django.db.models import Field

from cardroom.tables.forms import TableForm
from cardroom.tables.models import Table, TableChange


@dataclass(frozen=True)
class FieldChange:
    label: str
    old: str
    new: str


def label_of(name: str) -> str:
    """The label the settings form shows for this field (what the manager edited)."""
    field = TableForm.base_fields.get(name)
    return (
        str(field.label)
        if field is not None and field.label
        else name.replace("_", " ").capitalize()
    )


def shown(name: str, value: Any) -> str:
    """A stored value as the floor reads it: choice labels, Yes/No, a dash for nothing."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "Yes" if value else "No"
    try:
        choices = dict(cast("Field[Any, Any]", Table._meta.get_field(name)).flatchoices)
    except FieldDoesNotExist:  # a setting since removed: its history stays readable
        choices = {}
    return str(choices.get(value, value))


def field_changes(change: TableChange) -> list[FieldChange]:
    """Each field's before and after. A table's creation has no before: it lists the settings
    it was created with (``old`` empty), leaving out the ones it was created without."""
    if change.action == "created":
        return [
            FieldChange(label=label_of(name), old="", new=shown(name, new))
            for name, (_, new) in change.changes.items()
            if shown(name, new) != "—"
        ]
    return [
        FieldChange(label=label_of(name), old=shown(name, old), new=shown(name, new))
        for name, (old, new) in change.changes.items()
    ]


def table_history(table: Table, *, limit: int = 50) -> list[tuple[TableChange, list[FieldChange]]]:
    """The latest changes of a table, newest first, each with its readable field changes."""
    changes = table.changes.select_related("changed_by")[:limit]
    return [(change, field_changes(change)) for change in changes]
