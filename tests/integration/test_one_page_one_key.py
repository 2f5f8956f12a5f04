"""Issue 30, "one page, one cache key": the page cache keys on the club and the canonical
path (core/pagecache.py ``page_key``), never on the request's host string, and the API's
path and query values have one spelling (plain digits for ids, YYYY-MM-DD for dates). The
probe: 300 requests of host and id spellings made 269 cache keys of 6 pages."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from core import pagecache

pytestmark = pytest.mark.django_db

HOST = "ranglijst.test"


class KeyCounter:
    """The pages cache, counting the page keys stored in it."""

    def __init__(self, real) -> None:
        self.real = real
        self.pages: set[str] = set()

    def set(self, key, *args, **kwargs):
        if key.startswith("page:") and ":rendering:" not in key:
            self.pages.add(key)
        return self.real.set(key, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.fixture
def played(settings, monkeypatch, played_evening):
    """A season whose first evening is played, its standings stored; the page cache on."""
    settings.ALLOWED_HOSTS = [HOST, "testserver"]
    season, evening = played_evening
    settings.PAGE_CACHE_SECONDS = 600
    pagecache.cache.clear()
    counter = KeyCounter(pagecache.cache)
    monkeypatch.setattr(pagecache, "cache", counter)
    return season, evening, counter


def _pages(season, evening) -> dict[str, str]:
    player = season.players.order_by("start").first()
    day = evening.date.isoformat()
    standings = f"/api/v1/seasons/{season.slug}/halves/winter/standings"
    return {
        "standings page": "/standings/",
        "player": f"/api/v1/players/{player.pk}",
        "evening": f"/api/v1/seasons/{season.slug}/evenings/{day}",
        "standings after": f"{standings}?after={day}",
    }


def test_port_and_letter_case_variants_of_the_host_are_one_cache_key(client, played):
    season, evening, counter = played
    pages = _pages(season, evening)
    for path in pages.values():
        assert client.get(path, HTTP_HOST=HOST).status_code == 200, path
    assert len(counter.pages) == len(pages)
    variants = [f"{HOST}:{port}" for port in range(1, 51)]
    variants += [HOST.upper(), "Ranglijst.Test", "rAnGlIjSt.TeSt:8080", f"{HOST}."]
    for host in variants:
        for path in pages.values():
            assert client.get(path, HTTP_HOST=host).status_code == 200, (host, path)
    assert len(counter.pages) == len(pages)


ID_SPELLINGS = ("+{n}", "%20{n}", "{n}.0", "0{n}", "{n}_0", "00{n}", "{n} ")


def test_an_id_spelled_any_other_way_is_the_apis_json_404_and_no_cache_key(client, played):
    season, evening, counter = played
    player = season.players.order_by("start").first()
    assert client.get(f"/api/v1/players/{player.pk}").status_code == 200
    assert len(counter.pages) == 1
    for spelling in ID_SPELLINGS:
        path = f"/api/v1/players/{spelling.format(n=player.pk)}"
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"].startswith("application/json"), path
        assert json.loads(response.content) == {"detail": "Not Found"}
    assert len(counter.pages) == 1


def _day_spellings(evening) -> list[str]:
    day = evening.date
    midnight = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
    return [f"{day.isoformat()}T00:00", f"{day.isoformat()}T00:00:00Z", str(int(midnight.timestamp())),
            f"{day:%Y%m%d}", f"+{day.isoformat()}", f" {day.isoformat()}", f"{day.isoformat()} "]


def test_a_date_spelled_any_other_way_is_a_404_or_422_and_no_cache_key(client, played):
    season, evening, counter = played
    pages = _pages(season, evening)
    for name in ("evening", "standings after"):
        assert client.get(pages[name]).status_code == 200, name
    assert len(counter.pages) == 2
    standings = f"/api/v1/seasons/{season.slug}/halves/winter/standings"
    for spelling in _day_spellings(evening):
        for path in (f"/api/v1/seasons/{season.slug}/evenings/{spelling}",
                     f"{standings}?after={spelling.replace('+', '%2B').replace(' ', '%20')}"):
            response = client.get(path)
            assert response.status_code in (404, 422), path
            assert response["Content-Type"].startswith("application/json"), path
    assert len(counter.pages) == 2


def test_an_unknown_path_under_the_api_is_json_and_other_methods_are_405(client, played):
    for path in ("/api/v1/nothing", "/api/v1/players/", "/api/v1/seasons/x/y/z"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"].startswith("application/json"), path
        assert json.loads(response.content) == {"detail": "Not Found"}
    for path in ("/api/v1/seasons", "/api/v1/nothing"):
        for method in ("TRACE", "PUT", "CONNECT", "PROPFIND"):
            response = client.generic(method, path)
            assert response.status_code == 405, (method, path)
            assert response["Allow"] == "GET, HEAD, OPTIONS"
