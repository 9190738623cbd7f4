"""A service's refusal shown on the form that asked for it. Shared by every app's pages."""

from typing import Any

from django.core.exceptions import ValidationError


def add_errors(form: Any, exc: ValidationError) -> None:
    """A service's errors on the form: on their field when the form shows it, else on top
    (a hidden field's, such as the hand a ruling is about, would not be seen)."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for field, errors in exc.message_dict.items():
        shown = field in form.fields and not form.fields[field].widget.is_hidden
        form.add_error(field if shown else None, errors)
