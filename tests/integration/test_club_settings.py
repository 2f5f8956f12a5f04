"""A club's administrator edits his club's settings on his club's own page (issue 29): the
values checked (a bad one says so in Dutch and saves nothing), the change audited, the page
linked from his home, and club B's settings out of reach from club A."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from competition.models import AuditAction, AuditRecord
from members.clubs.context import club_context, platform_context
from members.clubs.memo import home_club
from members.models import Club
from tests import factories as f
from tests.decoy import decoy

pytestmark = pytest.mark.django_db

GOOD = {"name": "Schaakclub Het Paard", "venue": "Buurthuis Het Paard, Markt 1",
        "time_zone": "Europe/Brussels", "language": "nl", "deadline_weekday": "2",
        "deadline_time": "17:30", "start_time": "19:45", "default_system": "classic"}


@pytest.fixture
def clubs(settings):
    settings.RANGLIJST_SINGLE_CLUB = False
    return home_club(), decoy()


def _client(user) -> Client:
    client = Client(headers={"Accept-Language": "nl"})
    client.force_login(user)
    return client


def _row(club: Club) -> tuple:
    club = Club.objects.get(pk=club.pk)
    return (club.name, club.venue, club.time_zone, club.language, club.deadline_weekday,
            club.deadline_time, club.start_time, club.default_system)


def _audits() -> int:
    with platform_context():
        return AuditRecord.objects.filter(action=AuditAction.CLUB_SETTINGS).count()


def test_the_administrator_saves_his_clubs_settings_and_the_change_is_audited(clubs):
    a, b = clubs
    admin = f.admin(a)
    b_before = _row(b)
    response = _client(admin).post(f"/{a.slug}/settings/", GOOD)
    assert response.status_code == 302
    assert _row(a) == ("Schaakclub Het Paard", "Buurthuis Het Paard, Markt 1", "Europe/Brussels", "nl",
                       2, dt.time(17, 30), dt.time(19, 45), "classic")
    assert _row(b) == b_before
    with club_context(a):
        record = AuditRecord.objects.get(action=AuditAction.CLUB_SETTINGS)
    assert (record.club_id, record.actor) == (a.pk, admin)
    assert record.after["name"] == "Schaakclub Het Paard" and record.after["deadline_time"] == "17:30"
    assert record.before["name"] == a.name and record.before["deadline_time"] == "18:00"
    # The same values again change nothing: no second audit row.
    assert _client(admin).post(f"/{a.slug}/settings/", GOOD).status_code == 302
    assert _audits() == 1


@pytest.mark.parametrize(("field", "value", "words"), [
    ("name", "   ", "verplicht"),
    ("time_zone", "Mars/Olympus", "geen tijdzone"),
    ("deadline_time", "25:99", "geldige tijd"),
    ("start_time", "acht uur", "geldige tijd"),
    ("deadline_weekday", "9", "geldige keuze"),
    ("default_system", "Keizer", "geldige keuze"),
    ("language", "fr", "geldige keuze"),
    ("venue", "Zaal\nDTSTART:1970", "één regel"),
])
def test_a_bad_value_says_so_in_dutch_and_saves_nothing(clubs, field, value, words):
    a, _b = clubs
    before, audits = _row(a), _audits()
    response = _client(f.admin(a)).post(f"/{a.slug}/settings/", GOOD | {field: value})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert _row(a) == before and _audits() == audits


def test_club_bs_settings_are_out_of_reach_from_club_a(clubs):
    a, b = clubs
    client = _client(f.admin(a))
    b_before = _row(b)
    assert client.get(f"/{b.slug}/settings/").status_code in (403, 404)
    assert client.post(f"/{b.slug}/settings/", GOOD).status_code in (403, 404)
    assert _row(b) == b_before and _audits() == 0


def test_a_competition_leader_or_player_does_not_edit_the_clubs_settings(clubs):
    a, _b = clubs
    before = _row(a)
    for user in (f.leader(a), f.member(club=a)):
        client = _client(user)
        assert client.get(f"/{a.slug}/settings/").status_code == 403
        assert client.post(f"/{a.slug}/settings/", GOOD).status_code == 403
    assert _row(a) == before


def test_the_settings_page_is_linked_from_the_administrators_home_and_shows_his_clubs_values(clubs):
    a, b = clubs
    client = _client(f.admin(a))
    leader_page = client.get(f"/{a.slug}/leader/").content.decode()
    assert f'href="/{a.slug}/settings/"' in leader_page
    page = client.get(f"/{a.slug}/settings/").content.decode()
    assert a.name in page and b.name not in page
    assert "Instellingen van de club" in page
    assert f'href="/{a.slug}/settings/"' not in _client(f.leader(a)).get(f"/{a.slug}/leader/").content.decode()
