"""Bad input is refused with a message and nothing is saved (issue 23): a KNSB relation
number that is not digits, a blitz without the date of its evening, an event on a night
the venue is closed or outside the season."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from competition.events import services as swiss
from competition.models import AuditRecord, SwissEvent
from competition.roster import services as member_services
from core.permissions import Perm
from members.models import User
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture(autouse=True)
def language_restored():
    """A Dutch request leaves Dutch active in this thread; the next test reads English."""
    with translation.override("en"):
        yield
CLOSED = dt.date(2026, 12, 25)
SITE = "https://club.example.org/"


def test_a_knsb_number_that_is_not_digits_is_refused_and_nothing_saved():
    leader, season = f.leader(), f.season(players=2)
    users, audits = User.objects.count(), AuditRecord.objects.count()
    with pytest.raises(ValidationError, match="digits only"):
        member_services.member_add(actor=leader, season=season, name="Nina Nieuw",
                                   email="nina@example.org", knsb_number="abc", site_url=SITE)
    assert (User.objects.count(), AuditRecord.objects.count()) == (users, audits)
    player = season.players.select_related("member").first()
    with pytest.raises(ValidationError, match="digits only"):
        member_services.member_update(actor=leader, player=player, name=player.member.name,
                                      email=player.member.email, rating=player.member.rating,
                                      knsb_number="12ab", kind=player.kind,
                                      site_url="http://testserver")
    player.member.refresh_from_db()
    assert player.member.knsb_number == ""


def test_the_member_form_says_so_in_dutch(client):
    leader, season = f.leader(), f.season(players=2)
    client.force_login(leader)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    page = client.post(reverse("members:add", args=[season.slug]), {
        "name": "Nina Nieuw", "email": "nina@example.org", "knsb_number": "abc", "kind": "flexible",
    }).content.decode()
    assert "alleen cijfers" in page
    assert not User.objects.filter(email="nina@example.org").exists()


def test_a_blitz_needs_its_date_and_an_open_evening_in_the_season(client):
    leader = f.leader()
    season = f.season(players=2, closed=[CLOSED])
    client.force_login(leader)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    url = reverse("events:event_new") + f"?season={season.slug}"
    for date, message in (("", "heeft de datum van zijn avond nodig"),
                          ("25-12-2026", "is de zaal gesloten"),
                          ("2028-01-07", "valt buiten het seizoen")):
        page = client.post(url, {"kind": "blitz", "name": "Kerstblitz", "date": date,
                                 "season": season.slug}).content.decode()
        assert message in page, date
    assert not SwissEvent.objects.exists()
    with pytest.raises(ValidationError, match="closed|gesloten"):
        swiss.event_create(actor=leader, season=season, kind="blitz", name="Kerst", date=CLOSED)
    assert not SwissEvent.objects.exists()
    swiss.event_create(actor=leader, season=season, kind="blitz", name="Kerst",
                       date=CLOSED + dt.timedelta(days=7))
    assert SwissEvent.objects.count() == 1


# --- Roles, on a Dutch page of the site ---------------------------------------------------


def test_the_administrator_gives_roles_and_the_fide_id_on_a_dutch_page(client):
    from competition.roster.services import role_of

    admin = f.admin()
    member = f.member(name="Anna Arbiter", role="player")
    client.force_login(admin)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    page = client.get(reverse("members:roles")).content.decode()
    assert "Rollen" in page and "wedstrijdleider" in page and f'id="member-{member.pk}"' in page
    client.post(reverse("members:role_set", args=[member.pk]), {"role": "arbiter", "fide_id": "1503014"})
    member.refresh_from_db()
    assert role_of(member) == "arbiter" and member.fide_id == "1503014"
    assert member.has_perm(Perm.ENTER_RESULTS)
    assert AuditRecord.objects.filter(action="member.role").count() == 1


def test_a_bad_role_or_fide_id_is_refused_and_nothing_saved(client):
    from competition.roster.services import role_of

    admin = f.admin()
    member = f.member(name="Bert Bord", role="player")
    client.force_login(admin)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    response = client.post(reverse("members:role_set", args=[member.pk]),
                           {"role": "arbiter", "fide_id": "abc"}, follow=True)
    assert "alleen cijfers" in response.content.decode()
    response = client.post(reverse("members:role_set", args=[admin.pk]),
                           {"role": "player", "fide_id": ""}, follow=True)
    assert "beheerder" in response.content.decode()
    member.refresh_from_db()
    assert role_of(member) == "player" and member.fide_id == ""
    assert not AuditRecord.objects.filter(action="member.role").exists()


def test_only_the_administrator_gives_roles(client):
    member = f.member(name="Carla", role="player")
    for user in (f.leader(), member):
        client.force_login(user)
        assert client.get(reverse("members:roles")).status_code == 403
        assert client.post(reverse("members:role_set", args=[member.pk]),
                           {"role": "administrator", "fide_id": ""}).status_code == 403
    assert not AuditRecord.objects.filter(action="member.role").exists()
