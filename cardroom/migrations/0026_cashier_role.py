"""Create the cashier's role group: who takes a tournament's money and pays its prizes."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

CASHIER = "Cashier"


def create_group(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.get_or_create(name=CASHIER)


def remove_group(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name=CASHIER).delete()


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0025_player_contact")]
    operations = [migrations.RunPython(create_group, remove_group)]
