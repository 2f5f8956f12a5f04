"""Issue 32: the standings page shows the standings after any played evening of the half
(``?after=YYYY-MM-DD``, as the API reads it), with a choice of evening; the latest by
default; the page cache keys on the choice."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from competition.models import StandingsSnapshot
from competition.season.seasonio import season_import
from core import pagecache
from tests.generate import random_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def season():
    return season_import(actor=None, system=True, name="after-2026",
                         data=random_season(5, players=10, evenings=6, system="pion"))


def _snapshots(season):
    half = season.halves.order_by("start_date").first()
    return half, list(StandingsSnapshot.objects.filter(half=half).select_related("evening")
                      .order_by("evening__date"))


def _first_name(html: str) -> str:
    body = html[html.index("<tbody"):]
    return re.search(r'data-player="(\d+)"', body).group(1)


def test_the_page_offers_every_played_evening_and_shows_the_chosen_one(client, season):
    half, snapshots = _snapshots(season)
    assert len(snapshots) >= 2
    url = reverse("competition:standings_half", args=[season.slug, half.kind])
    html = client.get(url).content.decode()
    options = re.findall(r'<option value="([\d-]+)"( selected)?>([^<]+)</option>', html)
    # Every played evening, the latest first and chosen, written as a date ("4 October").
    assert [value for value, _sel, _text in options] == [
        s.evening.date.isoformat() for s in reversed(snapshots)]
    assert options[0][1] == " selected"
    first_day = snapshots[0].evening.date
    assert options[-1][2].strip() == f"{first_day.day} {first_day:%B}"
    # After the first evening: its own order, its own date, the way back to the latest.
    early = client.get(url, {"after": first_day.isoformat(), "all": "1"})
    assert early.status_code == 200
    text = early.content.decode()
    assert f'value="{first_day.isoformat()}" selected' in text
    assert f"After the evening of {first_day.day} {first_day:%B %Y}." in text
    assert "To the latest standings" in text
    leader = snapshots[0].rows.order_by("rank").first()
    assert _first_name(text) == str(leader.player_id)
    assert len(re.findall(r'<tr [^>]*data-player=', text)) == snapshots[0].rows.count()


def test_a_date_without_a_played_evening_is_not_found(client, season):
    half, snapshots = _snapshots(season)
    url = reverse("competition:standings_half", args=[season.slug, half.kind])
    assert client.get(url, {"after": "2001-01-05"}).status_code == 404
    assert client.get(url, {"after": "27-11-2026"}).status_code == 404


def test_the_csv_export_follows_the_chosen_evening(client, season):
    half, snapshots = _snapshots(season)
    url = reverse("competition:standings_half", args=[season.slug, half.kind])
    rows = client.get(url, {"after": snapshots[0].evening.date.isoformat(), "export": "csv"})
    assert len(rows.content.decode().strip().splitlines()) == 1 + snapshots[0].rows.count()


def test_queries_do_not_grow_with_the_choice(client, season, django_assert_max_num_queries):
    half, snapshots = _snapshots(season)
    url = reverse("competition:standings_half", args=[season.slug, half.kind])
    with django_assert_max_num_queries(14):
        client.get(url, {"after": snapshots[1].evening.date.isoformat(), "all": "1"})


def test_the_page_cache_keys_on_the_evening(client, season, settings):
    settings.PAGE_CACHE_SECONDS = 600
    pagecache.cache.clear()
    half, snapshots = _snapshots(season)
    url = reverse("competition:standings_half", args=[season.slug, half.kind])
    latest = client.get(url).content.decode()
    first_day = snapshots[0].evening.date
    early = client.get(url, {"after": first_day.isoformat()}).content.decode()
    assert f'value="{first_day.isoformat()}" selected' in early
    assert early != latest
    assert client.get(url).content.decode() == latest
