"""Starting the next season from the old one (prize_services.season_start_next)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from competition.models import (
    Competition,
    Evening,
    Player,
    PlayerKind,
    Season,
    Standing,
)
from competition.prizes import selectors as prize_selectors
from competition.prizes import services as prize_services
from competition.scoring.display import round_points
from competition.season import seasonio, services
from competition.season.engine.seasonfile import load_season
from competition.season.standings import compute, load_season_data, recalculate_season
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.season_factories import season_dict

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

OPENING = dt.date(2027, 9, 3)
LAST_DAY = dt.date(2028, 7, 14)


def played_season(admin) -> Season:
    """A pion season of six players (two flexible) with two evenings played."""
    season = f.season(players=6, flexible=2, actor=admin)
    arbiter = f.arbiter()
    for evening in f.playing_evenings(season)[:2]:
        for p in season.players.filter(kind=PlayerKind.FLEXIBLE):
            services.registration_set(actor=admin, player=p, evenings=[evening], status="present",
                                      now=evening.deadline - dt.timedelta(days=1))
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
        for game in evening.games.all():
            services.result_set(actor=arbiter, game=game, result="1-0")
    recalculate_season(season.pk)
    return season


def snapshot_of(season: Season) -> dict:
    """Everything of the old season that must stay as it was."""
    return {
        "standings": list(Standing.objects.filter(snapshot__half__season=season)
                          .order_by("snapshot__evening__date", "rank")
                          .values_list("player_id", "rank", "score", "value", "games", "won")),
        "players": list(Player.objects.filter(season=season).order_by("pk")
                        .values_list("pk", "member_id", "kind", "rating", "start", "start_points")),
        "evenings": list(Evening.objects.filter(season=season).order_by("date")
                         .values_list("date", "kind", "status", "half_id")),
        "competition": Competition.objects.filter(season=season).values().get(),
    }


def _fragment(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.S)
    assert found, pattern
    return found.group(0)


def pages_of(client, season: Season) -> list[str]:
    player = season.players.order_by("start").first()
    standings = client.get(reverse("competition:standings_half", args=[season.slug, "winter"]))
    page = client.get(reverse("competition:player", args=[player.pk]))
    return [
        _fragment(standings.content.decode(), r'<div class="table-wrap">.*?</div>'),
        _fragment(page.content.decode(), r"<main.*</main>"),
    ]


def test_next_season_carries_the_members_over_in_the_final_standings_order(client):
    admin = f.admin()
    old = played_season(admin)
    services.competition_set_parameters(actor=admin, competition=old.competition, system="pion",
                                        overrides={"top": 80})
    old.competition.refresh_from_db()
    Competition.objects.filter(pk=old.competition.pk).update(eligibility_percentage=60,
                                                             bye_policy="lowest")
    recalculate_season(old.pk)
    # A member whose rating went up over the summer does not start higher: the final
    # standings give the order (issue 31).
    riser = old.players.order_by("start").last().member
    riser.rating = 2500
    riser.save()
    data = load_season_data(old, today=dt.date.max)
    final = [r.player_id for r in sorted(compute(data)["winter"].standings, key=lambda r: r.rank)]
    final_members = [old.players.get(pk=pk).member_id for pk in final]
    before = snapshot_of(old)
    pages_before = pages_of(client, old)

    new = prize_services.season_start_next(actor=admin, season=old, name="2027-2028",
                                           opening=OPENING, last_day=LAST_DAY,
                                           knsb_rounds=[dt.date(2027, 10, 9)], keep_fixed=False)

    assert snapshot_of(old) == before
    assert pages_of(client, old) == pages_before
    assert new.competition.system == "pion"
    assert new.competition.parameters == Competition.objects.get(season=old).parameters
    assert new.competition.parameters["top"] == 80
    assert (new.competition.eligibility_percentage, new.competition.bye_policy) == (60, "lowest")
    players = list(new.players.select_related("member").order_by("start"))
    assert {p.member_id for p in players} == set(old.players.values_list("member_id", flat=True))
    assert {p.kind for p in players} == {PlayerKind.FLEXIBLE}  # keep_fixed off
    assert [p.member_id for p in players] == final_members
    assert next(p for p in players if p.member == riser).rating == 2500
    kinds = set(Evening.objects.filter(season=new).values_list("kind", flat=True))
    assert {"playing", "rapid", "playoff"} <= kinds
    assert Evening.objects.get(season=new, date=dt.date(2027, 10, 8)).kind == "rapid"


def ladder_season() -> Season:
    people = [{"id": i, "name": f"Ladder {i}", "rating": 2000 - i, "start": i, "fixed": i != 3}
              for i in range(1, 7)]
    evenings = []
    for n, day in enumerate(["2026-09-04", "2026-09-11", "2026-09-18"]):
        pairs = [(5, 1), (2, 4)] if n else [(4, 1), (2, 5)]  # 3 (flexible) never plays
        games = [{"white": w, "black": b, "result": "1-0"} for w, b in pairs]
        evenings.append({"date": day, "games": games, "byes": [6]})
    data = load_season(season_dict("ladder", players=people, evenings=evenings))
    return seasonio.season_import(actor=None, system=True, data=data, name="ladder-2026")


def test_next_ladder_season_carries_the_final_ladder_points_as_start_points():
    admin = f.admin()
    old = ladder_season()
    data = load_season_data(old, today=dt.date.max)
    final = {r.player_id: r.points for r in compute(data)["season"].standings}
    before = snapshot_of(old)
    new = prize_services.season_start_next(actor=admin, season=old, name="ladder-2027",
                                           opening=OPENING, last_day=LAST_DAY, keep_fixed=False)
    assert snapshot_of(old) == before
    assert new.competition.system == "ladder"
    carried = {p.member_id: p for p in new.players.all()}
    olds = {p.pk: p for p in old.players.all()}
    for pk, points in final.items():
        assert carried[olds[pk].member_id].start_points == round_points(points)
    # The flexible player who never played keeps what the ladder gave him at the start.
    idle = old.players.get(kind=PlayerKind.FLEXIBLE)
    assert idle.pk not in final
    assert carried[idle.member_id].start_points == Decimal("0.07") * (6 - idle.start) == Decimal("0.21")
    ordered = list(new.players.order_by("start"))
    assert [p.start_points for p in ordered] == sorted((p.start_points for p in ordered),
                                                       reverse=True)
    assert {p.kind for p in ordered} == {PlayerKind.FLEXIBLE}


def test_last_seasons_fixed_players_are_listed_and_confirmed_with_one_click(client):
    admin = f.admin()
    old = played_season(admin)
    new = prize_services.season_start_next(actor=admin, season=old, name="2027-2028",
                                           opening=OPENING, last_day=LAST_DAY, keep_fixed=False)
    fixed_before = set(old.players.filter(kind=PlayerKind.FIXED).values_list("member_id", flat=True))
    listed = prize_selectors.previously_fixed(new)
    assert {p.member_id for p in listed} == fixed_before
    client.force_login(admin)
    page = client.get(reverse("prizes:manage", args=[new.slug])).content.decode()
    assert listed[0].member.name in page
    client.post(reverse("prizes:player_kind", args=[new.slug]),
                {"player": listed[0].pk, "kind": "fixed"})
    assert Player.objects.get(pk=listed[0].pk).kind == PlayerKind.FIXED
    assert listed[0].pk not in [p.pk for p in prize_selectors.previously_fixed(new)]


def test_next_season_through_the_manage_page(client):
    admin = f.admin()
    old = played_season(admin)
    client.force_login(admin)
    response = client.post(reverse("prizes:next_season", args=[old.slug]),
                           {"name": "2027-2028", "opening": "2027-09-03", "last_day": "2028-07-14",
                            "knsb_rounds": "", "closed": ""})
    new = Season.objects.get(name="2027-2028")
    assert response.status_code == 302 and new.slug in response["Location"]
    assert new.players.count() == old.players.count()


def test_next_season_is_not_a_players_and_saves_nothing(client):
    old = played_season(f.admin())
    player = f.member()
    with pytest.raises(PermissionDenied):
        prize_services.season_start_next(actor=player, season=old, name="2027-2028",
                                         opening=OPENING, last_day=LAST_DAY)
    client.force_login(player)
    response = client.post(reverse("prizes:next_season_preview", args=[old.slug]),
                           {"name": "2027-2028", "opening": "2027-09-03", "last_day": "2028-07-14",
                            "make": "1"})
    assert response.status_code == 403
    assert not Season.objects.filter(name="2027-2028").exists()


def test_next_season_must_open_after_the_old_one():
    admin = f.admin()
    old = played_season(admin)
    with pytest.raises(ValidationError, match="must open after"):
        prize_services.season_start_next(actor=admin, season=old, name="again",
                                         opening=old.start_date, last_day=LAST_DAY)
    assert Season.objects.count() == 1


def test_a_fide_start_carries_over_and_orders_the_next_season_by_fide_rating(client):
    admin = f.admin()
    old = played_season(admin)
    Competition.objects.filter(season=old).update(start_rating="fide", trf_rating="knsb")
    fide_top = old.players.order_by("start").last().member
    fide_top.fide_rating = 2600  # his KNSB rating stays low: FIDE orders this start
    fide_top.save()
    new = prize_services.season_start_next(actor=admin, season=old, name="2027-2028",
                                           opening=OPENING, last_day=LAST_DAY)
    assert (new.competition.start_rating, new.competition.trf_rating) == ("fide", "knsb")
    assert new.players.get(member=fide_top).rating == 2600


# --- The next season by the leader (issue 31) ------------------------------------------------


def test_fixed_players_stay_fixed_by_default():
    admin = f.admin()
    old = played_season(admin)
    new = prize_services.season_start_next(actor=admin, season=old, name="2027-2028",
                                           opening=OPENING, last_day=LAST_DAY)
    kinds = {p.member_id: p.kind for p in new.players.all()}
    assert kinds == dict(old.players.values_list("member_id", "kind"))
    assert PlayerKind.FIXED in kinds.values() and PlayerKind.FLEXIBLE in kinds.values()


def test_the_proposal_is_the_old_seasons_dates_a_year_on_on_the_same_weekday():
    admin = f.admin()
    old = played_season(admin)
    closed = f.playing_evenings(old)[5]
    services.evening_update(actor=admin, evening=closed, kind="closed", half=None)
    proposal = prize_services.next_season_proposal(old)
    assert proposal["opening"] == old.start_date + dt.timedelta(weeks=52)
    assert proposal["opening"].weekday() == old.start_date.weekday()
    assert proposal["closed"] == [closed.date + dt.timedelta(weeks=52)]
    new = prize_services.season_start_next(actor=admin, season=old, name="2027-2028",
                                           opening=proposal["opening"], last_day=proposal["last_day"])
    assert Evening.objects.get(season=new, date=proposal["closed"][0]).kind == "closed"


def test_the_leader_starts_the_next_season_from_his_home_after_a_preview(client):
    admin = f.admin()
    old = played_season(admin)
    leader = f.leader()
    client.force_login(leader)
    home = client.get(reverse("competition:leader")).content.decode()
    url = reverse("prizes:next_season_preview", args=[old.slug])
    assert url in home
    page = client.get(url).content.decode()
    expected = prize_services.next_season_players(old)
    assert "data-players-preview" in page
    names = re.findall(r'<tr><td class="num">\d+</td><td>([^<]+)</td>', page)
    assert names == [c.player.member.name for c in expected]
    assert Season.objects.count() == 1  # the preview makes nothing
    proposal = prize_services.next_season_proposal(old)
    form = {"name": "2027-2028", "opening": proposal["opening"].isoformat(),
            "last_day": proposal["last_day"].isoformat(), "knsb_rounds": "", "closed": "",
            "keep_fixed": "on"}
    client.post(url, {**form, "make": "0"})
    assert Season.objects.count() == 1
    response = client.post(url, {**form, "make": "1"})
    new = Season.objects.get(name="2027-2028")
    assert response.status_code == 302 and new.slug in response["Location"]
    assert [p.member.name for p in new.players.select_related("member").order_by("start")] == \
        [c.player.member.name for c in expected]


def test_a_bad_next_season_from_the_leaders_page_saves_nothing(client):
    old = played_season(f.admin())
    client.force_login(f.leader())
    url = reverse("prizes:next_season_preview", args=[old.slug])
    response = client.post(url, {"name": "again", "opening": old.start_date.isoformat(),
                                 "last_day": "2028-07-14", "make": "1"}, follow=True)
    assert "must open after" in response.content.decode()
    assert Season.objects.count() == 1
