"""A club's time zone is one of the IANA zones (``Europe/Amsterdam``), checked where it is
typed (the validator on ``Club.time_zone``: every form, the admin's included, and
``full_clean`` in the services and the restore); a zone stored before that check, or lost
from the system's zone data, never makes a page fail: it is read as the site's own
(``settings.TIME_ZONE``) and logged."""

from __future__ import annotations

import datetime as dt
import functools
import logging
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

log = logging.getLogger(__name__)


@functools.cache
def known_time_zones() -> frozenset[str]:
    """The IANA zone names this system knows (its zone data, else the ``tzdata`` package)."""
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: object) -> None:
    """The model field's validator: an IANA zone name, nothing else (no path, no made-up
    region)."""
    if not isinstance(value, str) or value not in known_time_zones():
        raise ValidationError(
            _("%(zone)s is not a time zone; choose one such as Europe/Amsterdam."),
            code="time_zone", params={"zone": str(value)[:60]},
        )


def zone_or_default(name: str) -> dt.tzinfo:
    """The zone ``name``; the site's own for a name that is no zone (logged)."""
    if name in known_time_zones():
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    _warn_once(name)
    return zoneinfo.ZoneInfo(settings.TIME_ZONE)


@functools.cache
def _warn_once(name: str) -> None:
    log.warning("unknown time zone %r: %s used instead", name[:60], settings.TIME_ZONE)
