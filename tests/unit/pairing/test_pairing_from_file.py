"""Pairing an evening from a season file (pairing/engine/fromfile.py): the same input the
database path builds (docs/pairing.md), without the database."""

from __future__ import annotations

import datetime as dt

import pytest

from competition.scoring.keizer import compute_keizer_season
from competition.scoring.types import Player, SeasonInput
from pairing.engine.fromfile import (
    PairingInputError,
    pair_from_season,
    pairing_input_from_season,
    rules_for_system,
)
from pairing.engine.types import CLASSIC_RULES, PION_RULES, Meeting
from tests.season_factories import evening, keizer_params, ladder_params

D = dt.date.fromisoformat


def keizer(players, evenings, system="classic") -> SeasonInput:
    return SeasonInput(system, keizer_params(system), {}, tuple(players), tuple(evenings))


def ladder(players, evenings) -> SeasonInput:
    return SeasonInput("ladder", ladder_params(), {}, tuple(players), tuple(evenings))


# Ids differ from starting positions, so an order by id would show.
PLAYERS = (
    Player(40, "Anna", 2100, 1, True),
    Player(30, "Bert", 2000, 2, True),
    Player(20, "Cees", 1900, 3, True),
    Player(10, "Dirk", 1800, 4, True),
)
ALL = [40, 30, 20, 10]


def order(season, date, present=ALL, **kwargs):
    players, *_ = pairing_input_from_season(season, D(date), present, **kwargs)
    return [p.id for p in players]


def test_first_evening_pairs_in_starting_order():
    assert order(keizer(PLAYERS, []), "2026-09-11", [10, 30, 20, 40]) == [40, 30, 20, 10]


def test_order_is_the_standings_of_the_half_after_the_evenings_before():
    evenings = [
        evening("2026-09-11", games=[(10, 40, "1-0"), (20, 30, "1-0")]),
        evening("2026-09-18", games=[(10, 20, "1-0"), (40, 30, "1-0")]),
    ]
    season = keizer(PLAYERS, evenings)
    expected = [r.player_id for r in compute_keizer_season(season.params, PLAYERS, evenings)["winter"].standings]
    assert expected[0] == 10
    assert order(season, "2026-09-25") == expected


def test_first_summer_evening_pairs_in_the_final_winter_order():
    evenings = [evening("2026-09-11", games=[(10, 40, "1-0"), (20, 30, "0-1")])]
    season = keizer(PLAYERS, evenings)
    winter = [r.player_id for r in compute_keizer_season(season.params, PLAYERS, evenings)["winter"].standings]
    assert order(season, "2027-01-08", half="summer") == winter
    assert pairing_input_from_season(season, D("2027-01-08"), ALL, half="summer")[3] == "summer"
    assert pairing_input_from_season(season, D("2027-01-08"), ALL)[3] == "winter"  # by default


def test_ladder_pairs_by_ladder_points_without_the_attendance_bonus():
    # Cees draws Bert: +0.07 for Cees, -0.07 for Bert, and 0.3 bonus each. Anna is away.
    season = ladder(PLAYERS, [evening("2026-09-11", None, games=[(30, 20, "1/2-1/2")])])
    players, meetings, index, half = pairing_input_from_season(season, D("2026-09-18"), ALL)
    # With bonus: Cees 0.44, Bert 0.37, Anna 0.21, Dirk 0; without: Anna 0.21, Cees 0.14, Bert 0.07.
    assert [p.id for p in players] == [40, 20, 30, 10]
    assert (meetings, index, half) == ([Meeting(30, 20, 1, "season")], 2, "season")


def test_first_evening_of_a_flexible_player_places_him_below_the_closest_rating():
    newcomer = Player(99, "Els", 1920, 5, False)
    evenings = [evening("2026-09-11", games=[(40, 30, "1-0"), (20, 10, "1-0")])]
    season = keizer((*PLAYERS, newcomer), evenings)
    # Standings: Anna, Cees (won), Bert, Dirk; Els (1920) goes below Cees (1900).
    assert order(season, "2026-09-18", [*ALL, 99]) == [40, 20, 99, 30, 10]


def test_forfeits_are_neither_meetings_nor_colours_and_postponed_games_are_both():
    evenings = [evening("2026-09-11", games=[(40, 30, "1-0F"), (20, 10, "postponed")])]
    players, meetings, *_ = pairing_input_from_season(keizer(PLAYERS, evenings), D("2026-09-18"), ALL)
    assert meetings == [Meeting(20, 10, 1, "winter")]
    assert {p.id: p.colours for p in players} == {40: (), 30: (), 20: ("W",), 10: ("B",)}


def test_an_evening_already_in_the_file_is_paired_as_if_it_had_not_been_played():
    evenings = [
        evening("2026-09-11", games=[(40, 30, "1-0"), (20, 10, "1-0")]),
        evening("2026-09-18", "summer", games=[(40, 20, "1-0"), (30, 10, "1-0")], byes=[]),
        evening("2026-09-25", "summer", games=[(40, 10, "1-0"), (30, 20, "1-0")]),
    ]
    players, meetings, index, half = pairing_input_from_season(keizer(PLAYERS, evenings), D("2026-09-18"), ALL)
    assert (index, half) == (2, "summer")
    assert meetings == [Meeting(40, 30, 1, "winter"), Meeting(20, 10, 1, "winter")]


def test_byes_before_the_evening_are_counted_and_the_lowest_without_one_gets_it():
    evenings = [evening("2026-09-11", games=[(40, 30, "1-0")], byes=[20], absent=[10])]
    season = keizer(PLAYERS, evenings)
    players, *_ = pairing_input_from_season(season, D("2026-09-18"), [40, 30, 20])
    assert {p.id: p.byes for p in players} == {40: 0, 30: 0, 20: 1}
    result = pair_from_season(season, D("2026-09-18"), [40, 30, 20])
    assert result.bye == 30  # classic: the lowest-placed among the fewest byes
    assert [(g.white, g.black) for g in result.games] == [(20, 40)]  # 40 had white


def test_a_drawn_bye_is_reproducible_by_its_seed():
    season = keizer(PLAYERS, [], system="pion")
    first = pair_from_season(season, D("2026-09-11"), [40, 30, 20], seed="club:2026-09-11")
    again = pair_from_season(season, D("2026-09-11"), [40, 30, 20], seed="club:2026-09-11")
    assert first == again and first.bye_drawn_from == (40, 30, 20)


def test_rules_come_from_the_system_preset():
    assert rules_for_system("pion") == PION_RULES
    assert rules_for_system("classic") == CLASSIC_RULES
    assert rules_for_system("ladder").max_meetings_per_half == 2


@pytest.mark.parametrize(
    "present, message",
    [([40, 77], "unknown player id 77 among the players present"),
     ([40, 78, 77], "unknown player ids 77, 78 among the players present"),
     ([40, 30, 40], "player 40 is listed twice among the players present")],
)
def test_players_present_must_be_players_of_the_season_once(present, message):
    with pytest.raises(PairingInputError, match=message):
        pairing_input_from_season(keizer(PLAYERS, []), D("2026-09-11"), present)


def test_a_half_other_than_winter_or_summer_is_refused():
    with pytest.raises(PairingInputError, match="half 'spring'"):
        pairing_input_from_season(keizer(PLAYERS, []), D("2026-09-11"), ALL, half="spring")
