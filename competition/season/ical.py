"""The season calendar as an iCalendar feed (RFC 5545) members can subscribe to.

Written with the ``icalendar`` library, which escapes and folds every value: a note with a
line break or a carriage return stays one property value. Other control characters, which
RFC 5545 does not allow in a value at all, become spaces; a name (the calendar's) is one
line (core/singleline.py). The texts are in the club's
language (``LANGUAGE_CODE``). The club is named in the calendar's name (with the season's)
and in every event's summary, with the club's venue as its LOCATION and the evening's page
(under the club's own address) as its URL: two clubs' feeds on one phone never look alike.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from competition.models import Evening, EveningKind, Season
from competition.season import links
from core.singleline import CONTROL
from members.clubs.addresses import club_venue, site_name

GAME_HOURS = dt.timedelta(hours=3, minutes=45)


def _summaries() -> dict[str, str]:
    return {
        EveningKind.PLAYING: _("Internal competition"),
        EveningKind.RAPID: _("Rapid evening"),
        EveningKind.PLAYOFF: _("Play-offs"),
    }


def _text(value: str) -> str:
    """A bare carriage return is a line break too (RFC 5545 has only escaped ``\\n``); any
    other control character is a space."""
    lines = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(CONTROL.sub(" ", line) for line in lines)


def _one_line(value: str) -> str:
    return CONTROL.sub(" ", value)


def calendar_ics(season: Season, evenings: Iterable[Evening], *, host: str) -> str:
    with translation.override(settings.LANGUAGE_CODE):
        return _calendar(season, evenings, host=host).to_ical().decode()


def _calendar(season: Season, evenings: Iterable[Evening], *, host: str) -> Calendar:
    stamp = timezone.now().astimezone(dt.UTC)
    summaries = _summaries()
    cal = Calendar()
    cal.add("prodid", "-//Ranglijst//Club calendar//NL")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    club = season.club
    name = _one_line(site_name(club))
    venue = _one_line(club_venue(club))
    cal.add("x-wr-calname", _one_line(f"{name} {season.name}"))
    cal.add("x-wr-timezone", "Europe/Amsterdam")
    for e in evenings:
        summary = summaries.get(e.kind)
        if summary is None:
            continue
        description = e.note or ""
        if e.kind == EveningKind.PLAYING:
            deadline = f"{timezone.localtime(e.deadline):%d-%m %H:%M}"
            description = (_("Sign up or off until %(deadline)s.") % {"deadline": deadline}
                           + " " + description).strip()
        event = Event()
        event.add("uid", f"evening-{e.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", e.starts_at.astimezone(dt.UTC))
        event.add("dtend", (e.starts_at + GAME_HOURS).astimezone(dt.UTC))
        event.add("summary", f"{name}: {summary}")
        if venue:
            event.add("location", venue)
        path = reverse("competition:evening", args=[e.date.isoformat()])
        event.add("url", links.absolute(f"{path}?season={season.slug}", club))
        event.add("description", _text(description))
        cal.add_component(event)
    return cal
