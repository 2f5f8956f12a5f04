"""The tests' own clock on a named day (tests/clock.py): on its day, from noon, forwards."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from tests import clock


def test_the_clock_on_a_day_starts_at_noon_there_and_never_runs_backwards(monkeypatch):
    ticks = iter([clock._STARTED, clock._STARTED + 0.5, clock._STARTED + 11 * 3600])
    monkeypatch.setattr(clock, "_monotonic", lambda: next(ticks))
    now = clock.on_day(dt.date(2026, 11, 30))
    first, second, late = now(), now(), now()
    assert timezone.localtime(first) == timezone.make_aware(dt.datetime(2026, 11, 30, 12))
    assert first < second < late
    # Eleven hours on, still the same day in the site's time zone.
    assert timezone.localdate(late) == dt.date(2026, 11, 30)
