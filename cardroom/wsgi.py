"""The WSGI entry point gunicorn serves (README "Production")."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
application = get_wsgi_application()
