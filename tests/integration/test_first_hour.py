"""The first hour of a new club (issue 31): the operator's "Add club" (the admin form and
``manage.py create_club``) sends the first leader his own invitation, as the new club's
mail, with every link under the club's address; the link's set-password page signs him in
and brings him to his club's home, which shows the first season's steps as a checklist that
ticks itself; the operator's form offers the rules presets, shows the club's real address
and names the role it gives; the presets carry neutral names. Beside the decoy club B."""

from __future__ import annotations

import datetime as dt
import re
from io import StringIO

import pytest
from django.core import mail as django_mail
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from competition.club import services as club_services
from competition.club.selectors import first_season_steps
from competition.models import System
from competition.season import services
from core.models import Mail
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.models import Club, User
from members.platform.services import club_create
from pairing import services as pairing_services
from tests import factories as f
from tests.decoy import NAME as DECOY_NAME
from tests.decoy import decoy

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8123"
URL = re.compile(r"https?://\S+")
STEPS = ["settings", "members", "calendar", "first-evening"]


@pytest.fixture
def platform(settings):
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.SITE_URL = SITE
    decoy()  # club B is there
    return User.objects.create_superuser(email="operator@example.org", password="pw-schaak-123",
                                         name="Op")


def _create(operator, capture, **kw):
    data = {"name": "SC De Toren", "slug": "sc-de-toren", "leader_email": "tom@toren.example",
            "leader_name": "Tom Toren", "venue": "Buurthuis De Toren, Markt 3"} | kw
    with capture(execute=True):
        return club_create(actor=operator, **data)


def _assert_first_leader_invitation(club: Club, message) -> None:
    with club_context(club):  # the new club's mail, not "no club"
        row = Mail.objects.get(to=[message.to[0]])
    assert row.club_id == club.pk
    assert message.subject == "SC De Toren op Ranglijst: je bent de beheerder van de club"
    body = message.body
    assert "Hallo Tom Toren," in body and "jij bent de beheerder van de club" in body
    assert "Wat je eerst doet" in body and "Voeg de leden toe" in body
    assert "Buurthuis De Toren, Markt 3" in body
    for other in (home_club().name, DECOY_NAME, "meld je aan voor de avonden"):
        assert other not in body
    links = URL.findall(body)
    assert len(links) >= 4
    for link in links:
        assert link.startswith(f"{SITE}/sc-de-toren/"), link


def test_the_first_leader_gets_his_own_invitation_as_the_new_clubs_mail(
        platform, django_capture_on_commit_callbacks):
    club, _leader = _create(platform, django_capture_on_commit_callbacks)
    [message] = django_mail.outbox
    _assert_first_leader_invitation(club, message)


def test_the_command_sends_the_first_leader_the_same_invitation(
        platform, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("create_club", "--name", "SC De Toren", "--slug", "sc-de-toren",
                     "--leader-email", "tom@toren.example", "--leader-name", "Tom Toren",
                     "--venue", "Buurthuis De Toren, Markt 3", stdout=StringIO())
    [message] = django_mail.outbox
    _assert_first_leader_invitation(Club.objects.get(slug="sc-de-toren"), message)


def test_the_invitation_signs_him_in_and_brings_him_to_his_clubs_checklist(
        platform, django_capture_on_commit_callbacks):
    _create(platform, django_capture_on_commit_callbacks)
    link = next(u for u in URL.findall(django_mail.outbox[0].body) if "/password/reset/key/" in u)
    client = Client()
    response = client.get(link.removeprefix(SITE), follow=True)  # the key moves into the session
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"password1": "Zet-1-wachtwoord!", "password2": "Zet-1-wachtwoord!"})
    assert response.status_code == 302 and response["Location"] == "/sc-de-toren/"
    home = client.get("/sc-de-toren/").content.decode()
    assert "data-first-steps" in home
    assert re.findall(r'data-step="([^"]+)" data-done="0"', home) == STEPS
    assert 'href="/sc-de-toren/settings/"' in home


