"""Every page costs the same number of SQL queries for a club of 10 and of 100 players.

The small club is measured, the big one is held to that number: a page whose count grows
with the club has an N+1 (a query per row) somewhere in its view, selector or template.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition.models import Attendance, Evening, Player, PlayerKind, Season
from competition.season import services
from competition.season.standings import recalculate_season
from members.clubs.context import current_club
from members.models import Membership, User
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today", "in_home_club")]

TODAY = dt.date(2026, 11, 30)  # a Monday, five winter evenings played
PLAYED = 5
RESULTS = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1F", "postponed"]


def build_club(size: int) -> tuple[Season, User]:
    """A club of ``size`` players (every fifth flexible) with PLAYED evenings played: some
    sign-offs, flexible players signing up, byes, results of every kind."""
    actor = f.admin()
    arbiter = f.arbiter()
    season = f.season(players=0, actor=actor)
    for i in range(size):
        # Ratings from 2300 down, kept plausible for a hundred players.
        member = f.member(name=f"Player {i + 1:03d}", rating=2300 - 12 * i)
        kind = PlayerKind.FLEXIBLE if i % 5 == 4 else PlayerKind.FIXED
        services.player_add(actor=actor, season=season, member=member, kind=kind)
    services.players_order_by_rating(actor=actor, season=season)
    players = list(season.players.select_related("member").order_by("start"))
    with services.recalculation_deferred():
        for n, evening in enumerate(f.playing_evenings(season)[:PLAYED]):
            before = evening.deadline - dt.timedelta(days=1)
            for i, p in enumerate(players):
                if p.is_fixed and (i + n) % 9 == 0:
                    status = Attendance.ABSENT_WITH_NOTICE if n % 2 else Attendance.CLUB_DUTY
                elif not p.is_fixed and (i + n) % 2 == 0:
                    status = Attendance.PRESENT
                else:
                    continue
                services.registration_set(
                    actor=actor, player=p, evenings=[evening], status=status, now=before
                )
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
            for k, game in enumerate(evening.games.order_by("board")):
                services.result_set(actor=arbiter, game=game, result=RESULTS[k % len(RESULTS)])
    # The next evening is paired and published without results (the home page's next game).
    upcoming = f.playing_evenings(season)[PLAYED]
    evening_pair_and_publish(actor=None, system=True, evening_id=upcoming.pk, now=upcoming.deadline)
    recalculate_season(season.pk, TODAY)
    return season, players[0].member


def pages(season: Season) -> dict[str, str]:
    evening = Evening.objects.filter(season=season, status="published").order_by("date")[2]
    player = season.players.order_by("start")[3]
    return {
        "/": "/",
        "/standings/": "/standings/",
        "/standings/?all=1": "/standings/?all=1",
        "/standings/?export=csv": "/standings/?export=csv",
        "/standings/<season>/<half>/": f"/standings/{season.slug}/winter/",
        "/evenings/": "/evenings/",
        "/evenings/<date>/": f"/evenings/{evening.date.isoformat()}/",
        "/players/<id>/": f"/players/{player.pk}/",
        "/calendar/": "/calendar/",
        "/calendar.ics": "/calendar.ics",
        "/rules/": "/rules/",
        # The club's own website: the read API, the embeds and the feed.
        "/api/v1/seasons": "/api/v1/seasons",
        "/api/v1/.../standings": f"/api/v1/seasons/{season.slug}/halves/winter/standings",
        "/api/v1/.../standings?after=": f"/api/v1/seasons/{season.slug}/halves/winter/standings"
                                        f"?after={evening.date.isoformat()}",
        "/api/v1/.../calendar": f"/api/v1/seasons/{season.slug}/calendar",
        "/api/v1/.../evenings/<date>": f"/api/v1/seasons/{season.slug}/evenings/{evening.date.isoformat()}",
        "/api/v1/players/<id>": f"/api/v1/players/{player.pk}",
        "/embed/standings/": "/embed/standings/",
        "/embed/pairing/": "/embed/pairing/",
        "/embed/results/": "/embed/results/",
        "/feed/": "/feed/",
    }


SIGNED_IN = {"/ (signed in)": "/", "/signup/ (signed in)": "/signup/"}


def wipe() -> None:
    """The club's data gone (the decoy club's stays): its evenings, players and seasons,
    and the accounts that belong to no other club."""
    # Games and halves protect players and seasons: delete from the evenings up.
    for model in (Evening, Player, Season):
        model.objects.all().delete()
    club = current_club()
    User.objects.filter(memberships__club=club).exclude(
        pk__in=Membership.objects.exclude(club=club).values("user_id")).delete()


def count_queries(client, path: str) -> int:
    client.get(path)  # warm caches that fill once per process (content types, ...)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(ctx.captured_queries)


def test_page_query_counts_do_not_grow_with_the_club(
    client, django_assert_max_num_queries, subtests
):
    season, member = build_club(10)
    small = {name: count_queries(client, path) for name, path in pages(season).items()}
    client.force_login(member)
    small |= {name: count_queries(client, path) for name, path in SIGNED_IN.items()}
    client.logout()
    wipe()

    season, member = build_club(100)
    assert season.players.count() == 100
    big_pages = pages(season)
    for name, path in big_pages.items():
        with subtests.test(msg=name):
            client.get(path)
            with django_assert_max_num_queries(small[name]):
                response = client.get(path)
            assert response.status_code == 200
    client.force_login(member)
    for name, path in SIGNED_IN.items():
        with subtests.test(msg=name):
            client.get(path)
            with django_assert_max_num_queries(small[name]):
                response = client.get(path)
            assert response.status_code == 200


def test_standings_query_count_does_not_grow_with_archived_seasons(
    client, django_assert_max_num_queries
):
    build_club(10)
    current = count_queries(client, "/standings/")
    for year in (2023, 2024, 2025):
        f.season(players=0, opening=dt.date(year, 9, 5), last_day=dt.date(year + 1, 7, 1))
    client.get("/standings/")
    with django_assert_max_num_queries(current):
        client.get("/standings/")
