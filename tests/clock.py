"""A site clock on a fixed day that never runs backwards.

The tests that play on a named day (the demo's Monday, a module's ``TODAY``) move the
site's clock there. Keeping the real time of day would make the clock jump back when a
run crosses midnight: a row written at 23:59 (the demo's sign-ups, built once per
process) would then be newer than one written a minute later, and "the newest first"
pages would put them in the wrong order. So the day starts at noon, in the site's time
zone, and runs on with this process's own monotonic clock: a run of any length this
suite has stays on its day, and time only moves forward.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from django.utils import timezone

_monotonic = time.monotonic  # the process's own clock, read through this name
_STARTED = _monotonic()
NOON = dt.time(12)


def on_day(day: dt.date) -> Callable[[], dt.datetime]:
    """A replacement for ``timezone.now``: ``day`` at noon plus the time this process has
    run (aware, in the site's time zone)."""
    start = timezone.make_aware(dt.datetime.combine(day, NOON), timezone.get_default_timezone())

    def now() -> dt.datetime:
        return start + dt.timedelta(seconds=_monotonic() - _STARTED)

    return now
