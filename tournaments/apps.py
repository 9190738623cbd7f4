from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and seat draws"

    def ready(self) -> None:
        # Register the tasks under their names in every process (the services queue them by
        # name, through tournaments.scheduling, and never import them).
        from tournaments import tasks  # noqa: F401
