"""The floor app (``cardroom``): its models live in its packages (``cardroom/models.py`` gathers them)."""

from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom floor"

    def ready(self) -> None:
        # Register the floor's tasks under their names in every process, the eager one too
        # (the worker finds them by ``autodiscover_tasks`` as well).
        from cardroom import tasks  # noqa: F401
        from cardroom.waitlists import tasks as waitlist_tasks  # noqa: F401
