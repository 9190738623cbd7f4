"""The Cardroom project: its Celery app is loaded with Django, so ``shared_task`` binds to it."""

from cardroom.celery import app as celery_app

__all__ = ["celery_app"]
