"""The playoffs after the summer half in the database (docs/rules.md 6; docs/prizes.md).

The bracket is the pure engine's (competition/prizes/engine/playoffs.py) rebuilt from the recorded
lot and the results in the order they were entered; these tests check the shell: who is
drawn, the evenings and moved dates, the refusals, the prizes and the permissions.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import (
    AuditRecord,
    Evening,
    Game,
    Half,
    Player,
    PlayoffBracket,
    PlayoffDate,
    PlayoffResult,
    Prize,
    Season,
)
from competition.prizes import selectors as prize_selectors
from competition.prizes import services as prize_services
from competition.prizes.engine.playoffs import match_winner
from competition.season import seasonio
from competition.season.engine.calendar import evening_times
from competition.season.engine.seasonfile import load_season
from tests import factories as f
from tests.season_factories import season_dict

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

PLAYOFF_EVENINGS = [dt.date(2027, 6, 4), dt.date(2027, 6, 11), dt.date(2027, 6, 18)]


@pytest.fixture(autouse=True)
def summer_half_played(monkeypatch):
    """The imported evenings (up to 2027-01-15) have been played, the playoffs are to come:
    an import refuses games on an evening still to come."""
    from django.utils import timezone

    now = dt.datetime(2027, 2, 1, 12, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)


def _evening(date: str, half: str, players: int) -> dict:
    """Everybody present; 1 v n, 2 v n-1, ...; the higher placed wins; an odd one out
    (the middle) gets the bye."""
    ids = list(range(1, players + 1))
    byes = [ids.pop(len(ids) // 2)] if players % 2 else []
    games = [{"white": ids[i], "black": ids[-1 - i], "result": "1-0"} for i in range(len(ids) // 2)]
    return {"date": date, "half": half, "games": games, "byes": byes}


def playoff_season(players: int = 8, *, name: str = "2026-2027") -> Season:
    """A Keizer season with one winter and one summer evening, and three playoff evenings."""
    people = [{"id": i, "name": f"Player {i}", "rating": 2200 - 10 * i, "start": i, "fixed": True}
              for i in range(1, players + 1)]
    evenings = [_evening("2026-09-04", "winter", players), _evening("2027-01-15", "summer", players)]
    data = load_season(season_dict("pion", players=people, evenings=evenings))
    season = seasonio.season_import(actor=None, system=True, data=data, name=name)
    for day in PLAYOFF_EVENINGS:
        starts_at, deadline = evening_times(day)
        Evening.objects.create(season=season, date=day, kind="playoff", starts_at=starts_at,
                               deadline=deadline)
    return season


def summer_order(season: Season) -> list[int]:
    state = prize_selectors.season_state(season)
    return [r.player_id for r in state.standings(Half.objects.get(season=season, kind="summer"))]


def names(season: Season, ids) -> list[str]:
    by_pk = dict(Player.objects.filter(season=season).values_list("pk", "member__name"))
    return [by_pk[i] for i in ids]


@pytest.fixture
def leader():
    return f.leader()


@pytest.fixture
def arbiter():
    return f.arbiter()


def test_playoffs_are_drawn_from_the_eligible_summer_players_in_summer_order(leader):
    season = playoff_season(8)
    summer = Half.objects.get(season=season, kind="summer")
    order = summer_order(season)
    out = Player.objects.get(pk=order[2])
    prize_services.eligibility_override_set(actor=f.admin(), half=summer, player=out,
                                            eligible=False, reason="moved abroad")
    row = prize_services.playoffs_create(actor=leader, season=season)
    rest = [p for p in order if p != out.pk]
    assert row.groups == [rest[:4], rest[4:]]
    assert row.seed == f"{season.slug}:playoffs"
    assert AuditRecord.objects.filter(action="playoffs.create").get().after["groups"] == row.groups
    # The lot is reproducible: the same seed gives the same colours.
    first = prize_selectors.bracket(season)
    assert prize_selectors.bracket(season) == first


def test_playoffs_are_drawn_only_once(leader):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    with pytest.raises(ValidationError, match="drawn already"):
        prize_services.playoffs_create(actor=leader, season=season)
    assert PlayoffBracket.objects.count() == 1


def test_playoffs_are_refused_while_the_summer_half_has_pending_results(leader):
    season = playoff_season(8)
    game = Game.objects.filter(evening__half__kind="summer", evening__season=season).first()
    game.result = "postponed"
    game.save()
    with pytest.raises(ValidationError, match="not finished"):
        prize_services.playoffs_create(actor=leader, season=season)
    assert not PlayoffBracket.objects.exists()


def test_bracket_evenings_are_the_seasons_playoff_evenings_in_date_order(leader):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    page = prize_selectors.playoff_page(season)
    semis = [v for v in page["groups"][0].matches if v.match.round == "semi"]
    assert {v.date for v in semis} == {PLAYOFF_EVENINGS[0]}


def test_group_of_three_gives_its_first_a_bye_to_the_final(leader, arbiter, client):
    season = playoff_season(7)
    row = prize_services.playoffs_create(actor=leader, season=season)
    assert [len(g) for g in row.groups] == [4, 3]
    first, second, third = row.groups[1]
    built = prize_selectors.bracket(season)
    group2 = [m for m in built.matches if m.group == 2]
    assert [(m.id, {m.white, m.black}) for m in group2] == [("G2-S1", {second, third})]
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G2-S1", result="1-0")
    built = prize_selectors.bracket(season)
    s1 = built.match("G2-S1")
    final = built.match("G2-F")
    assert {final.white, final.black} == {first, match_winner(built, s1)}
    assert final.evening == 3
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert "bye to the final" in page


def test_drawn_semi_final_is_followed_at_once_by_a_decider(leader, arbiter):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    updated = prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1",
                                                result="1/2-1/2")
    decider = updated.match("G1-S1-D")
    assert decider.round == "decider" and decider.result is None
    assert {m.id for m in prize_selectors.bracket(season).open_matches()} >= {"G1-S1-D"}
    page = prize_selectors.playoff_page(season)
    dates = {v.match.id: v.date for g in page["groups"] for v in g.matches}
    assert dates["G1-S1-D"] == dates["G1-S1"] == PLAYOFF_EVENINGS[0]


def test_drawn_decider_is_won_by_the_player_with_black(leader, arbiter):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1", result="1/2-1/2")
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1-D",
                                      result="1/2-1/2")
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S2", result="1-0")
    built = prize_selectors.bracket(season)
    decider = built.match("G1-S1-D")
    assert match_winner(built, built.match("G1-S1")) == decider.black
    final = built.match("G1-F")
    assert decider.black in (final.white, final.black)
    assert decider.white not in (final.white, final.black)


def test_result_for_a_match_that_is_not_open_is_refused(leader, arbiter):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    with pytest.raises(ValidationError, match="not open"):
        prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-F", result="1-0")
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1", result="1-0")
    with pytest.raises(ValidationError, match="has its result already"):
        prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1", result="0-1")
    with pytest.raises(ValidationError, match="Unknown playoff result"):
        prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S2", result="0-0F")
    assert PlayoffResult.objects.count() == 1


def test_moved_semi_final_and_refused_move_of_the_top_groups_final(leader, arbiter, client):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    agreed = dt.date(2027, 6, 8)
    prize_services.playoff_date_set(actor=leader, season=season, match="G2-S1", date=agreed)
    page = prize_selectors.playoff_page(season)
    moved = {v.match.id: v for g in page["groups"] for v in g.matches}
    assert moved["G2-S1"].date == agreed and moved["G2-S1"].moved
    assert moved["G2-S2"].date == PLAYOFF_EVENINGS[0] and not moved["G2-S2"].moved
    with pytest.raises(ValidationError, match="top group"):
        prize_services.playoff_date_set(actor=leader, season=season, match="G1-F",
                                        date=dt.date(2027, 6, 25))
    with pytest.raises(ValidationError, match="before its group's final"):
        prize_services.playoff_date_set(actor=leader, season=season, match="G1-S1",
                                        date=PLAYOFF_EVENINGS[2])
    assert list(PlayoffDate.objects.values_list("match", flat=True)) == ["G2-S1"]
    # The result of the moved semi-final is dated the agreed day.
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G2-S1", result="0-1")
    assert PlayoffResult.objects.get(match="G2-S1").played_on == agreed
    html = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert "G2-S1" in html


def _play_out(season: Season, arbiter) -> None:
    """White wins every open match until the bracket is complete."""
    while True:
        built = prize_selectors.bracket(season)
        if not built.open_matches():
            return
        for match in built.open_matches():
            prize_services.playoff_result_set(actor=arbiter, season=season, match=match.id,
                                              result="1-0")


def test_group_winners_and_club_champion_become_prizes(leader, arbiter, client):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    admin = f.admin()
    with pytest.raises(ValidationError, match="Not every playoff group is decided"):
        prize_services.playoff_prizes_confirm(actor=admin, season=season)
    _play_out(season, arbiter)
    built = prize_selectors.bracket(season)
    champion = built.match("G1-F").white
    prizes = prize_services.playoff_prizes_confirm(actor=admin, season=season)
    assert [(p.kind, p.group) for p in prizes] == [("club_champion", 0), ("playoff_group", 2)]
    assert prizes[0].member_id == Player.objects.get(pk=champion).member_id
    assert prizes[0].half is None
    prize_services.playoff_prizes_confirm(actor=admin, season=season)  # again: replaced
    assert Prize.objects.filter(season=season).count() == 2
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert names(season, [champion])[0] in page
    public = client.get(reverse("prizes:season", args=[season.slug])).content.decode()
    assert names(season, [champion])[0] in public


def test_arbiter_enters_and_leader_moves_through_the_playoff_page(leader, arbiter, client):
    season = playoff_season(8)
    client.force_login(leader)
    client.post(reverse("prizes:playoffs_create", args=[season.slug]), {"confirm": "1"})
    assert PlayoffBracket.objects.filter(season=season).exists()
    client.force_login(arbiter)
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert 'name="result"' in page and 'name="date"' not in page
    client.post(reverse("prizes:playoff_result", args=[season.slug]),
                {"match": "G1-S1", "result": "1/2-1/2"})
    assert PlayoffResult.objects.get().result == "1/2-1/2"
    client.force_login(leader)
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert 'name="date"' in page and "G1-S1-D" in page
    response = client.post(reverse("prizes:playoff_date", args=[season.slug]),
                           {"match": "G1-F", "date": "2027-06-25"}, follow=True)
    assert "top group" in response.content.decode()
    assert not PlayoffDate.objects.exists()


def test_players_may_not_draw_enter_or_move_and_nothing_is_saved(arbiter, client):
    season = playoff_season(8)
    player = f.member()
    with pytest.raises(PermissionDenied):
        prize_services.playoffs_create(actor=player, season=season)
    with pytest.raises(PermissionDenied):
        prize_services.playoffs_create(actor=arbiter, season=season)
    prize_services.playoffs_create(actor=f.leader(), season=season)
    with pytest.raises(PermissionDenied):
        prize_services.playoff_result_set(actor=player, season=season, match="G1-S1", result="1-0")
    with pytest.raises(PermissionDenied):
        prize_services.playoff_date_set(actor=arbiter, season=season, match="G1-S1",
                                        date=dt.date(2027, 6, 8))
    with pytest.raises(PermissionDenied):
        prize_services.playoff_prizes_confirm(actor=f.leader(), season=season)
    client.force_login(player)
    assert client.post(reverse("prizes:playoff_result", args=[season.slug]),
                       {"match": "G1-S1", "result": "1-0"}).status_code == 403
    assert client.post(reverse("prizes:playoff_date", args=[season.slug]),
                       {"match": "G1-S1", "date": "2027-06-08"}).status_code == 403
    assert not PlayoffResult.objects.exists() and not PlayoffDate.objects.exists()
    assert not Prize.objects.exists()


def test_playoff_page_query_count_does_not_grow_with_the_bracket(
    leader, arbiter, client, django_assert_max_num_queries
):
    small = playoff_season(4, name="small")
    prize_services.playoffs_create(actor=leader, season=small)
    path = reverse("prizes:playoffs", args=[small.slug])
    client.force_login(leader)
    client.get(path)
    with CaptureQueriesContext(connection) as ctx:
        client.get(path)
    count = len(ctx.captured_queries)
    big = playoff_season(22, name="big")
    prize_services.playoffs_create(actor=leader, season=big)
    prize_services.playoff_result_set(actor=arbiter, season=big, match="G1-S1", result="1/2-1/2")
    prize_services.playoff_date_set(actor=leader, season=big, match="G3-S2", date=dt.date(2027, 6, 9))
    path = reverse("prizes:playoffs", args=[big.slug])
    client.get(path)
    with django_assert_max_num_queries(count):
        response = client.get(path)
    assert response.status_code == 200 and b"G5-Q1" in response.content


def test_a_wrong_playoff_result_is_withdrawn_by_the_leader_and_recorded(leader, arbiter, client):
    season = playoff_season(8)
    prize_services.playoffs_create(actor=leader, season=season)
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1",
                                      result="1/2-1/2")
    # The decider follows from the draw: the draw cannot go while the decider has a result.
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1-D",
                                      result="1-0")
    with pytest.raises(ValidationError, match="withdraw that one first"):
        prize_services.playoff_result_withdraw(actor=leader, season=season, match="G1-S1")
    with pytest.raises(PermissionDenied):
        prize_services.playoff_result_withdraw(actor=arbiter, season=season, match="G1-S1-D")
    client.force_login(leader)
    for match in ("G1-S1-D", "G1-S1"):
        client.post(reverse("prizes:playoff_result_withdraw", args=[season.slug]),
                    {"match": match})
    bracket = prize_selectors.bracket(season)
    assert bracket.match("G1-S1").result is None
    assert "G1-S1-D" not in {m.id for m in bracket.matches}
    withdrawn = AuditRecord.objects.filter(action="playoffs.result_withdraw").order_by("id")
    assert [r.before for r in withdrawn] == [
        {"match": "G1-S1-D", "result": "1-0"}, {"match": "G1-S1", "result": "1/2-1/2"}
    ]
    prize_services.playoff_result_set(actor=arbiter, season=season, match="G1-S1", result="1-0")
    assert prize_selectors.bracket(season).match("G1-S1").result == "1-0"


def test_drawing_the_playoffs_asks_first_and_draws_nothing_without_the_confirmation(leader, client):
    season = playoff_season(8)
    client.force_login(leader)
    response = client.post(reverse("prizes:playoffs_create", args=[season.slug]))
    assert response.status_code == 200
    assert "The drawing is final" in response.content.decode()
    assert not PlayoffBracket.objects.filter(season=season).exists()
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert 'data-confirm="The eligible players of the summer half' in page


def test_the_draw_is_not_offered_before_the_summer_half_is_complete(leader, client):
    """Issue 23: the page said "Draw the playoffs" and the service then refused."""
    season = playoff_season(8)
    game = Game.objects.filter(evening__half__kind="summer", evening__season=season).first()
    game.result = ""
    game.save()
    client.force_login(leader)
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert reverse("prizes:playoffs_create", args=[season.slug]) not in page
    assert "data-playoffs-blocked" in page
    assert "Results not entered yet" in page
    game.result = "1-0"
    game.save()
    page = client.get(reverse("prizes:playoffs", args=[season.slug])).content.decode()
    assert reverse("prizes:playoffs_create", args=[season.slug]) in page