def test_the_checklist_ticks_itself_as_the_steps_are_done(
        platform, django_capture_on_commit_callbacks):
    club, leader = _create(platform, django_capture_on_commit_callbacks)
    leader.set_password("pw-schaak-123")
    leader.save()

    def done() -> list[str]:
        with club_context(club):
            return [s.key for s in first_season_steps(club, edits_settings=True) if s.done]

    assert done() == []
    with club_context(club):
        club_services.club_settings_update(actor=leader, club=club,
                                           changes={"venue": "Buurthuis De Toren, Markt 4"})
        assert done() == ["settings"]
        season = services.season_set_up(actor=leader, name="2026-2027", opening=dt.date(2026, 9, 4),
                                        last_day=dt.date(2027, 7, 15), system="pion", club=club)
        assert done() == ["settings", "calendar"]
        for i in range(4):
            services.player_add(actor=leader, season=season,
                                member=f.member(name=f"Lid {i}", club=club), kind="fixed")
        assert done() == ["settings", "members", "calendar"]
        evening = f.playing_evenings(season)[0]
        client = Client()
        client.force_login(leader)
        assert "data-first-steps" in client.get("/sc-de-toren/").content.decode()
        pairing_services.evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True)
        assert done() == STEPS
    assert "data-first-steps" not in client.get("/sc-de-toren/").content.decode()  # under way: gone


def test_a_competition_leader_sees_the_settings_step_without_a_link_he_may_not_follow(
        platform, django_capture_on_commit_callbacks):
    club, _admin = _create(platform, django_capture_on_commit_callbacks)
    client = Client()
    client.force_login(f.leader(club))
    home = client.get("/sc-de-toren/").content.decode()
    assert 'data-step="settings" data-done="0"' in home
    assert 'href="/sc-de-toren/settings/"' not in home


def test_a_player_and_another_clubs_administrator_see_no_checklist(
        platform, django_capture_on_commit_callbacks):
    club, _leader = _create(platform, django_capture_on_commit_callbacks)
    client = Client()
    client.force_login(f.member(club=club))
    assert "data-first-steps" not in client.get("/sc-de-toren/").content.decode()
    client.force_login(f.admin(decoy()))
    assert "data-first-steps" not in client.get("/sc-de-toren/").content.decode()


def test_the_operators_form_offers_the_presets_shows_the_address_and_names_the_role(platform):
    client = Client(headers={"Accept-Language": "nl"})  # the operator reads Dutch
    client.force_login(platform)
    page = client.get("/admin/members/club/add/").content.decode()
    assert '<select name="default_system"' in page
    assert "Keizer met herberekening" in page and "De Pion" not in page.split("default_system")[1][:2000]
    assert "beheerder van de club" in page and "wedstrijdleider" not in page
    assert f"{SITE}/&lt;adres&gt;/" in page and "staan op //" not in page


def test_the_operators_form_refuses_a_rules_text_that_is_no_preset(platform):
    client = Client(headers={"Accept-Language": "nl"})
    client.force_login(platform)
    data = {"name": "SC De Toren", "slug": "sc-de-toren", "venue": "", "time_zone": "Europe/Amsterdam",
            "default_system": "Keizer", "leader_email": "tom@toren.example", "leader_name": "Tom Toren"}
    response = client.post("/admin/members/club/add/", data)
    assert response.status_code == 200
    assert "Selecteer een geldige keuze" in response.content.decode()
    assert not Club.objects.filter(slug="sc-de-toren").exists()
    assert not User.objects.filter(email="tom@toren.example").exists()


def test_the_service_and_the_command_refuse_a_rules_text_that_is_no_preset(
        platform, django_capture_on_commit_callbacks):
    with translation.override("nl"), pytest.raises(ValidationError) as exc:
        _create(platform, django_capture_on_commit_callbacks, default_system="Keizer")
    assert "'Keizer' is geen reglement" in " ".join(exc.value.message_dict["default_system"])
    with pytest.raises(CommandError, match="invalid choice"):  # the presets are the choices
        call_command("create_club", "--name", "X", "--slug", "sc-x", "--leader-email", "x@x.example",
                     "--leader-name", "X", "--system", "Keizer", stdout=StringIO(), stderr=StringIO())
    assert not Club.objects.filter(slug__in=["sc-de-toren", "sc-x"]).exists()
    assert django_mail.outbox == []


def test_the_presets_carry_neutral_names_and_keep_their_keys():
    with translation.override("nl"):
        labels = dict((k, str(v)) for k, v in System.choices)
    assert labels["pion"] == "Keizer met herberekening"
    assert list(labels) == ["pion", "classic", "keizer1956", "ladder"]
    assert not any("Pion" in label for label in labels.values())
