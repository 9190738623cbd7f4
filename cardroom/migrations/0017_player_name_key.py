"""One name, one player: each player's ``name_key`` (the name trimmed, spaces
collapsed, case-folded), made unique by the next migration.

Players already sharing a key keep the oldest row under the name. A later one with nothing
recorded against it (no seat, no seat event, no waitlist entry or event) is a leftover with no
history: it is deleted, since the oldest row is the same player. One with history cannot be
merged into the oldest (the seat and waitlist logs are append-only: their rows keep the player
they name), so it is told apart by a number, "Ana Ruiz (2)", for the floor to see."""

from collections import defaultdict

from django.db import migrations, models


def _key(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def one_player_per_name(apps, schema_editor):  # type: ignore[no-untyped-def]
    Player = apps.get_model("cardroom", "Player")
    holders = [
        apps.get_model("cardroom", model).objects
        for model in ("TableSeat", "SeatEvent", "WaitlistEntry", "WaitlistEvent")
    ]
    named = defaultdict(list)
    for player in Player.objects.order_by("id"):
        named[_key(player.name)].append(player)
    taken = set(named)
    for key, same in named.items():
        first, *later = same
        first.name_key = key
        first.save(update_fields=["name_key"])
        for player in later:
            if not any(rows.filter(player_id=player.pk).exists() for rows in holders):
                player.delete()
                continue
            number = 2
            while _key(f"{player.name} ({number})") in taken:
                number += 1
            suffix = f" ({number})"
            player.name = " ".join(player.name.split())[: 120 - len(suffix)] + suffix
            player.name_key = _key(player.name)
            taken.add(player.name_key)
            player.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0016_table_rule_checks")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=360),
            preserve_default=False,
        ),
        migrations.RunPython(one_player_per_name, migrations.RunPython.noop),
    ]
