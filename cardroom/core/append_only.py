"""The append-only base of every audit log (``cardroom/core/audit.py`` says how the logs are kept):
an abstract model and its queryset that refuse to change or delete rows and chain each new row
to the one before it in its stream. Shared plumbing: the tables', the rulebook's and the
tournaments' models all build on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db import models, router

from cardroom.core import audit


class AppendOnlyQuerySet(models.QuerySet[Any]):  # QuerySet takes a type argument at run time
    """Bulk ``update()``/``delete()`` are refused too: the log is never rewritten. Rows made by
    ``bulk_create`` are chained like those made one by one."""

    def update(self, **kwargs: Any) -> int:
        raise ValidationError(self.model.append_only_message)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ValidationError(self.model.append_only_message)

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Any]:
        objs = list(objs)
        audit.link_rows(self.model, objs, self.db)
        return super().bulk_create(objs, *args, **kwargs)


class AppendOnly(models.Model):
    """An audit log (``cardroom/core/audit.py``): rows are added, never changed or deleted (here,
    and by triggers in the database), and each row is chained to the one before it in its
    stream. A model with a once-only change (``audit.CHAINS[...].sealed``: a void, a reveal)
    may save those fields once, with ``update_fields``; they are sealed in ``seal_hash``."""

    prev_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    row_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    objects = AppendOnlyQuerySet.as_manager()
    append_only_message = "This record is append-only: add a new one instead."
    #: A sealed log's row after its once-only change (a void, a reveal): never changed again.
    sealed_message = (
        "This record's one change (a void, a reveal) is made: it is never changed again."
    )

    class Meta:
        abstract = True

    def save(self, *args: Any, chain_heads: Mapping[Any, str] | None = None, **kwargs: Any) -> None:
        """``chain_heads``: a new row's stream head as the caller read it under the stream's
        parent lock (``audit.link_rows``), sparing a read of it."""
        using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        if self._state.adding:
            audit.link_rows(type(self), [self], using, heads=chain_heads)
            super().save(*args, **kwargs)
            return
        chain = audit.CHAINS[self._meta.label]
        sealed = {self._meta.get_field(name).name for name in chain.sealed}
        update_fields = set(kwargs.get("update_fields") or ())
        if not sealed or not update_fields or not update_fields <= sealed:
            raise ValidationError(self.append_only_message)
        self._refuse_all_but_the_seal(update_fields, using)
        values = {name: getattr(self, name) for name in chain.sealed}
        self.seal_hash = audit.seal_hash(type(self), values, self.row_hash)
        kwargs["update_fields"] = [*update_fields, "seal_hash"]
        super().save(*args, **kwargs)

    def _refuse_all_but_the_seal(self, update_fields: set[str], using: str) -> None:
        """Let through only the row's once-only change (``Chain.unsealed``): the row as
        stored is not sealed yet, and this save seals it (a reason without a void, a result
        without a reveal, would leave it open to a second change). The trigger refuses the
        rest too, but as a database error; this is the model's own refusal."""
        marker, initial = cast("tuple[str, Any]", audit.CHAINS[self._meta.label].unsealed)
        stored = type(self)._base_manager.using(using).filter(pk=self.pk, **{marker: initial})
        if not stored.exists():
            raise ValidationError(self.sealed_message)
        if (
            self._meta.get_field(marker).name not in update_fields
            or getattr(self, marker) == initial
        ):
            raise ValidationError(self.append_only_message)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValidationError(self.append_only_message)


def chain_unique(stream: str) -> models.UniqueConstraint:
    """One row per ``prev_hash`` in a stream: two writers can never fork a chain."""
    return models.UniqueConstraint(
        fields=[stream, "prev_hash"], name="%(app_label)s_%(class)s_one_chain"
    )
