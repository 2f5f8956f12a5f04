"""Issue 23, accounts: failed sign-ins limited per account and per address apart (a
playing hall shares one address); account e-mails speak for the club, not for
"127.0.0.1:18100"; the e-mails' links use the address the site is served on; the
password rules in Dutch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-schaak-123"
HALL = "192.0.2.10"


@pytest.fixture(autouse=True)
def _fresh_limits():
    caches["default"].clear()
    yield
    caches["default"].clear()


def _member(n: int):
    user = f.member(email=f"zaal{n}@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _sign_in(email: str, password: str, address: str = HALL) -> bool:
    response = Client(REMOTE_ADDR=address).post(reverse("account_login"), {"login": email, "password": password})
    return "_auth_user_id" in response.client.session


def test_a_playing_hall_on_one_address_is_not_locked_out_by_a_dozen_typos():
    members = [_member(n) for n in range(13)]
    for m in members[:12]:  # twelve members mistype once, all from the club's Wi-Fi
        assert not _sign_in(m.email, "typo")
    assert _sign_in(members[12].email, PASSWORD), "one address's typos locked everybody out"
    assert _sign_in(members[0].email, PASSWORD)


def test_five_wrong_passwords_lock_that_account_from_every_address_but_no_other():
    victim, other = _member(1), _member(2)
    for n in range(5):
        assert not _sign_in(victim.email, "guess", address=f"198.51.100.{n}")
    assert not _sign_in(victim.email, PASSWORD, address="203.0.113.9")
    assert _sign_in(other.email, PASSWORD, address="198.51.100.1")


def test_one_address_trying_many_accounts_is_stopped_at_the_per_address_limit():
    members = [_member(n) for n in range(61)]
    for m in members[:60]:
        _sign_in(m.email, "spray", address="203.0.113.66")
    assert not _sign_in(members[60].email, PASSWORD, address="203.0.113.66")
    assert _sign_in(members[60].email, PASSWORD, address="203.0.113.67")


@override_settings(LANGUAGE_CODE="nl", CLUB_NAME="Schaakclub De Pion", SITE_URL="https://pion.example.nl")
def test_an_account_e_mail_greets_from_the_club_at_its_address():
    member = _member(1)
    Client(HTTP_HOST="127.0.0.1").post(reverse("account_reset_password"), {"email": member.email})
    [message] = mail.outbox
    assert message.subject.startswith("[Schaakclub De Pion] ")
    assert "Schaakclub De Pion" in message.body and "pion.example.nl" in message.body
    assert "127.0.0.1" not in message.body.split("http://127.0.0.1")[0]  # only in the request's link


def _site_url(**env: str) -> str:
    code = "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
    clean = {k: v for k, v in os.environ.items()
             if k not in {"SITE_URL", "DJANGO_ALLOWED_HOSTS", "DJANGO_DEBUG", "DJANGO_SECURE_HTTPS", "PORT"}}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings",
                               "DJANGO_SECRET_KEY": "x" * 50, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_e_mails_links_default_to_the_address_the_site_is_served_on():
    assert _site_url(DJANGO_ALLOWED_HOSTS="schaakclub.example.nl,www.schaakclub.example.nl") == (
        "https://schaakclub.example.nl")
    assert _site_url(DJANGO_ALLOWED_HOSTS="club.example", SITE_URL="https://ranglijst.club.example/") == (
        "https://ranglijst.club.example")
    assert _site_url(DJANGO_DEBUG="1") == "http://localhost:8000"


@override_settings(LANGUAGE_CODE="nl")
def test_the_password_rules_speak_dutch_on_the_set_password_page(client):
    member = _member(1)
    client.force_login(member)
    response = client.post(reverse("account_change_password"),
                           {"oldpassword": PASSWORD, "password1": "zaal1", "password2": "zaal1"})
    page = response.content.decode()
    assert "Dit wachtwoord is te kort: het moet minstens 8 tekens lang zijn." in page
    assert "This password" not in page and "too short" not in page
