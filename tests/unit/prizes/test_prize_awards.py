"""The prizes of a half (docs/rules.md 6): winter medals and best of the rest, summer champion,
the ladder's season prizes. One prize per player per half."""

from __future__ import annotations

from fractions import Fraction

from competition.prizes.engine.awards import (
    game_score,
    ladder_prizes,
    playoff_players,
    summer_prizes,
    winter_prizes,
)
from competition.scoring.types import LadderStanding, PlayerStats, Standing


def row(player_id: int, **stats: int) -> Standing:
    """Player `player_id` placed `player_id`-th."""
    return Standing(player_id, player_id, Fraction(100 - player_id), Fraction(60), PlayerStats(**stats))


def awarded(prizes: tuple) -> dict[str, int]:
    return {p.prize: p.player_id for p in prizes}


def test_winter_medals_go_to_the_first_three_and_best_of_rest_to_the_best_game_score() -> None:
    standings = [row(1, won=5), row(2, won=5), row(3, won=5), row(4, won=3), row(5, won=6)]
    assert awarded(winter_prizes(standings, {1, 2, 3, 4, 5})) == {
        "champion": 1,
        "silver": 2,
        "bronze": 3,
        "best_of_rest": 5,
    }


def test_an_ineligible_first_place_is_skipped_and_the_next_eligible_is_champion() -> None:
    standings = [row(1, won=9), row(2, won=5), row(3, won=5), row(4, won=5), row(5, won=1)]
    prizes = awarded(winter_prizes(standings, {2, 3, 4, 5}))
    assert prizes == {"champion": 2, "silver": 3, "bronze": 4, "best_of_rest": 5}
    assert 1 not in prizes.values()


def test_an_ineligible_best_game_scorer_gets_nothing() -> None:
    standings = [row(1), row(2), row(3), row(4, won=2), row(5, won=9)]
    assert awarded(winter_prizes(standings, {1, 2, 3, 4}))["best_of_rest"] == 4


def test_a_champion_who_is_also_the_best_game_scorer_gets_only_champion() -> None:
    standings = [row(1, won=9), row(2, won=2), row(3, won=2), row(4, won=3), row(5, won=4)]
    prizes = winter_prizes(standings, {1, 2, 3, 4, 5})
    assert awarded(prizes) == {"champion": 1, "silver": 2, "bronze": 3, "best_of_rest": 5}
    assert [p.player_id for p in prizes].count(1) == 1


def test_a_tie_for_best_of_the_rest_goes_to_the_higher_standings_place() -> None:
    standings = [row(1), row(2), row(3), row(4, won=2), row(5, won=3), row(6, won=2, drawn=2)]
    assert awarded(winter_prizes(standings, {1, 2, 3, 4, 5, 6}))["best_of_rest"] == 5


def test_game_score_counts_forfeit_wins_and_half_points_for_draws() -> None:
    assert game_score(PlayerStats(won=2, drawn=3, lost=4, forfeit_wins=1)) == Fraction(9, 2)
    standings = [row(1), row(2), row(3), row(4, won=3), row(5, won=2, forfeit_wins=1, drawn=1)]
    assert awarded(winter_prizes(standings, {1, 2, 3, 4, 5}))["best_of_rest"] == 5


def test_few_eligible_players_leave_prizes_unawarded() -> None:
    standings = [row(1), row(2), row(3)]
    assert awarded(winter_prizes(standings, {3})) == {"champion": 3}
    assert winter_prizes(standings, set()) == ()


def test_summer_champion_is_the_first_eligible_and_every_eligible_player_has_a_playoff_place() -> None:
    standings = [row(1), row(2), row(3), row(4)]
    assert awarded(summer_prizes(standings, {2, 3, 4})) == {"summer_champion": 2}
    assert playoff_players(standings, {4, 2, 3}) == (2, 3, 4)
    assert summer_prizes(standings, set()) == ()


def test_ladder_season_prizes_need_eligibility() -> None:
    zero = Fraction(0)
    standings = [
        LadderStanding(rank, rank, rank, 1, zero, zero, zero, zero, PlayerStats()) for rank in range(1, 6)
    ]
    assert awarded(ladder_prizes(standings, {1, 3, 4, 5})) == {"champion": 1, "silver": 3, "bronze": 4}
