"""The cross table and the results by evening of a half (competition.scoring.crosstable):
pure functions over player ids, games and explanation lines."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

from competition.scoring.crosstable import (
    CrossGame,
    EveningLine,
    cross_table,
    evening_matrix,
)

D1, D2, D3 = dt.date(2026, 9, 11), dt.date(2026, 9, 18), dt.date(2026, 9, 25)


def cells_of(rows, player):
    return next(r for r in rows if r.player == player).cells


def test_a_game_appears_in_both_rows_with_opposite_scores_and_colours():
    rows = cross_table([3, 1, 2], [CrossGame(D1, 1, 2, "1-0")])
    (white,) = cells_of(rows, 1)[2]  # column 3: player 2
    (black,) = cells_of(rows, 2)[1]  # column 2: player 1
    assert (white.score, white.colour, white.kind) == ("1", "w", "win")
    assert (black.score, black.colour, black.kind) == ("0", "b", "loss")


def test_rows_and_columns_follow_the_given_order_and_the_diagonal_is_empty():
    rows = cross_table([3, 1, 2], [CrossGame(D1, 1, 2, "1/2-1/2")])
    assert [r.player for r in rows] == [3, 1, 2] and [r.place for r in rows] == [1, 2, 3]
    for r in rows:
        assert r.cells[r.place - 1] == ()
    assert cells_of(rows, 3) == ((), (), ())


def test_forfeits_are_plus_and_minus_and_score_no_game_points():
    rows = cross_table([1, 2, 3, 4], [CrossGame(D1, 1, 2, "0-1F"), CrossGame(D1, 3, 4, "0-0F")])
    assert cells_of(rows, 1)[1][0].score == "−" and cells_of(rows, 2)[0][0].score == "+"
    assert cells_of(rows, 3)[3][0].score == "−" and cells_of(rows, 4)[2][0].score == "−"
    assert all(r.game_points == 0 and r.played == 0 for r in rows)


def test_a_postponed_game_is_shown_without_a_score():
    rows = cross_table([1, 2], [CrossGame(D1, 1, 2, "postponed")])
    (cell,) = cells_of(rows, 1)[1]
    assert (cell.kind, cell.score) == ("postponed", "")
    assert rows[0].played == 0


def test_two_meetings_share_a_cell_in_date_order_and_game_points_add_up():
    games = [CrossGame(D2, 2, 1, "1-0"), CrossGame(D1, 1, 2, "1/2-1/2")]
    rows = cross_table([1, 2], games)
    first, second = cells_of(rows, 1)[1]
    assert (first.date, first.score, first.colour) == (D1, "½", "w")
    assert (second.date, second.score, second.colour) == (D2, "0", "b")
    assert rows[0].game_points == Fraction(1, 2) and rows[1].game_points == Fraction(3, 2)
    assert rows[0].played == rows[1].played == 2


def test_a_game_with_a_player_outside_the_standings_is_left_out():
    rows = cross_table([1, 2], [CrossGame(D1, 1, 9, "1-0")])
    assert rows[0].games == () and rows[0].game_points == 0


def line(day, outcome, points, opponent=None, over_limit=False):
    return EveningLine(day, outcome, opponent, Decimal(points), over_limit)


def test_matrix_has_a_column_per_evening_and_a_dash_before_a_player_entered():
    lines = {
        1: [line(D1, "win", "59.00", 2), line(D2, "absent_with_notice", "20.00"),
            line(D3, "bye", "60.00")],
        2: [line(D1, "loss", "5.00", 1), line(D2, "club_duty", "19.67"),
            line(D3, "absent_without_notice", "0.00")],
        3: [line(D3, "absent_with_notice", "0.00", over_limit=True)],
    }
    matrix = evening_matrix([1, 2, 3], lines, {(D1, 1): "w", (D1, 2): "b"})
    assert matrix.dates == (D1, D2, D3)
    one, two, three = matrix.rows
    assert [c.outcome for c in one.cells] == ["win", "absent_with_notice", "bye"]
    assert one.cells[0].colour == "w" and two.cells[0].colour == "b"
    assert one.cells[1].colour is None  # no game, no colour
    assert [c.points for c in two.cells] == [Decimal("5.00"), Decimal("19.67"), Decimal("0.00")]
    assert three.cells[0].outcome is None and three.cells[1].outcome is None
    assert three.cells[2].over_limit
    assert not matrix.has_extra


def test_matrix_keeps_the_1956_own_value_apart_from_the_evenings():
    lines = {1: [line(None, "own_value", "60.00"), line(D1, "draw", "29.50", 2)],
             2: [line(None, "own_value", "59.00"), line(D1, "draw", "30.00", 1)]}
    matrix = evening_matrix([1, 2], lines, {})
    assert matrix.dates == (D1,)
    assert matrix.has_extra and [r.extra for r in matrix.rows] == [Decimal("60.00"), Decimal("59.00")]
