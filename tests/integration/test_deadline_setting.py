"""The leader changes the club's sign-up deadline setting on his own season page (issue
23): before saving the page says, evening by evening, which open evenings' deadlines would
move (not yet paired, deadline to come) and offers to move or keep them; afterwards it says
what moved. Paired and published evenings never move; times stay wall-clock times in
Europe/Amsterdam across the change to and from summer time; the admin shows the setting
read-only with a pointer here; bad input saves nothing."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditRecord, Competition, Evening
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

AMS = ZoneInfo("Europe/Amsterdam")


@pytest.fixture
def season():
    return f.season(players=4)


def at(monkeypatch, moment: dt.datetime) -> dt.datetime:
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


def leader_client(client):
    client.force_login(f.leader())
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    return client


def deadlines(season):
    return {e.pk: e.deadline for e in Evening.objects.filter(season=season)}


def local(value: dt.datetime) -> tuple[dt.date, str]:
    value = value.astimezone(AMS)
    return value.date(), value.strftime("%H:%M")


def state(season):
    c = Competition.objects.get(season=season)
    return (deadlines(season), c.deadline_days_before, c.deadline_time, AuditRecord.objects.count())


def test_the_leader_sees_the_setting_on_his_season_page(client, season):
    c = leader_client(client)
    page = c.get(reverse("competition:leader_season", args=[season.slug])).content.decode()
    assert 'id="deadline"' in page
    assert 'name="days_before"' in page and 'type="time"' in page
    assert "welke deadlines van open avonden zouden verschuiven" in page


def test_the_confirmation_names_each_open_evening_and_a_paired_one_never_moves(client, season, monkeypatch):
    evenings = f.playing_evenings(season)
    now = at(monkeypatch, evenings[2].deadline - dt.timedelta(days=2))
    evening_pair_and_publish(actor=None, system=True, evening_id=evenings[2].pk, now=now)  # early
    c = leader_client(client)
    url = reverse("competition:leader_season", args=[season.slug])
    before = state(season)
    data = {"form": "deadline", "days_before": "2", "time": "20:00", "move_evenings": "on"}
    page = c.post(url, data).content.decode()
    assert state(season) == before  # nothing saved yet
    assert "2 dagen voor de avond om 20:00" in page
    nxt = evenings[3]
    was = timezone.localtime(nxt.deadline)
    new = nxt.date - dt.timedelta(days=2)
    assert (f"{short(nxt.date)}: {short(was.date())} {was:%H:%M} → {short(new)} 20:00") in page
    assert short(evenings[2].date) + ":" not in page  # the published evening is not offered
    assert "Wijzigen en deze deadlines verschuiven" in page and "Wijzigen, deze deadlines houden" in page
    assert 'name="move_evenings" value="on"' in page
    response = c.post(url, {**data, "confirm": "1"}, follow=True)
    text = response.content.decode()
    assert "De aanmelddeadline is gewijzigd." in text
    assert f"{short(nxt.date)} → {short(new)} 20:00" in text and "deadlines verschoven" in text
    assert local(Evening.objects.get(pk=nxt.pk).deadline) == (new, "20:00")
    after = deadlines(season)
    for e in evenings[:3]:  # passed, passed, published
        assert after[e.pk] == before[0][e.pk]
    record = AuditRecord.objects.filter(action="competition.deadline").latest("pk")
    assert nxt.date.isoformat() in record.after["moved"]
    assert evenings[2].date.isoformat() not in record.after["moved"]


def short(day: dt.date) -> str:
    from django.utils import translation
    from django.utils.formats import date_format

    with translation.override("nl"):
        return date_format(day, "D j b")


def test_keeping_the_deadlines_changes_only_the_setting_and_says_so(client, season, monkeypatch):
    evenings = f.playing_evenings(season)
    at(monkeypatch, evenings[0].deadline - dt.timedelta(days=1))
    c = leader_client(client)
    url = reverse("competition:leader_season", args=[season.slug])
    before = deadlines(season)
    response = c.post(url, {"form": "deadline", "days_before": "2", "time": "20:00", "move_evenings": "",
                            "confirm": "1"}, follow=True)
    assert "Geen enkele deadline is verschoven." in response.content.decode()
    assert deadlines(season) == before
    competition = Competition.objects.get(season=season)
    assert (competition.deadline_days_before, competition.deadline_time) == (2, dt.time(20, 0))


def test_deadlines_stay_wall_clock_times_across_the_end_and_start_of_summer_time(client, season, monkeypatch):
    at(monkeypatch, dt.datetime(2026, 10, 1, 12, 0, tzinfo=AMS))
    c = leader_client(client)
    url = reverse("competition:leader_season", args=[season.slug])
    starts = {e.pk: e.starts_at for e in Evening.objects.filter(season=season)}
    c.post(url, {"form": "deadline", "days_before": "6", "time": "20:00", "move_evenings": "on",
                 "confirm": "1"})
    offsets = set()
    moved = Evening.objects.filter(season=season, kind="playing", date__gt=dt.date(2026, 10, 8))
    assert moved.count() > 10
    for e in moved:
        assert local(e.deadline) == (e.date - dt.timedelta(days=6), "20:00"), e.date
        assert e.starts_at == starts[e.pk]
        offsets.add(e.deadline.astimezone(AMS).utcoffset())
    # Summer time before 25 October 2026 and after 28 March 2027, winter time between.
    assert offsets == {dt.timedelta(hours=2), dt.timedelta(hours=1)}
    autumn = moved.filter(date__range=(dt.date(2026, 10, 26), dt.date(2026, 10, 31))).first()
    assert autumn is not None  # its deadline lies before the change, its evening after
    assert autumn.deadline.astimezone(dt.UTC).hour == 18 and autumn.starts_at.astimezone(dt.UTC).hour == 19


def test_an_evening_whose_new_deadline_has_passed_keeps_its_own(client, season, monkeypatch):
    evening = f.playing_evenings(season)[3]
    now = at(monkeypatch, evening.deadline - dt.timedelta(hours=2))
    c = leader_client(client)
    url = reverse("competition:leader_season", args=[season.slug])
    data = {"form": "deadline", "days_before": "3", "time": "18:00", "move_evenings": "on"}
    page = c.post(url, data).content.decode()
    was = timezone.localtime(evening.deadline)
    assert f"{short(evening.date)} houdt {short(was.date())} {was:%H:%M}: de nieuwe deadline" in page
    c.post(url, {**data, "confirm": "1"})
    assert Evening.objects.get(pk=evening.pk).deadline == evening.deadline
    assert Evening.objects.get(pk=evening.pk).deadline > now  # still open, not closed at once


@pytest.mark.parametrize(("days", "time", "message"), [
    ("9", "18:00", "6"),
    ("abc", "18:00", "Voer een geheel getal in."),
    ("1", "25:00", "Voer een geldige tijd in."),
    ("0", "21:00", "Op de avond zelf ligt de deadline vóór het begin (20:15)."),
])
def test_bad_input_says_why_and_saves_nothing(client, season, monkeypatch, days, time, message):
    at(monkeypatch, f.playing_evenings(season)[0].deadline - dt.timedelta(days=1))
    c = leader_client(client)
    url = reverse("competition:leader_season", args=[season.slug])
    before = state(season)
    response = c.post(url, {"form": "deadline", "days_before": days, "time": time, "move_evenings": "on",
                            "confirm": "1"}, follow=True)
    assert message in response.content.decode()
    assert state(season) == before


def test_a_player_may_not_change_it(client, season):
    client.force_login(f.member())
    before = state(season)
    response = client.post(reverse("competition:leader_season", args=[season.slug]),
                           {"form": "deadline", "days_before": "2", "time": "20:00", "confirm": "1"})
    assert response.status_code == 403
    assert state(season) == before


def test_the_admin_shows_the_setting_read_only_with_a_pointer_to_the_leaders_page(admin_client, season):
    page = admin_client.get(reverse("admin:competition_season_change", args=[season.pk]),
                            HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert reverse("competition:leader_season", args=[season.slug]) in page
    competition = admin_client.get(
        reverse("admin:competition_competition_change", args=[season.competition.pk]),
        HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    # Shown, not editable: the leader's season page changes it (and moves the deadlines).
    assert 'name="deadline_days_before"' not in competition and 'name="deadline_time"' not in competition
    assert "18:00" in competition
