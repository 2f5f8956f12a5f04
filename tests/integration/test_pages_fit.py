"""Pages that fit (issue 23), the parts a page's HTML shows: the tie-break columns in one
notation, a flexible player's status named one way, a season still to come not listed
among the earlier ones, the members list numbered once, the events list's dates on a
phone."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from competition.events import services as swiss
from competition.events.selectors import tiebreak_text
from competition.season import services
from members.clubs.memo import home_club
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture(autouse=True)
def language_restored():
    with translation.override("en"):
        yield


def test_a_tie_break_is_written_with_a_decimal_comma_never_with_a_half():
    with translation.override("nl"):
        assert [tiebreak_text(Fraction(v)) for v in ("13/2", "49/4", "7", "1/2")] == \
            ["6,5", "12,25", "7", "0,5"]


def test_the_event_standings_tie_breaks_use_one_notation(client):
    leader, arbiter = f.leader(), f.arbiter()
    event = swiss.event_create(actor=leader, season=f.season(players=0), kind="blitz",
                               name="Blitz", date=dt.date(2027, 6, 11))
    for i in range(5):
        swiss.entrant_add(actor=leader, event=event, member=f.member(rating=2000 - 10 * i))
    for _ in range(2):
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
        for game in rnd.games.filter(black__isnull=False):
            swiss.game_result_set(actor=arbiter, game=game, white_points=Fraction(1, 2),
                                  black_points=Fraction(1, 2), expected_version=game.version)
        swiss.round_finish(actor=arbiter, round=rnd)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    page = client.get(reverse("events:event", args=[event.pk])).content.decode()
    cells = re.findall(r'<td class="num[^"]*" data-tiebreak[^>]*>([^<]*)</td>', page)
    assert cells, "the standings name their tie-break cells"
    assert not any("½" in c for c in cells), cells


def test_a_flexible_players_default_status_is_named_as_the_form_names_it(client):
    s = f.season(players=3, flexible=1)
    flexible = s.players.filter(kind="flexible").select_related("member").first()
    client.force_login(flexible.member)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    for url in (reverse("competition:signup"), reverse("competition:home")):
        page = client.get(url).content.decode()
        assert "Niet aangemeld" in page or "niet aangemeld" in page, url
        assert "afwezig zonder bericht" not in page.lower(), url


def test_a_season_still_to_come_is_not_an_earlier_season(client, monkeypatch):
    from django.utils import timezone

    now = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    current = f.season(players=2)
    services.season_set_up(actor=f.admin(), name="2027-2028", opening=dt.date(2027, 9, 3),
                           last_day=dt.date(2028, 7, 14), system="pion", club=home_club())
    old = services.season_set_up(actor=f.admin(), name="2025-2026", opening=dt.date(2025, 9, 5),
                                 last_day=dt.date(2026, 7, 10), system="pion", club=home_club())
    page = client.get(reverse("competition:standings_half", args=[current.slug, "winter"])).content.decode()
    earlier = page.split("<summary>", 1)[1] if "<summary>" in page else ""
    assert "2027-2028" not in earlier
    assert old.slug in earlier


def test_the_members_list_numbers_each_card_once(client):
    s = f.season(players=3)
    client.force_login(f.leader())
    page = client.get(reverse("members:index", args=[s.slug])).content.decode()
    assert '<ol class="cards members">' in page
    css = open("static/css/site.css", encoding="utf-8").read()
    assert re.search(r"ol\.cards(, ul\.cards)? \{ list-style: none;", css)


def test_the_events_list_keeps_its_dates_on_a_phone(client):
    leader = f.leader()
    s = f.season(players=0)
    swiss.event_create(actor=leader, season=s, kind="blitz", name="Blitz", date=dt.date(2027, 6, 11))
    page = client.get(reverse("events:events") + f"?season={s.slug}").content.decode()
    assert re.search(r'<td class="nowrap" data-event-date>', page)
    assert '<th class="hide-sm">' in page  # the kind gives way, not the date
