"""Issue 19 §5: rate-limit state never in an evictable cache shared with pages.

In a small shared cache, `/players/05/`, `/players/005/`, … each stored a page and pushed
out the sign-in limit's keys: a locked-out address got five more guesses. The pages now
have a cache of their own ("pages", which may evict); allauth counts in "default",
which does not hold pages (config/settings.py, RATE_LIMIT_REDIS_URL)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-schaak-123"

# A tiny cache as in the probe: five entries, the oldest go first.
TINY = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 5, "CULL_FREQUENCY": 2}}


def _locked_out(email: str) -> bool:
    """Even the right password does not sign in."""
    response = Client().post(reverse("account_login"), {"login": email, "password": PASSWORD})
    return "_auth_user_id" not in response.client.session


@override_settings(CACHES={"default": {**TINY, "LOCATION": "limits", "OPTIONS": {"MAX_ENTRIES": 30}},
                           "pages": {**TINY, "LOCATION": "pages"}},
                   PAGE_CACHE_SECONDS=600)
def test_filling_the_page_cache_does_not_reset_a_sign_in_lock_out():
    caches._settings = None
    try:
        season = f.season(players=30)
        member = season.players.first().member
        EmailAddress.objects.create(user=member, email=member.email, verified=True, primary=True)
        for _ in range(5):
            Client().post(reverse("account_login"), {"login": member.email, "password": "wrong"})
        assert _locked_out(member.email)
        visitor = Client()
        for player in season.players.all():
            assert visitor.get(reverse("competition:player", args=[player.pk])).status_code == 200
        assert _locked_out(member.email), "the page cache pushed the lock-out out"
    finally:
        caches._settings = None


def _caches_with(**env: str) -> list[str]:
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.CACHES['default']['LOCATION'], settings.CACHES['pages']['LOCATION'])")
    clean = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL", "RATE_LIMIT_REDIS_URL",
                                                              "PYTEST_XDIST_WORKER", "RANGLIJST_TEST_WORKER"}}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "config.test_settings", **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_with_redis_the_rate_limits_default_to_the_brokers_redis_and_the_pages_to_the_cache():
    assert _caches_with(REDIS_URL="redis://cache:6379/0", CELERY_BROKER_URL="redis://broker:6379/0") == [
        "redis://broker:6379/0", "redis://cache:6379/0"]
    assert _caches_with(REDIS_URL="redis://cache:6379/0", CELERY_BROKER_URL="redis://broker:6379/0",
                        RATE_LIMIT_REDIS_URL="redis://broker:6379/1") == ["redis://broker:6379/1", "redis://cache:6379/0"]


def test_without_redis_the_rate_limit_files_are_never_culled():
    limits, pages = _caches_with()
    assert limits != pages
