"""Outcome rules, the absence limit, entry of flexible players, the summer start (docs/rules.md 4.1)."""

from fractions import Fraction

from competition.scoring.keizer import compute_keizer_half, compute_keizer_season
from competition.scoring.types import Outcome
from tests.season_factories import evening, keizer_params, player, players

A, B, C, D, E = 1, 2, 3, 4, 5
DATES = [f"2026-{m:02d}-{d:02d}" for m, d in [(9, 4), (9, 11), (9, 18), (9, 25), (10, 2), (10, 9)]]


def _lines(result, player_id):
    return [(line.outcome, line.points, line.over_limit) for line in result.row(player_id).lines]


def _absence_points(result, player_id):
    return [
        (line.points == line.value / 3, line.over_limit)
        for line in result.row(player_id).lines
        if line.outcome == Outcome.ABSENT_WITH_NOTICE
    ]


def test_fourth_absence_with_notice_scores_zero_in_classic() -> None:
    evenings = [evening(d, absent=[A], games=[(B, C, "1-0")]) for d in DATES[:4]]
    result = compute_keizer_half(keizer_params(), evenings, [A, B, C], present_from_start=[A, B, C])
    assert _absence_points(result, A) == [(True, False), (True, False), (True, False), (False, True)]
    assert result.row(A).lines[-1].points == 0
    assert result.row(A).stats.absent_with_notice == 4


def test_sixth_absence_with_notice_scores_zero_in_pion() -> None:
    evenings = [evening(d, absent=[A], games=[(B, C, "1-0")]) for d in DATES]
    result = compute_keizer_half(keizer_params("pion"), evenings, [A, B, C], present_from_start=[A, B, C])
    lines = [line for line in result.row(A).lines]
    assert [line.points == line.value * Fraction(3333, 10000) for line in lines] == [True] * 5 + [False]
    assert lines[-1].points == 0


def test_absence_limit_counts_over_both_halves_in_date_order() -> None:
    winter = [evening(d, "winter", absent=[A], games=[(B, C, "1-0")]) for d in DATES[:2]]
    summer = [evening(d, "summer", absent=[A], games=[(B, C, "1-0")]) for d in DATES[2:4]]
    result = compute_keizer_season(keizer_params(), players(A, B, C), winter + summer)
    assert _absence_points(result["winter"], A) == [(True, False), (True, False)]
    assert _absence_points(result["summer"], A) == [(True, False), (False, True)]


def test_club_duty_scores_like_an_absence_but_does_not_count_against_the_limit() -> None:
    evenings = [
        evening(DATES[0], absent=[A]),
        evening(DATES[1], duty=[A]),
        evening(DATES[2], absent=[A]),
        evening(DATES[3], absent=[A]),  # the third absence: still scores
        evening(DATES[4], duty=[A]),  # club duty has no limit
        evening(DATES[5], absent=[A]),  # the fourth: 0
    ]
    result = compute_keizer_half(keizer_params(), evenings, [A, B], present_from_start=[A, B])
    lines = result.row(A).lines
    assert [line.outcome for line in lines] == [
        Outcome.ABSENT_WITH_NOTICE,
        Outcome.CLUB_DUTY,
        Outcome.ABSENT_WITH_NOTICE,
        Outcome.ABSENT_WITH_NOTICE,
        Outcome.CLUB_DUTY,
        Outcome.ABSENT_WITH_NOTICE,
    ]
    assert [line.points == line.value / 3 for line in lines] == [True] * 5 + [False]
    assert result.row(A).stats.club_duty == 2


def test_no_limit_lets_every_absence_score() -> None:
    evenings = [evening(d, absent=[A]) for d in DATES]
    params = keizer_params(absent_with_notice_limit=None)
    result = compute_keizer_half(params, evenings, [A, B], present_from_start=[A, B])
    assert all(points > 0 for _, points, _ in _lines(result, A))


FORFEIT_PARAMS = {"forfeit_win": {"fixed": 7}, "forfeit_loss": {"fixed": 2}}


def test_forfeit_results_score_forfeit_win_and_forfeit_loss() -> None:
    evenings = [
        evening(DATES[0], games=[(A, B, "1-0F"), (C, D, "0-1F")]),
        evening(DATES[1], games=[(A, B, "0-0F")]),
    ]
    params = keizer_params(**FORFEIT_PARAMS)
    result = compute_keizer_half(params, evenings, [A, B, C, D], present_from_start=[A, B, C, D])
    assert [o for o, _, _ in _lines(result, A)] == [Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS]
    assert {row.player_id: row.total for row in result.standings} == {A: 9, B: 4, C: 2 + 0, D: 7 + 0}
    stats = result.row(A).stats
    assert (stats.games, stats.forfeit_wins, stats.forfeit_losses, stats.whites) == (0, 1, 1, 0)


def test_forfeit_defaults_score_as_bye_and_as_absent_without_notice() -> None:
    evenings = [evening(DATES[0], games=[(A, B, "1-0F")])]
    result = compute_keizer_half(keizer_params(), evenings, [A, B], present_from_start=[A, B])
    assert result.row(A).total == Fraction(2, 3) * 60
    assert result.row(B).total == 0


