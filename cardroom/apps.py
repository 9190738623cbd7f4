"""The floor app (``cardroom``): its models live in its packages (``cardroom/models.py`` gathers them)."""

from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom floor"

    def ready(self) -> None:
        from django.db import connections
        from django.db.backends.signals import connection_created

        from cardroom.core.changes import watch_writes

        # Every write of a row a screen shows bumps the screens' versions once it commits.
        connection_created.connect(watch_writes, dispatch_uid="cardroom-watch-writes")
        for db in connections.all(initialized_only=True):
            watch_writes(None, db)
        # Register the floor's tasks under their names in every process, the eager one too
        # (the worker finds them by ``autodiscover_tasks`` as well).
        from cardroom import tasks  # noqa: F401
        from cardroom.waitlists import tasks as waitlist_tasks  # noqa: F401
