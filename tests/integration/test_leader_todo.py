"""The leader's to-do (his home page): boards without a result, postponed games with their
age, paired players who signed off, tempo and club duty requests, players at or near the limit of
absences with notice, and the next deadline with the number signed up; read in a fixed
number of queries however big the club is."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django.asserts import assertContains

from competition.models import Attendance, Evening, Player, Result, Season
from competition.season import selectors, services
from pairing import services as pairing_services
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def build(players: int, played: int) -> tuple[Season, dt.datetime, dict]:
    """``played`` evenings paired and played (board 1 without a result, board 2 postponed
    on each), the next one published with a paired player signed off and a tempo request,
    and one player with four absences with notice (pion's limit is five)."""
    leader = f.leader()
    arbiter = f.arbiter()
    season = f.season(players=players, flexible=2)
    evenings = f.playing_evenings(season)
    ps = list(season.players.select_related("member").order_by("start"))
    absent = ps[-3]  # a fixed player
    services.registration_set(actor=leader, player=absent, evenings=evenings[played + 2:played + 6],
                              status=Attendance.ABSENT_WITH_NOTICE, now=evenings[0].deadline
                              - dt.timedelta(days=1))
    for evening in evenings[:played]:
        evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True, now=evening.deadline)
        for game in evening.games.order_by("board")[1:]:
            result = Result.POSTPONED if game.board == 2 else Result.WHITE_WINS
            services.result_set(actor=arbiter, game=game, result=result)
    tonight = evenings[played]
    evening_pair_and_publish(evening_id=tonight.pk, actor=None, system=True, now=tonight.deadline)
    now = tonight.starts_at - dt.timedelta(minutes=20)  # Friday 19:55
    first, second = list(tonight.games.select_related("white__member").order_by("board"))[:2]
    services.registration_set(actor=leader, player=first.white, evenings=[tonight],
                              status=Attendance.ABSENT_WITH_NOTICE, now=now)
    pairing_services.tempo_request(actor=second.white.member, game=second, opponent_agrees=True,
                                   now=now - dt.timedelta(hours=2))
    # Club duty asked for the next evening by flexible players (one in a small club, two in a big one).
    askers = list(season.players.filter(kind="flexible").select_related("member").order_by("start"))
    duty = [services.club_duty_request(actor=p.member, player=p, evening=evenings[played + 1], now=now)
            for p in askers[:min(played, 2)]]
    return season, now, {"leader": leader, "absent": absent, "signed_off": first.white,
                         "tempo": second, "tonight": tonight, "next": evenings[played + 1],
                         "club_duty": duty}


def test_the_todo_lists_what_needs_the_leader():
    season, now, w = build(players=8, played=2)
    todo = selectors.leader_todo(season, now)
    # Board 1 of each evening played has no result; tonight's boards have not begun.
    assert [(row["evening__date"], row["boards"]) for row in todo["unplayed"]] == [
        (e.date, 1) for e in f.playing_evenings(season)[:2]
    ]
    assert [(g.board, g.age_days) for g in todo["postponed"]] == [
        (2, (now.date() - e.date).days) for e in f.playing_evenings(season)[:2]
    ]
    assert [g.age_days for g in todo["postponed"]] == [14, 7]
    assert [r.player for r in todo["signed_off"]] == [w["signed_off"]]
    assert [g.pk for g in todo["tempo_requests"]] == [w["tempo"].pk]
    assert [d.pk for d in todo["club_duty"]] == [d.pk for d in w["club_duty"]] and len(w["club_duty"]) == 2
    assert todo["absences"] == [{"player_id": w["absent"].pk, "name": w["absent"].member.name,
                                 "count": 4, "limit": 5, "reached": False}]
    assert todo["next_evening"] == w["next"]
    # The six fixed players; the two flexible ones have not signed up.
    assert todo["signed_up"] == 6
    flexible = season.players.filter(kind="flexible").first()
    services.registration_set(actor=flexible.member, player=flexible, evenings=[w["next"]],
                              status=Attendance.PRESENT, now=now)
    assert selectors.leader_todo(season, now)["signed_up"] == 7
    assert not todo["empty"]


def test_a_player_at_the_limit_is_marked_reached_and_one_far_from_it_is_not_listed():
    season, now, w = build(players=8, played=1)
    later = f.playing_evenings(season)[8]
    services.registration_set(actor=w["leader"], player=w["absent"], evenings=[later],
                              status=Attendance.ABSENT_WITH_NOTICE, now=now)
    todo = selectors.leader_todo(season, now)
    assert [(a["count"], a["reached"]) for a in todo["absences"]] == [(5, True)]
    # The signed-off player has one absence with notice: far from the limit of five.
    assert w["signed_off"].pk not in {a["player_id"] for a in todo["absences"]}


