"""Mail and feeds say their club (issue 28): every e-mail of a club has the club's name in
its subject and in its sender's name, names the club and its venue in the body and links
under the club's own address at the host and port the site is served at; the club's
calendar feed names the club in every event and in the calendar's name, with the venue as
LOCATION and the evening's page as URL. Club A beside the decoy club B (tests/decoy.py)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import re
import subprocess
import sys
from email.utils import parseaddr
from pathlib import Path

import pytest
from django.core import mail as django_mail
from django.db import transaction
from icalendar import Calendar

from core import mail
from members.accounts import invitations
from members.clubs.addresses import club_base_url
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.models import User
from pairing import notices
from pairing import services as pairing_services
from tests import factories as f
from tests.decoy import decoy

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SITE = "http://127.0.0.1:8123"
URL = re.compile(r"https?://\S+")


@pytest.fixture
def two_clubs(settings):
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.SITE_URL = SITE
    settings.DEFAULT_FROM_EMAIL = "Ranglijst <competitie@ranglijst.example>"
    a, b = home_club(), decoy()
    a.venue, b.venue = "Wijkcentrum Het Paard, Dorpsstraat 1", "Buurthuis De Lokvogel, Kade 9"
    a.save(update_fields=["venue"])
    b.save(update_fields=["venue"])
    return a, b


def _invite(club) -> None:
    """An invitation queued as the worker queues it: in the club's context, outside a request."""
    with club_context(club):
        with transaction.atomic():
            member = User.objects.create_user(email=f"nieuw@{club.slug}.example", name="Nina Nieuw")
            member.set_unusable_password()
            member.save()
            f.join(member, club=club)
            assert invitations.queue(member=member, site_url=club_base_url(club))
        mail.deliver()


def _pairing(club) -> None:
    with club_context(club):
        season = f.season(players=4, club=club, name=f"Seizoen {club.slug}")
        evening = f.playing_evenings(season)[0]
        pairing_services.evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True)
        notices.deliver(evening.pk)


def _assert_of(message, club, other) -> None:
    name, address = parseaddr(message.from_email)
    assert name == club.shown_name and address == "competitie@ranglijst.example"
    assert club.shown_name in message.subject and other.shown_name not in message.subject
    assert club.shown_name in message.body and club.venue in message.body
    assert other.shown_name not in message.body and other.venue not in message.body
    links = URL.findall(message.body)
    assert links
    for link in links:
        assert link.startswith(f"{SITE}/{club.slug}/"), link


@pytest.mark.parametrize("send", [_invite, _pairing], ids=["invitation", "pairing"])
def test_each_clubs_mail_names_the_club_in_subject_sender_and_body_and_links_under_it(
        two_clubs, send):
    a, b = two_clubs
    for club, other in ((a, b), (b, a)):
        django_mail.outbox.clear()
        send(club)
        assert django_mail.outbox
        for message in django_mail.outbox:
            _assert_of(message, club, other)


def test_the_club_duty_mail_names_its_club(two_clubs):
    from competition.season import services

    a, b = two_clubs
    for club, other in ((a, b), (b, a)):
        django_mail.outbox.clear()
        with club_context(club):
            season = f.season(players=2, club=club, name=f"Seizoen {club.slug}")
            leader = f.leader(club)
            evening = f.playing_evenings(season)[1]
            player = season.players.select_related("member").first()
            before = evening.starts_at - dt.timedelta(days=3)
            duty = services.club_duty_request(actor=player.member, player=player, evening=evening,
                                              note="", now=before)
            services.club_duty_decide(actor=leader, request=duty, approve=True, now=before)
            mail.deliver()
        assert django_mail.outbox
        for message in django_mail.outbox:
            _assert_of(message, club, other)


def test_the_clubs_calendar_feed_names_the_club_its_venue_and_the_evenings_page(
        two_clubs, client):
    a, b = two_clubs
    with club_context(a):
        season = f.season(players=2, club=a)
    body = client.get(f"/{a.slug}/calendar.ics", {"season": season.slug}).content.decode()
    cal = Calendar.from_ical(body)
    assert str(cal["x-wr-calname"]) == f"{a.shown_name} {season.name}"
    events = list(cal.walk("VEVENT"))
    assert events
    for event in events:
        assert str(event["summary"]).startswith(f"{a.shown_name}: ")
        assert str(event["location"]) == a.venue
        assert str(event["url"]).startswith(f"{SITE}/{a.slug}/evenings/")
    assert b.shown_name not in body and b.venue not in body


def test_make_run_gives_its_worker_the_port_the_site_is_served_at():
    """The worker writes the e-mails with SITE_URL; under ``make run`` that is the address
    the web process serves (PORT), not a fixed localhost:8000."""
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    env = serve.environment({"PORT": "8123"})
    assert env["SITE_URL"] == SITE and env["PORT"] == "8123"
    assert serve.environment({})["SITE_URL"] == "http://127.0.0.1:8000"
    assert serve.environment({"PORT": "9000", "SITE_URL": "https://club.example"})["SITE_URL"] == (
        "https://club.example")  # an address given is kept
    code = "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
    clean = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "DJANGO_ALLOWED_HOSTS", "PORT"}}
    for extra, expected in (({**env}, SITE), ({"PORT": "8123", "DJANGO_DEBUG": "1"}, "http://localhost:8123")):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                              timeout=60, env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings",
                                               "DJANGO_SECRET_KEY": "x" * 50, **extra})
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == expected


def test_a_club_without_a_venue_never_gets_the_installations_address(two_clubs, settings):
    """``CLUB_ADDRESS`` is the installation's own club's venue, not every club's."""
    a, b = two_clubs
    settings.CLUB_ADDRESS = "Wijkcentrum Het Paard, Dorpsstraat 1"
    b.venue = ""
    b.save(update_fields=["venue"])
    django_mail.outbox.clear()
    _invite(b)
    [message] = django_mail.outbox
    assert b.shown_name in message.body
    assert settings.CLUB_ADDRESS not in message.body and "Speellocatie" not in message.body
