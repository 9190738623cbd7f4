"""The ASGI entry point, for an ASGI server in front of the project."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
application = get_asgi_application()
