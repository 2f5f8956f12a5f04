"""The version a result form posted back: required, so that a client which leaves it out
cannot overwrite somebody else's result unknowingly (optimistic concurrency)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def posted_version(value: str | None) -> int:
    text = (value or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise ValidationError(
            _("This form has no valid version; reload the page and enter the result again.")
        )
    return int(text)