def test_a_player_past_the_limit_is_listed_with_how_many_score(client):
    # Before: "Nienke Smits 7 van 5 · maximum bereikt".
    season, now, w = build(players=8, played=1)
    later = f.playing_evenings(season)[8:11]
    services.registration_set(actor=w["leader"], player=w["absent"], evenings=later,
                              status=Attendance.ABSENT_WITH_NOTICE, now=now)
    client.force_login(w["leader"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(timezone, "now", lambda: now)
        mp.setattr(selectors, "current_season", lambda today=None: season)
        page = client.get("/leader/").content.decode()
    assert "7, of which 5 score" in page and "7 of 5" not in page
    assert "limit reached" in page


def test_a_signed_off_player_removed_from_the_pairing_leaves_the_todo():
    season, now, w = build(players=8, played=1)
    pairing_services.pairing_remove_player(actor=w["leader"], evening_id=w["tonight"].pk,
                                           player_id=w["signed_off"].pk)
    assert selectors.leader_todo(season, now)["signed_off"] == []


def test_a_season_with_nothing_to_do_says_so(client):
    season = f.season(players=6)
    now = f.playing_evenings(season)[0].deadline - dt.timedelta(days=2)
    todo = selectors.leader_todo(season, now)
    assert todo["empty"] and todo["signed_up"] == 6


def test_the_leaders_home_page_links_each_item_to_where_it_is_done(client):
    season, now, w = build(players=8, played=2)
    client.force_login(w["leader"])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(timezone, "now", lambda: now)
        mp.setattr(selectors, "current_season", lambda today=None: season)
        response = client.get("/leader/")
    first = f.playing_evenings(season)[0]
    assertContains(response, f'href="/evenings/{first.date.isoformat()}/"')
    assertContains(response, f'href="/evenings/{first.date.isoformat()}/#board-2"')
    assertContains(response, f'href="/pairing/evenings/{w["tonight"].pk}/#pairing"')
    assertContains(response, f'href="/pairing/evenings/{w["tonight"].pk}/#tempo"')
    assertContains(response, f'href="/players/{w["absent"].pk}/"')
    for duty in w["club_duty"]:
        assertContains(response, f'href="/pairing/evenings/{w["next"].pk}/#club-duty-{duty.pk}"')
    assertContains(response, f'href="/pairing/evenings/{w["next"].pk}/"')
    assertContains(response, w["signed_off"].member.name)


def _read(season: Season, now: dt.datetime) -> dict:
    """The to-do and everything its template reads."""
    todo = selectors.leader_todo(season, now)
    todo["names"] = [(g.white.member.name, g.black.member.name, g.evening.date)
                     for g in todo["postponed"] + todo["tempo_requests"]]
    todo["names"] += [(r.player.member.name, r.evening.date) for r in todo["signed_off"]]
    todo["names"] += [(d.player.member.name, d.evening.date, d.requested_at) for d in todo["club_duty"]]
    return todo


def _queries(season: Season, now: dt.datetime) -> int:
    season = Season.objects.select_related("competition").get(pk=season.pk)
    with CaptureQueriesContext(connection) as ctx:
        _read(season, now)
    return len(ctx.captured_queries)


def test_the_todo_costs_the_same_queries_for_a_small_and_a_big_club(django_assert_max_num_queries):
    small_season, small_now, _w = build(players=8, played=1)
    small = _queries(small_season, small_now)
    big_season, big_now, _w = build(players=40, played=4)
    assert Player.objects.filter(season=big_season).count() == 40
    assert Evening.objects.filter(season=big_season, status="published").count() == 5
    big_season = Season.objects.select_related("competition").get(pk=big_season.pk)
    with django_assert_max_num_queries(small):
        todo = _read(big_season, big_now)
    assert len(todo["postponed"]) == 4 and len(todo["club_duty"]) == 2


def test_a_decided_club_duty_request_leaves_the_todo_and_a_pending_one_alone_is_something_to_do():
    season = f.season(players=6, flexible=2)
    evening = f.playing_evenings(season)[1]
    now = f.playing_evenings(season)[0].deadline - dt.timedelta(days=2)
    asker = season.players.filter(kind="flexible").first()
    duty = services.club_duty_request(actor=asker.member, player=asker, evening=evening, now=now)
    todo = selectors.leader_todo(season, now)
    assert [d.pk for d in todo["club_duty"]] == [duty.pk] and not todo["empty"]
    services.club_duty_decide(actor=f.leader(), request=duty, approve=False)
    todo = selectors.leader_todo(season, now)
    assert todo["club_duty"] == [] and todo["empty"]
