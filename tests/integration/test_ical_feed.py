"""The iCalendar feed is written by the ``icalendar`` library (issue 12, finding 13): a
carriage return or a line break in an evening's note stays inside the DESCRIPTION (no
injected property), and the calendar is named after the club, not a fixed string."""

from __future__ import annotations

import pytest
from django.test import override_settings
from icalendar import Calendar

from members.models import Club
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

INJECTION = "Zaal dicht\rDTSTART:19700101T000000Z\r\nSUMMARY:Gratis bier\nX-EVIL:1"


def _feed(client, season) -> tuple[str, Calendar]:
    body = client.get("/calendar.ics", {"season": season.slug}).content.decode()
    return body, Calendar.from_ical(body)


def test_a_carriage_return_in_a_note_cannot_inject_a_property(client):
    season = f.season(players=2)
    evening = f.playing_evenings(season)[0]
    evening.note = INJECTION
    evening.save(update_fields=["note"])
    body, cal = _feed(client, season)
    unfolded = body.replace("\r\n ", "").split("\r\n")
    assert not any(line.startswith(("X-EVIL", "SUMMARY:Gratis")) for line in unfolded)
    assert "\r" not in body.replace("\r\n", "")  # every CR belongs to a line ending
    events = [c for c in cal.walk("VEVENT") if c["uid"].startswith(f"evening-{evening.pk}@")]
    assert len(events) == 1
    description = str(events[0]["description"])
    assert "DTSTART:19700101T000000Z\nSUMMARY:Gratis bier\nX-EVIL:1" in description
    assert events[0].decoded("dtstart") == evening.starts_at


@override_settings(LANGUAGE_CODE="nl")
def test_the_calendar_is_named_after_the_club(client):
    season = f.season(players=2)
    club = Club.objects.get(pk=season.club_id)
    club.name = "Schaakvereniging Het Paard"
    club.save()  # as the operator's admin does: every memo of the club is forgotten
    body, cal = _feed(client, season)
    assert str(cal["x-wr-calname"]) == f"Schaakvereniging Het Paard {season.name}"
    assert "Schaakclub" not in body
    summaries = {str(e["summary"]) for e in cal.walk("VEVENT")}
    assert "Schaakvereniging Het Paard: Interne competitie" in summaries
