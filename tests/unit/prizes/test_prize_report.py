"""The ladder's period championship and the prize report merged into the season report."""

from __future__ import annotations

import datetime
from dataclasses import replace
from fractions import Fraction
from typing import Any

from competition.prizes.engine.awards import (
    merge_prize_report,
    period_championship,
    period_dates,
    prize_report,
)
from competition.prizes.engine.report import compute
from competition.scoring.params import parse_parameters
from competition.scoring.presets import COMPETITION_PRESETS
from competition.season.engine.seasonfile import load_season
from tests.season_factories import evening, ladder_params, player, season_dict

SEPT, JAN_END = datetime.date(2026, 9, 1), datetime.date(2027, 1, 31)


def test_period_championship_groups_are_the_starting_order_in_four_and_the_biggest_riser_wins() -> None:
    players = tuple(player(i) for i in range(1, 11))  # groups 1-3, 4-6, 7-8, 9-10
    evenings = [
        evening("2026-10-02", None, games=[(3, 1, "1-0"), (6, 4, "1/2-1/2"), (8, 7, "1-0"), (10, 9, "0-1")]),
        evening("2026-11-06", None, games=[(2, 5, "1-0")]),
        evening("2027-02-05", None, games=[(1, 3, "1-0")]),  # after the period: does not count
    ]
    champions = period_championship(ladder_params(), players, evenings, SEPT, JAN_END)
    assert [(c.group, c.player_id) for c in champions] == [(1, 3), (2, 6), (3, 8), (4, 9)]
    assert champions[0].progress == Fraction(3) + Fraction(14, 100) + Fraction(3, 10)


def test_period_championship_tie_goes_to_the_better_starting_position() -> None:
    players = tuple(player(i) for i in range(1, 9))  # groups of two
    evenings = [evening("2026-10-02", None, games=[(1, 2, "1/2-1/2")])]
    params = ladder_params(place_factor=0)  # the draw moves nothing: both gain the bonus only
    champions = period_championship(params, players, evenings, SEPT, JAN_END)
    assert [(c.group, c.player_id) for c in champions] == [(1, 1)]  # groups 2-4 played nothing


def test_period_runs_from_the_first_evening_to_the_end_of_january() -> None:
    assert period_dates([evening("2026-09-04", None)]) == (datetime.date(2026, 9, 4), JAN_END)
    assert period_dates([]) is None


def _keizer_season() -> Any:
    players = [{"id": i, "name": f"P{i}", "rating": 2000 - i, "start": i, "fixed": True} for i in range(1, 6)]
    games = [{"white": 1, "black": 2, "result": "1-0"}, {"white": 3, "black": 4, "result": "1/2-1/2"}]
    winter: list[dict[str, Any]] = [{"date": f"2026-10-{day:02d}", "half": "winter", "games": games, "byes": [5]} for day in (2, 9)]
    summer: list[dict[str, Any]] = [
        {"date": "2027-02-05", "half": "summer", "games": [{"white": 2, "black": 3, "result": "1-0"}]},
    ]
    return load_season(season_dict("pion", players=players, evenings=winter + summer))


def test_prize_report_adds_eligibility_prizes_and_playoff_groups() -> None:
    season = _keizer_season()
    report = prize_report(season)
    assert set(report) == {"winter", "summer"}
    assert all(row["eligible"] for row in report["winter"]["standings"])
    assert [p["prize"] for p in report["winter"]["prizes"]] == ["champion", "silver", "bronze", "best_of_rest"]
    # summer: one evening, players 1, 4 and 5 absent without notice
    summer = {row["id"]: row["eligible"] for row in report["summer"]["standings"]}
    assert summer == {1: False, 2: True, 3: True, 4: False, 5: False}
    assert report["summer"]["prizes"] == [{"prize": "summer_champion", "id": 2}]
    assert report["summer"]["playoff_groups"] == [[2, 3]]


def test_an_override_reaches_the_report() -> None:
    report = prize_report(_keizer_season(), overrides={5: True})
    assert report["summer"]["playoff_groups"] == [[2, 3, 5]]


def test_merge_prize_report_puts_eligible_on_every_row_and_the_prizes_on_each_half() -> None:
    season = _keizer_season()
    merged = merge_prize_report(compute(season), prize_report(season))
    for half in ("winter", "summer"):
        assert all("eligible" in row and "name" in row for row in merged[half]["standings"])
        assert "prizes" in merged[half] and "cycle" in merged[half]
    assert "playoff_groups" in merged["summer"] and "playoff_groups" not in merged["winter"]


def test_ladder_prize_report_has_eligibility_prizes_and_period_champions() -> None:
    players = [{"id": i, "name": f"P{i}", "rating": None, "start": i, "fixed": True} for i in range(1, 9)]
    games = [{"white": 1, "black": 2, "result": "1-0"}, {"white": 4, "black": 3, "result": "1-0"}]
    evenings = [{"date": f"2026-{month:02d}-04", "games": games} for month in range(9, 13)]
    season = load_season(season_dict("ladder", players=players, evenings=evenings))
    report = prize_report(season, min_games=4)
    rows = {row["id"]: row["eligible"] for row in report["season"]["standings"]}
    assert rows == {1: True, 2: True, 3: True, 4: True, 5: False, 6: False, 7: False, 8: False}
    assert [p["prize"] for p in report["season"]["prizes"]] == ["champion", "silver", "bronze"]
    champions = [(c["group"], c["id"]) for c in report["season"]["period_championship"]]
    assert champions == [(1, 1), (2, 4)]  # groups 3 and 4 played no game
    merged = merge_prize_report(compute(season), report)
    assert all("eligible" in row for row in merged["season"]["standings"])
    assert not prize_report(season)["season"]["prizes"]  # 4 games: nobody reaches 14


def test_classic_refuses_nobody_a_prize_by_default() -> None:
    # The pion season above refuses players 1, 4 and 5 in summer; classic has no prize rules.
    season = replace(_keizer_season(), system="classic", params=parse_parameters("classic", None))
    summer = {row["id"]: row["eligible"] for row in prize_report(season)["summer"]["standings"]}
    assert all(summer.values())
    assert COMPETITION_PRESETS["classic"]["eligibility_percentage"] == 0
    # ... unless the administrator sets a percentage.
    strict = {row["id"]: row["eligible"] for row in prize_report(season, percentage=50)["summer"]["standings"]}
    assert strict == {1: False, 2: True, 3: True, 4: False, 5: False}
