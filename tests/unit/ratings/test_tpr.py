"""Performance rating as FIDE defines it: ARO + dp(p)."""

from fractions import Fraction

import pytest

from competition.ratings.engine.tpr import RatedGame, dp, performance

W, D, L = Fraction(1), Fraction(1, 2), Fraction(0)


@pytest.mark.parametrize(("score", "expected"), [
    (Fraction(1, 2), 0), (Fraction(1), 800), (Fraction(0), -800), (Fraction(3, 4), 193),
    (Fraction(1, 4), -193), (Fraction(2, 3), 125), (Fraction(99, 100), 677),
])
def test_dp_follows_fides_table(score, expected):
    assert dp(score) == expected


def test_tpr_is_average_opponent_rating_plus_dp():
    games = [RatedGame(1800, W), RatedGame(1900, D), RatedGame(2000, D), RatedGame(1700, W)]
    # ARO 1850, p = 3/4 -> dp 193
    assert performance(games) == 2043


def test_aro_is_rounded_half_up():
    assert performance([RatedGame(1801, D), RatedGame(1800, D)]) == 1801


def test_games_against_unrated_opponents_do_not_count():
    assert performance([RatedGame(None, W), RatedGame(1600, D)]) == 1600


def test_no_rated_game_gives_no_tpr():
    assert performance([RatedGame(None, W)]) is None
    assert performance([]) is None


def test_a_score_outside_zero_and_one_is_refused():
    with pytest.raises(ValueError):
        dp(Fraction(3, 2))
