"""The interface's words for a refused rating list (the engine names the defect)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .engine import errors


def error_text(code: str, params: dict[str, Any]) -> str:
    """One clear, translated sentence for a ``RatingListError``."""
    texts = {
        errors.UNKNOWN_FORMAT: _(
            "This file is not a rating list we can read: upload FIDE's rating list (text "
            "or XML, zipped or not) or a CSV file with a header row."
        ),
        errors.MISSING_COLUMN: _("The column “%(column)s” is missing from the file."),
        errors.RATING_OUT_OF_RANGE: _(
            "Line %(line)s: rating %(rating)s is outside 0–3500; nothing was saved."
        ),
        errors.DUPLICATE_NUMBER: _(
            "Line %(line)s: number %(number)s appears already on line %(first)s; nothing was saved."
        ),
        errors.BAD_NUMBER: _("Line %(line)s: “%(value)s” is not a federation number."),
        errors.EMPTY: _("The file holds no players."),
        errors.DAMAGED: _("The file is damaged near line %(line)s."),
        errors.TOO_LARGE: _(
            "The file holds more than %(limit)s MB once unpacked; a rating list is smaller."
        ),
        errors.ENTRY_TOO_LONG: _(
            "Near line %(line)s one line is longer than %(limit)s KB: this is not a rating list."
        ),
        errors.FIELD_TOO_LONG: _("Line %(line)s: a field is longer than 128 KB."),
        errors.ENCRYPTED_ZIP: _(
            "The zip file is protected with a password: upload it without one, or the list itself."
        ),
        errors.UNSUPPORTED_ZIP: _(
            "The zip file uses a compression method that cannot be read: zip it again "
            "with ordinary compression, or upload the list itself."
        ),
        errors.CONTROL_CHARACTER: _(
            "Line %(line)s holds a control character (%(codes)s); remove it and upload again."
        ),
        errors.NOT_READ: _(
            "The list could not be read to the end; nothing was saved. Upload it again."
        ),
    }
    text = texts.get(code, texts[errors.UNKNOWN_FORMAT])
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text
