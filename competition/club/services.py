"""The club's administrator changes his club's settings: checked, locked, saved, audited."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from competition import audit
from competition.audit import Action
from core.pagecache import pages_changed
from core.permissions import Perm, require
from members.models import Actor, Club

from .forms import FIELDS


def _shown(value: Any) -> Any:
    return value.strftime("%H:%M") if isinstance(value, dt.time) else value


def club_settings_update(*, actor: Actor, club: Club, changes: dict[str, Any]) -> Club:
    """Save ``changes`` (of the settings form's fields) to ``club``; the audit row has
    what each changed field was and became. A value the model refuses saves nothing."""
    require(actor, Perm.MANAGE_SEASON, of=club)
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValidationError(f"not a club setting: {', '.join(sorted(unknown))}")
    with transaction.atomic(durable=True):
        locked = Club.objects.select_for_update().get(pk=club.pk)
        before = {k: _shown(getattr(locked, k)) for k in changes
                  if getattr(locked, k) != changes[k]}
        if not before:
            return locked
        for field, value in changes.items():
            setattr(locked, field, value)
        locked.full_clean(exclude=[f.name for f in Club._meta.fields if f.name not in changes])
        locked.save(update_fields=list(before))
        audit.record(actor=actor, action=Action.CLUB_SETTINGS, before=before,
                     after={k: _shown(getattr(locked, k)) for k in before})
        pages_changed()
    return locked
