"""A season file in and out of the database (competition/season/seasonio.py).

The database path (import, then `recalculate_season`) and the pure path
(`seasonfile.compute`) must give the same standings; export gives the file back; a
file the database cannot hold saves nothing. Pairing the next evening from the database
and from the file gives the same pairing.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from django.db import DatabaseError

from competition.models import (
    AuditRecord,
    Bye,
    Competition,
    Evening,
    Game,
    Half,
    Player,
    Registration,
    Result,
    Season,
    Standing,
    StandingsSnapshot,
)
from competition.prizes.engine.report import compute
from competition.scoring.params import parameters_to_dict, parse_parameters
from competition.scoring.presets import COMPETITION_PRESETS
from competition.scoring.types import Player as FilePlayer
from competition.season import seasonio
from competition.season.engine.calendar import evening_times
from competition.season.engine.seasonfile import dump_season, load_season
from competition.season.seasonio import (
    SeasonImportError,
    player_file_ids,
    season_export,
    season_import,
)
from members.models import User
from pairing.engine.fromfile import pairing_input_from_season, rules_for_system
from pairing.engine.keizer import pair_evening, result_to_dict
from pairing.selectors import pairing_input, present_players
from tests import factories as f
from tests.generate import random_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

CENT = Decimal("0.01")
MODELS = (Season, Competition, Half, Evening, Player, User, Game, Bye, Registration,
          StandingsSnapshot, Standing, AuditRecord)


def generated(system: str, seed: int = 7, overrides: dict | None = None, **kwargs: Any):
    """A generated season file, read back as the loader normalises it."""
    size = {"players": 18, "evenings": 10, **kwargs}
    return load_season(dump_season(random_season(seed, system=system, overrides=overrides, **size)))


def small_file(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "season/1",
        "system": "ladder",
        "players": [
            {"id": 11, "name": "Anna", "rating": 2100, "start": 1, "fixed": True, "start_points": 1.5},
            {"id": 12, "name": "Bert", "rating": 1900, "start": 2, "fixed": True},
            {"id": 13, "name": "Cees", "rating": None, "start": 3, "fixed": False},
            {"id": 14, "name": "Dirk", "rating": 1700, "start": 4, "fixed": True},
            {"id": 15, "name": "Els", "rating": 1600, "start": 5, "fixed": False},
        ],
        "evenings": [
            {"date": "2026-09-11", "games": [{"white": 11, "black": 12, "result": "1-0"}],
             "byes": [13], "absent_with_notice": [14], "club_duty": []},
            {"date": "2026-09-18", "games": [{"white": 12, "black": 14, "result": "postponed"},
                                             {"white": 13, "black": 11, "result": "0-1F"}],
             "byes": [], "absent_with_notice": [], "club_duty": [15]},
        ],
    }
    data.update(changes)
    return data


def with_anna(**changes: Any) -> list[dict[str, Any]]:
    players = small_file()["players"]
    return [{**players[0], **changes}, *players[1:]]


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


def cents(x: Any) -> Decimal:
    return Decimal(str(x)).quantize(CENT)


def stored_report(season: Season) -> dict[str, Any]:
    """The stored standings after each half's last evening, in the report's terms."""
    ids = player_file_ids(season)
    report = {}
    for half in season.halves.all():
        snapshot = half.snapshots.order_by("-evening__date").first()
        rows = []
        for r in snapshot.rows.order_by("rank"):
            row = {"rank": r.rank, "id": ids[r.player_id], "score": cents(r.score),
                   "games": r.games, "won": r.won, "drawn": r.drawn, "lost": r.lost}
            if half.kind == "season":
                row.update(points=cents(r.points), pairing_points=cents(r.pairing_points),
                           group=r.group)
            else:
                row.update(value=cents(r.value), cycle=snapshot.cycle,
                           cycle_orders=snapshot.cycle_orders)
            rows.append(row)
        report[half.kind] = rows
    return report


def computed_report(data) -> dict[str, Any]:
    report = {}
    for part, result in compute(data).items():
        rows = []
        for r in result["standings"]:
            row = {"rank": r["rank"], "id": r["id"], "score": cents(r["score"]),
                   "games": r["games"], "won": r["won"], "drawn": r["drawn"], "lost": r["lost"]}
            if part == "season":
                row.update(points=cents(r["points"]), pairing_points=cents(r["pairing_points"]),
                           group=r["group"])
            else:
                row.update(value=cents(r["value"]), cycle=result["cycle"],
                           cycle_orders=result["cycle_orders"])
            rows.append(row)
        report[part] = rows
    return report


# --- Import: the database path agrees with the pure path -----------------------------------


@pytest.mark.parametrize(
    "system, overrides",
    [("pion", None), ("classic", {"top": 80, "bye": {"of": "own", "factor": "1/2"}}),
     ("ladder", None), ("ladder", {"bonus": 0.5})],
)
def test_imported_season_stores_the_standings_the_season_file_computes(system, overrides):
    data = generated(system, overrides=overrides)
    season = season_import(actor=None, system=True, data=data, name="imported")
    assert stored_report(season) == computed_report(data)


def test_import_creates_calendar_members_players_games_and_sign_ups():
    data = load_season(small_file(system="pion", players=[
        {**p, "start_points": None} for p in small_file()["players"]
    ], evenings=[{**e, "half": h} for e, h in zip(small_file()["evenings"], ["winter", "summer"],
                                                    strict=True)]))
    season = season_import(actor=None, system=True, data=data)
    assert season.name == season.slug == "2026"
    assert (season.start_date, season.end_date) == (dt.date(2026, 9, 11), dt.date(2026, 9, 18))
    competition = season.competition
    assert competition.parameters == parameters_to_dict(parse_parameters("pion", {}))
    assert competition.min_evenings_between == COMPETITION_PRESETS["pion"]["min_evenings_between"]
    halves = {h.kind: h.start_date for h in season.halves.all()}
    assert halves == {"winter": dt.date(2026, 9, 11), "summer": dt.date(2026, 9, 18)}
    first, second = season.evenings.order_by("date")
    assert (first.kind, first.status, first.half.kind) == ("playing", "published", "winter")
    assert (first.starts_at, first.deadline) == evening_times(first.date)
    anna = Player.objects.get(season=season, member__email="player-11@import.invalid")
    assert (anna.member.name, anna.rating, anna.start, anna.kind) == ("Anna", 2100, 1, "fixed")
    assert list(anna.member.memberships.values_list("club", "role")) == [(season.club_id, "player")]
    assert not anna.member.has_usable_password()
    games = list(Game.objects.filter(evening__season=season).order_by("evening__date", "board")
                 .values_list("board", "white__start", "black__start", "result"))
    assert games == [(1, 1, 2, "1-0"), (1, 2, 4, "postponed"), (2, 3, 1, "0-1F")]
    assert Bye.objects.get(evening=first).player.start == 3
    regs = {(r.evening.date.day, r.player.start): r.status
            for r in Registration.objects.filter(evening__season=season)}
    # Dirk signed off; Els had club duty; fixed players not mentioned: absent without notice.
    assert regs == {(11, 4): "absent_with_notice", (18, 5): "club_duty"}
    assert StandingsSnapshot.objects.filter(half__season=season).count() == 2
    assert AuditRecord.objects.filter(action="season.import", season=season).exists()


def test_fixed_player_not_mentioned_is_recorded_absent_without_notice():
    data = load_season(small_file(evenings=small_file()["evenings"][:1] + [
        {"date": "2026-09-25", "games": [{"white": 11, "black": 12, "result": "0-1"}]}]))
    season = season_import(actor=None, system=True, data=data, name="x")
    absent = Registration.objects.filter(evening__date=dt.date(2026, 9, 25), evening__season=season)
    assert sorted(absent.values_list("player__start", "status")) == [
        (4, "absent_without_notice")]


def test_a_second_import_reuses_members_of_the_same_name_and_never_renames_one():
    season_import(actor=None, system=True, data=load_season(small_file()), name="first")
    renamed = small_file(players=[{**small_file()["players"][0], "name": "Anna Jansen"},
                                  *small_file()["players"][1:]])
    second = season_import(actor=None, system=True, data=load_season(renamed), name="second")
    assert User.objects.filter(email__endswith="@import.invalid").count() == 6
    assert User.objects.get(email="player-11@import.invalid").name == "Anna"
    anna = Player.objects.get(season=second, start=1).member
    assert (anna.email, anna.name) == ("player-11.2@import.invalid", "Anna Jansen")
    bert = Player.objects.get(season=second, start=2).member
    assert bert.email == "player-12@import.invalid"
    assert season_export(second) == dump_season(load_season(renamed))


# --- Export and the round trip --------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [pytest.param(lambda: generated("pion"), id="pion"),
     pytest.param(lambda: generated("classic", overrides={"top": 80, "absent_with_notice_limit": None}),
                  id="classic-overrides"),
     pytest.param(lambda: generated("ladder", seed=3), id="ladder"),
     pytest.param(lambda: load_season(small_file()), id="ladder-start-points")],
)
def test_export_of_an_imported_season_gives_the_file_back(data):
    data = data()
    season = season_import(actor=None, system=True, data=data, name="round trip")
    assert season_export(season) == dump_season(data)


def test_results_not_yet_entered_are_exported_as_postponed():
    season = season_import(actor=None, system=True, data=load_season(small_file()), name="x")
    Game.objects.filter(evening__season=season, result="1-0").update(result=Result.PENDING)
    exported = season_export(season)
    assert exported["evenings"][0]["games"] == [{"white": 11, "black": 12, "result": "postponed"}]


def test_a_season_built_in_the_application_exports_with_player_pks_as_ids():
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    p = list(s.players.order_by("start"))
    Game.objects.create(evening=evening, board=1, white=p[0], black=p[1], result="1/2-1/2")
    Game.objects.create(evening=evening, board=2, white=p[2], black=p[3], result="")
    Evening.objects.filter(pk=evening.pk).update(status="published")
    exported = season_export(s)
    assert [x["id"] for x in exported["players"]] == [x.pk for x in p]
    assert exported["evenings"] == [{
        "date": evening.date.isoformat(), "half": "winter",
        "games": [{"white": p[0].pk, "black": p[1].pk, "result": "1/2-1/2"},
                  {"white": p[2].pk, "black": p[3].pk, "result": "postponed"}],
        "byes": [], "absent_with_notice": [], "club_duty": []}]
    assert "parameters" not in exported


# --- A file the database cannot hold saves nothing -----------------------------------------


@pytest.mark.parametrize(
    "changes, message",
    [({"evenings": [{"date": "2026-09-11", "byes": [11, 12]}]},
      "evening 2026-09-11 has 2 pairing byes; the database holds one an evening"),
     ({"players": with_anna(rating=4000)}, "rating 4000 of player 11 must be from 0 to 3500"),
     ({"players": with_anna(start_points="2/3")},
      "start points 2/3 of player 11: the database keeps at most two decimals"),
     ({"players": with_anna(name="A" * 121)}, "the name of player 11 is longer than 120"),
     ({"evenings": []}, "the season file has no evenings")],
)
def test_a_file_the_database_cannot_hold_is_refused_with_one_line(changes, message):
    before = counts()
    with pytest.raises(SeasonImportError, match=message):
        season_import(actor=None, system=True, data=load_season(small_file(**changes)), name="bad")
    assert counts() == before


def test_a_season_name_in_use_is_refused():
    season_import(actor=None, system=True, data=load_season(small_file()), name="2026-2027")
    before = counts()
    with pytest.raises(SeasonImportError, match="a season named '2026-2027' exists already"):
        season_import(actor=None, system=True, data=load_season(small_file()), name="2026-2027")
    assert counts() == before


def test_a_failure_while_writing_rolls_everything_back(monkeypatch):
    def broken(*args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(seasonio, "recalculate_season", broken)
    before = counts()
    with pytest.raises(SeasonImportError, match="the database refused the season: disk full"):
        season_import(actor=None, system=True, data=load_season(small_file()), name="x")
    assert counts() == before


# --- Pairing the next evening: the database and the file agree --------------------------------


def _next_evening(season: Season, date: dt.date, half_kind: str) -> Evening:
    starts_at, deadline = evening_times(date)
    return Evening.objects.create(
        season=season, half=season.halves.get(kind=half_kind), date=date, kind="playing",
        starts_at=starts_at, deadline=deadline,
    )


@pytest.mark.parametrize("system, seed", [("pion", 5), ("classic", 6), ("ladder", 8)])
def test_pairing_the_next_evening_from_the_database_and_from_the_file_agree(system, seed):
    data = generated(system, seed=seed, evenings=12)
    newcomer = FilePlayer(9999, "New Member", 1800, len(data.players) + 1, False)
    data = replace(data, players=(*data.players, newcomer))
    season = season_import(actor=None, system=True, data=data, name="pairing")
    date = data.evenings[-1].date + dt.timedelta(weeks=1)
    half_kind = "season" if system == "ladder" else "summer"
    evening = _next_evening(season, date, half_kind)
    ids = player_file_ids(season)
    rng = random.Random(seed)
    present_file = [p.id for p in data.players if rng.random() < 0.8 or p.id == 9999]
    if len(present_file) % 2 == 0:  # an odd number: the bye is part of the comparison
        present_file.pop(0 if present_file[0] != 9999 else 1)
    by_file = {v: k for k, v in ids.items()}
    for pk, file_id in ids.items():
        status = "present" if file_id in present_file else "absent_with_notice"
        Registration.objects.create(evening=evening, player_id=pk, status=status)
    seed_text = f"{season.slug}:{date.isoformat()}"

    present = present_players(evening)
    db_players, db_meetings, db_rules, db_index = pairing_input(evening, present)
    db_result = pair_evening(db_players, db_meetings, db_rules, evening_index=db_index,
                             half=half_kind, seed=seed_text)

    players, meetings, index, half = pairing_input_from_season(data, date, present_file)
    assert (index, half) == (db_index, half_kind)
    assert rules_for_system(system) == db_rules
    assert [p.id for p in players] == [ids[p.id] for p in db_players]
    assert 9999 in [p.id for p in players]
    assert [(p.colours, p.byes, p.rating) for p in players] == [
        (p.colours, p.byes, p.rating) for p in db_players]
    assert [(ids[m.a], ids[m.b], m.evening, m.half) for m in db_meetings] == [
        (m.a, m.b, m.evening, m.half) for m in meetings]
    result = pair_evening(players, meetings, rules_for_system(system), evening_index=index,
                          half=half, seed=seed_text)
    db = result_to_dict(db_result)
    mapped = {
        "games": [{**g, "white": ids[g["white"]], "black": ids[g["black"]]} for g in db["games"]],
        "bye": ids[db["bye"]],
        "bye_drawn_from": [ids[p] for p in db["bye_drawn_from"]],
        "relaxed": [{**r, "white": ids[r["white"]], "black": ids[r["black"]]}
                    for r in db["relaxed"]],
    }
    assert result_to_dict(result) == mapped
    assert by_file[9999] in {p.pk for p in present}