def test_postponed_game_scores_nothing_and_is_not_an_absence() -> None:
    params = keizer_params(absent_without_notice={"fixed": 3})
    evenings = [evening(DATES[0], games=[(A, B, "postponed")])]
    result = compute_keizer_half(params, evenings, [A, B, C], present_from_start=[A, B, C])
    assert _lines(result, A) == [(Outcome.POSTPONED, 0, False)]
    assert result.row(C).total == 3  # C was not mentioned: absent without notice
    assert (result.row(A).stats.postponed, result.row(A).stats.absent_without_notice) == (1, 0)


def test_flexible_player_enters_at_his_first_evening_below_the_standings_by_start() -> None:
    # A, B fixed; C and D flexible, entering together at evening 2 (lagging, hand-checked).
    evenings = [
        evening(DATES[0], games=[(A, B, "1-0")]),
        evening(DATES[1], games=[(A, D, "1-0"), (B, C, "1-0")]),
    ]
    params = keizer_params(method="lagging")
    result = compute_keizer_half(params, evenings, [A, B, C, D], present_from_start=[A, B])
    first, second = result.history
    assert [row.player_id for row in first.rows] == [A, B]
    # evening 2 values: A 60, B 59, then C 58, D 57 below by starting position
    assert [(row.player_id, row.total) for row in second.rows] == [(A, 59 + 57), (B, 58), (C, 0), (D, 0)]
    assert [line.date.isoformat() for line in result.row(D).lines] == [DATES[1]]


def test_flexible_player_enters_with_an_absence_with_notice_or_club_duty() -> None:
    evenings = [evening(DATES[0], games=[(A, B, "1-0")]), evening(DATES[1], absent=[C], duty=[D])]
    result = compute_keizer_half(keizer_params(), evenings, [A, B, C, D], present_from_start=[A, B])
    assert {row.player_id for row in result.standings} == {A, B, C, D}


def test_flexible_player_never_mentioned_is_not_in_the_standings() -> None:
    evenings = [evening(DATES[0], games=[(A, B, "1-0")])]
    result = compute_keizer_half(keizer_params(), evenings, [A, B, C], present_from_start=[A, B])
    assert [row.player_id for row in result.standings] == [A, B]


def test_fixed_player_not_mentioned_is_absent_without_notice() -> None:
    evenings = [evening(DATES[0], games=[(A, B, "1-0")])]
    result = compute_keizer_half(keizer_params(), evenings, [A, B, C], present_from_start=[A, B, C])
    assert _lines(result, C) == [(Outcome.ABSENT_WITHOUT_NOTICE, 0, False)]
    assert result.row(C).stats.absent_without_notice == 1


def test_summer_starts_from_the_final_winter_standings_then_new_players_by_start() -> None:
    roster = (player(A), player(B), player(C), player(E, start=0, fixed=False), player(D, fixed=False))
    winter = [evening(DATES[0], "winter", games=[(C, A, "1-0")], byes=[B])]
    summer = [evening(DATES[1], "summer", games=[(D, E, "1-0")])]
    result = compute_keizer_season(keizer_params(), roster, winter + summer)
    winter_order = [row.player_id for row in result["winter"].standings]
    assert winter_order[0] == C
    # E has the best `start` but is new in summer: after the winter players.
    assert result["summer"].starting_order == (*winter_order, E, D)
    # Winter players are in the summer standings from its first evening, absent or not.
    assert {row.player_id for row in result["summer"].history[0].rows} == {A, B, C, D, E}
    assert result["summer"].row(A).stats.absent_without_notice == 1


def test_summer_scores_start_at_zero() -> None:
    winter = [evening(DATES[0], "winter", games=[(A, B, "1-0")])]
    summer = [evening(DATES[1], "summer", games=[(B, A, "1-0")])]
    result = compute_keizer_season(keizer_params(), players(A, B), winter + summer)
    assert result["summer"].row(A).total == 0
    assert [line.date.isoformat() for line in result["summer"].row(B).lines] == [DATES[1]]


def test_statistics_count_colours_and_played_games() -> None:
    evenings = [
        evening(DATES[0], games=[(A, B, "1-0")]),
        evening(DATES[1], games=[(A, B, "1/2-1/2")]),
        evening(DATES[2], games=[(B, A, "1-0")], byes=[C]),
    ]
    result = compute_keizer_half(keizer_params(), evenings, [A, B, C], present_from_start=[A, B, C])
    stats = result.row(A).stats
    assert (stats.games, stats.won, stats.drawn, stats.lost) == (3, 1, 1, 1)
    assert (stats.whites, stats.blacks, stats.colour_balance) == (2, 1, 1)
    assert stats.percentage == 50
    assert stats.game_points == Fraction(3, 2)
    assert result.row(C).stats.byes == 1
    assert result.row(C).stats.percentage is None
