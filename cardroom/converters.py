"""URL converters. ``<id:pk>`` is ``<int:pk>`` bounded to what a database id can hold, so an
absurd id in a URL is a 404, never an overflow inside the database driver (a 500)."""

from django.urls import register_converter
from django.urls.converters import IntConverter


class IdConverter(IntConverter):
    regex = "[0-9]{1,18}"


register_converter(IdConverter, "id")
