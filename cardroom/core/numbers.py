"""Whole numbers written for people: grouped by the active locale, as the templates write them.

The templates write chips, blinds and counts with ``floatformat:"0g"``; a message built in
Python (a refusal, a line on the desk, an audit note) calls ``grouped`` so that a page and a
message show the same number the same way: "12,000" in English (the project's
``LANGUAGE_CODE``), "12.000" under German. Grouping is forced, as the template's ``g`` forces
it, so ``USE_THOUSAND_SEPARATOR`` (off) does not drop the separator.
"""

from django.utils.formats import number_format
from django.utils.functional import lazy


def grouped(number: int) -> str:
    """``12000`` as "12,000" (the active locale's separator and grouping); a negative keeps
    its sign: "-1,500"."""
    # Same call as the template filter floatformat:"0g" makes for a whole number.
    return str(number_format(number, 0, force_grouping=True))


#: ``grouped`` put off until the text is read, for messages built when a module loads
#: (form fields' and serializers' error messages): written in the locale active when shown.
grouped_lazy = lazy(grouped, str)
