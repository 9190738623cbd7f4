"""Entries point at people: each ``Entrant`` gets its ``player`` (the room's one record of the
person, ``cardroom.Player``), and a person has at most one live entry in a tournament.

The entries already stored are given theirs by name, as the room reads names (trimmed, spaces
collapsed, case-folded): the player of that name without a contact when there is one, else a
new player of that name. A re-entry is its first entry's person. Two live entries of one name
in one tournament (registered before names were compared as the room reads them) are two
people: the later one gets a player named after its entry ("Ana Ruiz (entry #7)"), so no
entry is lost and the new key holds. Every entry keeps its name: the printed record."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

from cardroom.core.changes import ChangeFeedTriggers


def _key(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _initials(name: str) -> str:
    return "".join(f"{word[0].upper()}." for word in name.split() if word[:1].isalnum())


def give_entries_their_players(apps: Any, schema_editor: Any) -> None:
    using = schema_editor.connection.alias
    player_model = apps.get_model("cardroom", "Player")
    entrant_model = apps.get_model("tournaments", "Entrant")
    players: dict[str, Any] = {}

    def person(name: str, registered_by: int) -> Any:
        key = _key(name)
        if key not in players:
            found = player_model.objects.using(using).filter(name_key=key, contact_key="")
            players[key] = found.first() or player_model.objects.using(using).create(
                name=" ".join(name.split()), name_key=key, alias="", alias_key="",
                contact="", contact_key="", created_by_id=registered_by,
            )  # fmt: skip
        return players[key]

    live: set[tuple[int, int]] = set()
    rows = entrant_model.objects.using(using).order_by("tournament_id", "number")
    for entrant in rows.iterator():
        if entrant.reentry_of_id is not None:
            first = entrant_model.objects.using(using).get(pk=entrant.reentry_of_id)
            chosen = first.player_id or person(first.name, first.registered_by_id).pk
        else:
            name = entrant.name if _initials(entrant.name) else f"Entry {entrant.number}"
            chosen = person(name, entrant.registered_by_id).pk
        if entrant.status != "eliminated":
            if (entrant.tournament_id, chosen) in live:
                own = f"{entrant.name} (entry #{entrant.number})"
                chosen = person(own, entrant.registered_by_id).pk
            live.add((entrant.tournament_id, chosen))
        entrant.player_id = chosen
        entrant.save(update_fields=["player"])
    if schema_editor.connection.vendor == "postgresql":
        # The links just written are checked now, not at commit: the table is altered next.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0025_player_contact"),
        ("tournaments", "0012_chip_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="entrant",
            name="player",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="cardroom.player",
            ),
        ),
        migrations.RunPython(give_entries_their_players, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entrant",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="cardroom.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "eliminated"), _negated=True),
                fields=("tournament", "player"),
                name="one_live_entry_per_player",
            ),
        ),
        # SQLite rebuilds the table to make the link required, without its triggers.
        ChangeFeedTriggers("entrant", "entrants", "tournament_id"),
    ]
