"""The base of the migration operations that change the database and never the models' state
(the audit logs' append-only triggers, the change feed's triggers): written in a migration with
plain arguments, which are what it deconstructs to."""

from __future__ import annotations

from typing import Any

from django.db import migrations


class DatabaseOnly(migrations.operations.base.Operation):
    reversible = True
    reduces_to_sql = False

    def __init__(self, *arguments: str) -> None:
        self.arguments = arguments

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, list(self.arguments), {})

    def state_forwards(self, app_label: str, state: Any) -> None:
        pass  # the models are as they were: only the database changes
