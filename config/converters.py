"""One URL per object: ``<id:...>`` takes a number without leading zeros.

Django's ``<int:...>`` takes ``[0-9]+``, so ``/players/05/`` and ``/players/005/`` were
each a page of their own (rendered, and cached for visitors: a flood of them evicted other
keys). This converter matches only the canonical spelling, and at most 18 digits (every
id fits a 64-bit column, where a longer number would fail in the database); the rest is a
404. Registered in ``config/urls.py`` before any app's patterns are read.
"""

from __future__ import annotations


class IdConverter:
    regex = "0|[1-9][0-9]{0,17}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: object) -> str:
        # str() first: a template may pass a lazy value (a context processor's id).
        return str(int(str(value)))


class DayConverter:
    """``<day:...>``: a date written as YYYY-MM-DD only (``date.fromisoformat`` also takes
    ``20260904``, a second URL for the same evening); the view still refuses 2026-13-01."""

    regex = "[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)
