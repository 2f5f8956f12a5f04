"""Issue 19 §5: requests that gave a 500 or a second copy of a page.

- a cookie holding an escaped NUL (``sessionid="\\000…"``): the session was looked up with
  it on every page (PostgreSQL refuses a NUL even in a WHERE): now the cookie is dropped;
- ``/players/05/`` rendered (and cached) a page of its own beside ``/players/5/``: every
  number in a URL is written one way (``<id:…>``), every date YYYY-MM-DD (``<day:…>``);
- the database down: a Dutch 503 that says to try again, not a bare 500."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.urls import get_resolver, reverse
from django.urls.converters import IntConverter, StringConverter
from django.urls.resolvers import URLPattern, URLResolver

from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def season():
    return f.season(players=4)


def test_a_session_cookie_with_an_escaped_nul_is_dropped_not_a_server_error(season):
    client = Client(raise_request_exception=False)
    for path in ("/", "/standings/", "/accounts/login/"):
        response = client.get(path, HTTP_COOKIE='sessionid="\\000\\000\\000\\000abcdefgh"')
        assert response.status_code == 200, path
        assert "\x00" not in "".join(response.wsgi_request.COOKIES.values())
        assert response.cookies["sessionid"]["max-age"] == 0  # the browser forgets it


def test_another_cookie_with_a_nul_is_dropped_and_the_session_still_works(season):
    member = season.players.first().member
    client = Client(raise_request_exception=False)
    client.force_login(member)
    session = client.cookies["sessionid"].value
    response = client.get("/", HTTP_COOKIE=f'sessionid={session}; django_language="n\\000l"')
    assert response.status_code == 200
    assert response.wsgi_request.user == member
    assert "django_language" not in response.wsgi_request.COOKIES


@pytest.mark.parametrize("path", ["/players/0{pk}/", "/players/00{pk}/", "/players/+{pk}/",
                                  "/players/1234567890123456789012/"])
def test_a_number_in_a_url_has_one_spelling(client, season, path):
    player = season.players.first()
    assert client.get(f"/players/{player.pk}/").status_code == 200
    assert client.get(path.format(pk=player.pk)).status_code == 404


def test_an_evening_date_has_one_spelling(client, season):
    evening = f.playing_evenings(season)[0]
    assert client.get(f"/evenings/{evening.date.isoformat()}/").status_code == 200
    assert client.get(f"/evenings/{evening.date:%Y%m%d}/").status_code == 404


def _patterns(resolver: URLResolver, prefix: str = ""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


def test_no_url_of_ours_takes_a_number_or_date_that_can_be_spelled_twice():
    """Django's <int:> takes leading zeros; ours use <id:> (config/converters.py). A
    date in a <str:> parsed by date.fromisoformat also takes 20260904."""
    loose = []
    for route, entry in _patterns(get_resolver()):
        module = getattr(entry.callback, "__module__", "")
        if not module.startswith(("competition", "pairing", "members", "config")):
            continue
        for name, converter in getattr(entry.pattern, "converters", {}).items():
            if isinstance(converter, IntConverter) or (
                    isinstance(converter, StringConverter) and name in {"date", "day"}):
                loose.append(f"{route} ({name})")
    assert loose == []


def _database_down(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")
    monkeypatch.setattr(connection, "ensure_connection", refuse)


@override_settings(LANGUAGE_CODE="nl")
def test_while_the_database_is_down_a_signed_in_page_says_try_again_in_dutch(season, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(season.players.first().member)
    _database_down(monkeypatch)
    for response in (client.get("/"), client.post(reverse("competition:signup"), {"status": "present"})):
        assert response.status_code == 503
        assert response["Retry-After"] == "60"
        page = response.content.decode()
        assert "Tijdelijk niet beschikbaar" in page and "probeer het over een minuut opnieuw" in page
        assert "Server Error" not in page


def test_any_other_error_is_still_a_plain_500(monkeypatch, season):
    client = Client(raise_request_exception=False)
    monkeypatch.setattr("competition.pages.views.render", lambda *a, **k: 1 / 0)
    response = client.get("/standings/")
    assert response.status_code == 500
