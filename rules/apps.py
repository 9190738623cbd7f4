"""The rulebook app: the rules, their search and the public betting API."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate

from rules.search_index import repair_after_migrate


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules and rulebook"

    def ready(self) -> None:
        # SQLite drops the FTS triggers whenever a migration rebuilds rules_rule.
        post_migrate.connect(repair_after_migrate, sender=self, dispatch_uid="rules-fts")
