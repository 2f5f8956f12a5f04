"""The club's own time zone (``Club.time_zone``) drives its evenings' times and sign-up
deadlines: a club in New York plays at 20:15 New York time with its deadline on Thursday
18:00 there, on both sides of its change from summer time (1 November 2026), and a club in
Amsterdam across its own (25 October 2026)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from competition.models import Evening
from members.clubs.context import club_context
from members.models import Club
from tests import factories as f

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def _evenings(zone: str, slug: str, **settings) -> list[Evening]:
    club = Club.objects.create(name=f"Schaakclub {slug}", slug=slug, time_zone=zone, **settings)
    with club_context(club):
        s = f.season(players=2, club=club)
        return list(Evening.objects.filter(season=s, date__gte=dt.date(2026, 10, 16),
                                           date__lte=dt.date(2026, 11, 13)).order_by("date"))


def test_a_new_york_clubs_evenings_are_at_its_own_wall_clock_across_its_dst_change():
    evenings = _evenings("America/New_York", "ny")
    assert any(e.date < dt.date(2026, 11, 1) for e in evenings)
    assert any(e.date > dt.date(2026, 11, 1) for e in evenings)
    for e in evenings:
        starts, deadline = e.starts_at.astimezone(NEW_YORK), e.deadline.astimezone(NEW_YORK)
        assert (starts.date(), starts.time()) == (e.date, dt.time(20, 15)), e.date
        assert deadline.time() == dt.time(18, 0) and deadline.date() == e.date - dt.timedelta(days=1)
    # Before and after the change the same wall clock is a different hour in UTC.
    before = next(e for e in evenings if e.date < dt.date(2026, 11, 1))
    after = next(e for e in evenings if e.date > dt.date(2026, 11, 1))
    assert before.starts_at.astimezone(dt.UTC).hour != after.starts_at.astimezone(dt.UTC).hour


def test_an_amsterdam_clubs_evenings_stay_at_its_wall_clock_across_its_dst_change():
    evenings = _evenings("Europe/Amsterdam", "ams")
    assert any(e.date < dt.date(2026, 10, 25) for e in evenings)
    for e in evenings:
        assert e.starts_at.astimezone(AMSTERDAM).time() == dt.time(20, 15)
        assert e.deadline.astimezone(AMSTERDAM).time() == dt.time(18, 0)


def test_the_clubs_start_time_and_deadline_are_its_new_seasons_defaults():
    # Before: Club.start_time, deadline_weekday and deadline_time were read nowhere.
    evenings = _evenings("Europe/Amsterdam", "eigen", start_time=dt.time(19, 30),
                         deadline_weekday=2, deadline_time=dt.time(21, 0))
    assert evenings and all(e.date.weekday() == 4 for e in evenings)  # Fridays
    for e in evenings:
        starts, deadline = e.starts_at.astimezone(AMSTERDAM), e.deadline.astimezone(AMSTERDAM)
        assert starts.time() == dt.time(19, 30), e.date
        assert deadline.weekday() == 2 and deadline.time() == dt.time(21, 0), e.date
        assert deadline.date() == e.date - dt.timedelta(days=2)


def test_a_club_with_the_defaults_gets_the_seasons_it_always_got():
    club = Club.objects.create(name="Schaakclub Standaard", slug="standaard")
    assert (club.start_time, club.deadline_weekday, club.deadline_time) == (
        dt.time(20, 15), 3, dt.time(18, 0))


def test_the_clubs_default_rules_are_preselected_on_the_season_set_up_form(client):
    from django.urls import reverse

    from members.clubs.memo import home_club

    club = home_club()
    club.default_system = "classic"
    club.save(update_fields=["default_system"])
    client.force_login(f.admin(club))
    page = client.get(reverse("competition:leader")).content.decode()
    assert '<option value="classic" selected>' in page
    assert '<option value="pion" selected>' not in page
