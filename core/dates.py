"""Dates in running text, as the language writes them: "vr 18 dec" (never ISO)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.tenancy.context import current_tenant


def short_day(day: dt.date) -> str:
    """Weekday, day and month, abbreviated: "vr 18 dec" in Dutch, "Fri 18 Dec" in English.

    The format is itself a translation (Dutch writes month abbreviations in lower case)."""
    return date_format(day, _("D j M"))


class NoClubTimeZone(RuntimeError):
    """A club's time asked outside every club: the caller must enter the club."""


def club_tz() -> dt.tzinfo:
    """The current club's time zone (``Club.time_zone``): its evenings and deadlines are
    wall-clock times there. Outside every club it raises: no club's times are guessed."""
    club = current_tenant()
    if club is None:
        raise NoClubTimeZone("an evening's time needs its club's time zone: enter the club")
    return club.tzinfo()


def club_today() -> dt.date:
    """Today in the current club's time zone (``Club.time_zone``; settings.TIME_ZONE
    outside any club), not the server's."""
    club = current_tenant()
    return timezone.localdate(timezone=club.tzinfo() if club is not None else None)
