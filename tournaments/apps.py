"""The tournaments app, and what it hooks into when Django starts."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and seat draws"

    def ready(self) -> None:
        # Register the tasks under their names in every process (the services queue them by
        # name, through tournaments.scheduling, and never import them). A table's settings
        # never strand the tournament playing there: the tables' service is below the
        # tournaments and only runs the check it is given.
        from cardroom.tables.services import TABLE_CHANGE_CHECKS
        from tournaments import tasks  # noqa: F401
        from tournaments.table_hands import refuse_stranding_the_tournament

        if refuse_stranding_the_tournament not in TABLE_CHANGE_CHECKS:
            TABLE_CHANGE_CHECKS.append(refuse_stranding_the_tournament)
