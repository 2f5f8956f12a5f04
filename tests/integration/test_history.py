"""The club's history: a player's seasons and head-to-head on his page, and the archive of
earlier seasons (final standings of each half, prize winners), in a fixed number of
queries however long the history (competition/history/)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.history import selectors as history
from competition.models import Game, Half, Player, Prize, Season, Standing
from competition.prizes import services as prize_services
from competition.season import services
from competition.season.seasonio import season_import
from competition.season.standings import recalculate_season
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.generate import random_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today", "in_home_club")]

TODAY = dt.date(2026, 11, 30)  # the current season's summer half has begun
GAMES = {"1-0", "0-1", "1/2-1/2"}
RESULTS = ["1-0", "1/2-1/2", "0-1", "1-0F", "1-0", "0-1"]


def club_history(earlier: int, players: int, seed: int = 7, played: int = 3) -> list[Season]:
    """``earlier`` finished seasons of the same club (the same members, imported from
    generated season files, every half's prizes confirmed) and the current season started
    from the last of them with the next-season service, ``played`` evenings played;
    oldest first."""
    data = random_season(seed, players=players, evenings=20, system="pion")
    admin = f.admin()
    seasons = []
    for years_ago in range(earlier, 0, -1):
        evenings = []
        for evening in data.evenings:
            # Results for every board, so that the halves' prizes can be confirmed.
            games = tuple(dataclasses.replace(g, result="1/2-1/2") if g.result == "postponed" else g
                          for g in evening.games)
            evenings.append(dataclasses.replace(
                evening, date=evening.date - dt.timedelta(weeks=52 * years_ago), games=games))
        season = season_import(actor=None, system=True, name=f"season-{years_ago}",
                               data=dataclasses.replace(data, evenings=tuple(evenings)))
        for half in season.halves.all():
            prize_services.prizes_confirm(actor=admin, half=half)
        seasons.append(season)
    current = prize_services.season_start_next(
        actor=admin, season=seasons[-1], name="2026-2027", opening=dt.date(2026, 9, 4),
        last_day=dt.date(2027, 7, 15),
    )
    play(current, played)
    return [*seasons, current]


def play(season: Season, count: int) -> None:
    """Everybody (flexible after the new season's start) signs up; the evenings are
    paired by the deadline job and every board gets a result, forfeits among them."""
    admin, arbiter = f.admin(), f.arbiter()
    players = list(season.players.all())
    with services.recalculation_deferred():
        for evening in f.playing_evenings(season)[:count]:
            services.registration_set(actor=admin, player=players[0], evenings=[evening],
                                      status="present", now=evening.deadline - dt.timedelta(days=1))
            for p in players[1:]:
                services.registration_set(actor=admin, player=p, evenings=[evening], status="present",
                                          now=evening.deadline - dt.timedelta(days=1))
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                     now=evening.deadline)
            for k, game in enumerate(evening.games.order_by("board")):
                services.result_set(actor=arbiter, game=game, result=RESULTS[k % len(RESULTS)])
    recalculate_season(season.pk, TODAY)


def final_row(half: Half, player: Player) -> Standing:
    return (Standing.objects.filter(snapshot__half=half, player=player)
            .order_by("-snapshot__evening__date").first())


@pytest.fixture
def club():
    return club_history(earlier=1, players=10)


def player_of(season: Season, start: int = 1) -> Player:
    return season.players.select_related("member").get(start=start)


# --- A player's seasons -----------------------------------------------------------------


def test_the_player_page_shows_each_half_of_each_season_of_his_member(client, club):
    old, current = club
    me = player_of(current)
    response = client.get(reverse("competition:player", args=[me.pk]))
    lines = response.context["member_seasons"]
    assert [(line.season, line.half.kind) for line in lines] == [
        (current, "winter"), (old, "winter"), (old, "summer")
    ]
    earlier = Player.objects.get(season=old, member=me.member)
    for line in lines:
        row = final_row(line.half, earlier if line.season == old else me)
        assert (line.rank, line.points, line.games) == (row.rank, row.score, row.games)
        assert line.field == Standing.objects.filter(snapshot=row.snapshot).count()
    html = response.content.decode()
    for line in lines:  # each links to that half's standings
        assert reverse("competition:standings_half", args=[line.season.slug, line.half.kind]) in html


def test_only_a_half_still_being_played_is_marked_so_far(client, club):
    old, current = club
    lines = history.member_seasons(player_of(current))
    assert [(line.season, line.half.kind) for line in lines if not line.final] == [(current, "winter")]
    response = client.get(reverse("competition:player", args=[player_of(current).pk]))
    assert response.content.decode().count("(so far)") == 1


def test_the_page_of_an_earlier_season_shows_the_same_history(client, club):
    old, current = club
    me = player_of(current)
    earlier = Player.objects.get(season=old, member=me.member)
    page = client.get(reverse("competition:player", args=[earlier.pk]))
    assert page.context["member_seasons"] == history.member_seasons(me)


def test_a_member_in_his_first_season_gets_no_seasons_table(client):
    season = f.season(players=4)
    response = client.get(reverse("competition:player", args=[season.players.first().pk]))
    assert response.status_code == 200
    assert "data-member-seasons" not in response.content.decode()
    assert response.context["head_to_head"] == []


# --- Head-to-head -----------------------------------------------------------------------


def expected_records(member_id: int) -> dict[int, Counter]:
    """Straight from the games table: per opponent member, the games played over the
    board, won/drawn/lost, and the forfeits."""
    records: dict[int, Counter] = {}
    for g in Game.objects.filter(Q(white__member_id=member_id) | Q(black__member_id=member_id)) \
            .select_related("white", "black"):
        white = g.white.member_id == member_id
        opponent = g.black.member_id if white else g.white.member_id
        tally = records.setdefault(opponent, Counter())
        if g.result in GAMES:
            tally["games"] += 1
            mine = {"1-0": "won" if white else "lost", "0-1": "lost" if white else "won",
                    "1/2-1/2": "drawn"}[g.result]
            tally[mine] += 1
        elif g.result.endswith("F"):
            tally["forfeits"] += 1
    return {k: v for k, v in records.items() if v}


def test_the_head_to_head_counts_every_game_against_each_member_over_all_seasons(client, club):
    old, current = club
    me = player_of(current)
    response = client.get(reverse("competition:player", args=[me.pk]))
    lines = response.context["head_to_head"]
    expected = expected_records(me.member_id)
    assert {line.record.opponent for line in lines} == set(expected)
    for line in lines:
        tally = expected[line.record.opponent]
        r = line.record
        assert (r.games, r.won, r.drawn, r.lost, r.forfeits) == (
            tally["games"], tally["won"], tally["drawn"], tally["lost"], tally["forfeits"])
        assert r.score == tally["won"] + tally["drawn"] / 2
    # Both seasons count: somebody he met in each season has games from both.
    both = [line for line in lines if line.record.games > 1]
    assert both, "the generated seasons repeat their pairings: some opponent twice"


def test_the_head_to_head_row_shows_the_score_and_the_last_game(client, club):
    old, current = club
    me = player_of(current)
    line = history.member_head_to_head(me)[0]
    last = max(g.evening.date for g in Game.objects.filter(
        Q(white__member=me.member, black__member_id=line.record.opponent)
        | Q(black__member=me.member, white__member_id=line.record.opponent),
        result__in=GAMES).select_related("evening"))
    assert line.record.last_met == last
    html = client.get(reverse("competition:player", args=[me.pk])).content.decode()
    row = re.search(rf"<tr><td>(?:<a [^>]*>)?{re.escape(line.name)}.*?</tr>", html, re.S).group(0)
    assert f'<td class="num">{line.score_text}</td><td class="num">{line.record.games}</td>' in row


def test_an_opponent_links_to_his_current_page_and_one_who_left_does_not(client, club):
    old, current = club
    me = player_of(current)
    lines = history.member_head_to_head(me)
    assert all(line.player_id == Player.objects.get(season=current, member_id=line.record.opponent).pk
               for line in lines)
    # An opponent who no longer plays: his player row of this season is gone.
    gone = lines[0].record.opponent
    Standing.objects.filter(player__season=current, player__member_id=gone).delete()
    Game.objects.filter(Q(white__member_id=gone) | Q(black__member_id=gone),
                        evening__season=current).delete()
    current.players.filter(member_id=gone).delete()
    line = next(x for x in history.member_head_to_head(me) if x.record.opponent == gone)
    assert line.player_id is None
    html = client.get(reverse("competition:player", args=[me.pk])).content.decode()
    assert f"<tr><td>{line.name}</td>" in html


# --- The archive ------------------------------------------------------------------------


def test_the_archive_lists_earlier_seasons_with_their_podium_and_prize_winners(client, club):
    old, current = club
    response = client.get(reverse("history:archive"))
    html = response.content.decode()
    assert f'data-season="{old.slug}"' in html
    assert f'data-season="{current.slug}"' not in html  # the current season is no history
    (archived,) = response.context["seasons"]
    for part in archived.halves:
        assert part.final
        expected = list(Standing.objects.filter(
            snapshot=Standing.objects.filter(snapshot__half=part.half)
            .order_by("-snapshot__evening__date").first().snapshot, rank__lte=3
        ).order_by("rank").values_list("player_id", flat=True))
        assert [row.player_id for row in part.rows] == expected
    prizes = Prize.objects.filter(season=old)
    assert prizes.count() >= 2
    for prize in prizes:
        player = Player.objects.get(season=old, member=prize.member)
        assert f'<a href="{reverse("competition:player", args=[player.pk])}">{prize.member.name}</a>' in html


def test_the_archive_of_a_season_shows_the_full_final_standings_of_both_halves(client, club):
    old, _current = club
    response = client.get(reverse("history:season", args=[old.slug]))
    archived = response.context["archived"]
    assert [part.half.kind for part in archived.halves] == ["winter", "summer"]
    for part in archived.halves:
        assert len(part.rows) == old.players.count()
        assert [row.rank for row in part.rows] == list(range(1, len(part.rows) + 1))
    html = response.content.decode()
    champion = Prize.objects.get(season=old, kind="champion")
    assert champion.member.name in html


def test_an_unknown_season_has_no_archive_page(client, club):
    assert client.get("/archive/no-such-season/").status_code == 404


def test_the_archive_without_earlier_seasons_says_so(client):
    f.season(players=4)
    response = client.get(reverse("history:archive"))
    assert response.status_code == 200
    assert "There are no earlier seasons yet." in response.content.decode()


def test_the_archive_is_reachable_from_the_standings_page_and_every_footer(client, club):
    archive = reverse("history:archive")
    standings = client.get(reverse("competition:standings")).content.decode()
    assert re.search(rf'<details[^>]*>(?:(?!</details>).)*href="{archive}"', standings, re.S)
    assert f'href="{archive}"' in client.get(reverse("competition:rules")).content.decode()


def test_the_archive_is_a_cached_public_page(client, club, settings):
    settings.PAGE_CACHE_SECONDS = 60
    client.get(reverse("history:archive"))
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(reverse("history:archive")).status_code == 200
    assert len(ctx.captured_queries) <= 1  # the data version at most, not the page


# --- Queries ----------------------------------------------------------------------------


def history_pages(seasons: list[Season]) -> dict[str, str]:
    oldest, current = seasons[0], seasons[-1]
    me = player_of(current, start=2)
    return {
        "player (current)": reverse("competition:player", args=[me.pk]),
        "player (oldest)": reverse("competition:player",
                                   args=[Player.objects.get(season=oldest, member=me.member).pk]),
        "archive": reverse("history:archive"),
        "archive season": reverse("history:season", args=[oldest.slug]),
    }


def count_queries(client, path: str) -> int:
    client.get(path)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200, path
    return len(ctx.captured_queries)


def test_history_pages_cost_the_same_queries_for_a_short_and_a_long_history(
    client, django_assert_max_num_queries, subtests
):
    small = {name: count_queries(client, path)
             for name, path in history_pages(club_history(earlier=1, players=8, seed=3)).items()}
    for model in (Prize, Game, Season):
        model.objects.all().delete()

    print("queries, short history:", small)
    seasons = club_history(earlier=4, players=24, seed=5)
    assert Season.objects.count() == 5 and Prize.objects.count() >= 12
    for name, path in history_pages(seasons).items():
        with subtests.test(msg=name):
            client.get(path)
            with django_assert_max_num_queries(small[name]):
                assert client.get(path).status_code == 200


# --- The demo club ----------------------------------------------------------------------


def test_the_demo_club_has_last_season_in_its_history(client):
    from competition.demo import LEFT, build_demo

    season = build_demo(today=TODAY)
    last = Season.objects.exclude(pk=season.pk).get()
    assert last.start_date < season.start_date
    assert {p.kind for p in Prize.objects.filter(season=last)} >= {"champion", "summer_champion"}
    html = client.get(reverse("history:archive")).content.decode()
    assert f'data-season="{last.slug}"' in html and f'data-season="{season.slug}"' not in html
    # Somebody who met the member who has left since: that opponent has no page this
    # season, so his name is shown without a link; the others link to theirs.
    game = Game.objects.filter(Q(white__member__email=LEFT[0]) | Q(black__member__email=LEFT[0])) \
        .select_related("white__member", "black__member").first()
    met = game.black.member if game.white.member.email == LEFT[0] else game.white.member
    me = Player.objects.get(season=season, member=met)
    page = client.get(reverse("competition:player", args=[me.pk]))
    assert {line.season for line in page.context["member_seasons"]} == {season, last}
    (left,) = [line for line in page.context["head_to_head"] if line.name == LEFT[1]]
    assert left.player_id is None
    assert all(line.player_id for line in page.context["head_to_head"] if line is not left)


def test_a_ladder_season_shows_its_ladder_points_not_the_progress(client):
    season = season_import(actor=None, system=True, name="ladder",
                           data=random_season(11, players=8, evenings=6, system="ladder"))
    me = season.players.get(start=1)
    (line,) = history.member_seasons(me)
    row = final_row(season.halves.get(), me)
    assert line.ladder and line.points == row.points != row.score
    html = client.get(reverse("history:season", args=[season.slug])).content.decode()
    assert "Ladder points" in html
