"""Issue 30: the club at /<slug>/ is memoised as a host name is (members/clubs/memo.py,
``club_for_slug``): once known, a cached visitor page under /<slug>/ costs no query and is
still served while the database is down (it was a 503: the slug cost a query on every
request); a renamed or deleted club's slug is forgotten at once."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client

from core import pagecache
from members.clubs import memo
from members.clubs.context import club_context
from members.models import Club
from tests import factories

pytestmark = pytest.mark.django_db


def _database_down(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")
    monkeypatch.setattr(connection, "ensure_connection", refuse)


@pytest.fixture
def alfa(settings):
    """Club Alfa at /alfa/ beside club B (tests/isolation.py's decoy), the page cache on."""
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.PAGE_CACHE_SECONDS = 600
    pagecache.cache.clear()
    club = Club.objects.create(name="Schaakclub Alfa", slug="alfa")
    with club_context(club):
        factories.season(players=4, club=club)
    return club


def test_a_known_slugs_cached_page_costs_no_query(alfa, django_assert_num_queries):
    client = Client()
    assert client.get("/alfa/standings/").status_code == 200
    with django_assert_num_queries(0):
        assert client.get("/alfa/standings/").status_code == 200


def test_a_cached_page_under_a_slug_is_served_while_the_database_is_down(alfa, monkeypatch):
    client = Client(raise_request_exception=False)
    first = client.get("/alfa/standings/")
    assert first.status_code == 200
    _database_down(monkeypatch)
    again = client.get("/alfa/standings/")
    assert again.status_code == 200
    assert again.content == first.content


def test_a_memo_too_old_to_trust_still_serves_while_the_database_is_down(alfa, monkeypatch, settings):
    """Another process may have changed the club: after CLUB_MEMO_SECONDS it is asked
    again, but not given up when the database cannot answer."""
    settings.CLUB_MEMO_SECONDS = 30
    client = Client(raise_request_exception=False)
    assert client.get("/alfa/standings/").status_code == 200
    later = memo.time.monotonic() + 31
    monkeypatch.setattr(memo.time, "monotonic", lambda: later)
    _database_down(monkeypatch)
    assert client.get("/alfa/standings/").status_code == 200


def test_an_unknown_slug_while_the_database_is_down_is_a_503_not_a_page(alfa, monkeypatch):
    client = Client(raise_request_exception=False)
    _database_down(monkeypatch)
    assert client.get("/gamma/standings/").status_code == 503


def test_a_renamed_clubs_old_slug_is_forgotten(alfa):
    client = Client()
    assert client.get("/alfa/standings/").status_code == 200
    alfa.slug = "alfa-utrecht"
    alfa.save(update_fields=["slug"])
    assert client.get("/alfa/standings/").status_code == 404
    assert client.get("/alfa-utrecht/standings/").status_code == 200


def test_a_deleted_clubs_slug_is_forgotten(settings):
    settings.RANGLIJST_SINGLE_CLUB = False
    club = Club.objects.create(name="Schaakclub Gamma", slug="gamma")
    client = Client()
    assert client.get("/gamma/").status_code in (200, 302)
    club.delete()
    assert client.get("/gamma/").status_code == 404
