"""The three recalculation methods on one hand-checked example (classic, top 60, step 1).

A, B, C start 1, 2, 3, all fixed.
Evening 1: B beats A, C has the bye.  Evening 2: C beats B, A has the bye.
"""

from fractions import Fraction

import pytest

from competition.scoring.keizer import compute_keizer_half, compute_keizer_season
from competition.scoring.types import Outcome
from tests.season_factories import evening, keizer_params, players

A, B, C = 1, 2, 3
EVENINGS = [
    evening("2026-09-04", games=[(B, A, "1-0")], byes=[C]),
    evening("2026-09-11", games=[(C, B, "1-0")], byes=[A]),
]


def _standings(method: str, **overrides: object) -> list[list[tuple[int, Fraction]]]:
    params = keizer_params("classic", method=method, **overrides)
    half = compute_keizer_half(params, EVENINGS, [A, B, C], present_from_start=[A, B, C])
    return [[(row.player_id, row.total) for row in e.rows] for e in half.history]


def test_fixpoint_rescores_all_evenings_until_the_order_stays() -> None:
    # Evening 1 from A,B,C: B 60, C 2/3×58, A 0 -> order B,C,A -> B 58, C 2/3×59: stable.
    # Evening 2 from B,C,A: C 2/3×59+60 -> order C,B,A -> C 2/3×60+59 = 99, B 58, A 2/3×58.
    assert _standings("fixpoint") == [
        [(B, 58), (C, Fraction(118, 3)), (A, 0)],
        [(C, 99), (B, 58), (A, Fraction(116, 3))],
    ]


def test_lagging_scores_everything_with_the_previous_standings_values() -> None:
    # Evening 1 with the starting order; evening 2 with the standings B,C,A (60,59,58).
    assert _standings("lagging") == [
        [(B, 60), (C, Fraction(116, 3)), (A, 0)],
        [(C, Fraction(118, 3) + 60), (B, 58), (A, Fraction(116, 3))],
    ]


def test_frozen_never_rescores_an_earlier_evening() -> None:
    # B keeps the 60 of evening 1; C keeps 2/3×58 and adds 60 (B's value before evening 2).
    assert _standings("frozen") == [
        [(B, 60), (C, Fraction(116, 3)), (A, 0)],
        [(C, Fraction(116, 3) + 60), (B, 60), (A, Fraction(116, 3))],
    ]


def test_own_value_added_once_with_the_values_used_keizer_1956() -> None:
    # lagging at evening 2 uses B 60, C 59, A 58; each adds his own value once.
    assert _standings("lagging", own_value_added=True)[-1] == [
        (C, Fraction(118, 3) + 60 + 59),
        (B, 58 + 60),
        (A, Fraction(116, 3) + 58),
    ]


def test_own_value_line_is_part_of_the_explanation() -> None:
    params = keizer_params("keizer1956")
    half = compute_keizer_half(params, EVENINGS, [A, B, C], present_from_start=[A, B, C])
    row = half.row(B)
    assert row.lines[-1].outcome == Outcome.OWN_VALUE
    assert row.lines[-1].points == 50  # top 50: B led after evening 1
    assert sum(line.points for line in row.lines) == row.total


@pytest.mark.parametrize("method", ["fixpoint", "lagging", "frozen"])
def test_explanation_lines_sum_to_the_total_in_every_method(method: str) -> None:
    params = keizer_params("classic", method=method)
    half = compute_keizer_half(params, EVENINGS, [A, B, C], present_from_start=[A, B, C])
    for row in half.standings:
        assert sum(line.points for line in row.lines) == row.total
        assert [line.date for line in row.lines] == [e.date for e in EVENINGS]


def test_frozen_lines_show_the_value_of_their_own_evening() -> None:
    params = keizer_params("classic", method="frozen")
    half = compute_keizer_half(params, EVENINGS, [A, B, C], present_from_start=[A, B, C])
    first, second = half.row(C).lines
    assert (first.outcome, first.value, first.points) == (Outcome.BYE, 58, Fraction(116, 3))
    assert (second.outcome, second.opponent, second.value, second.points) == (Outcome.WIN, B, 60, 60)


def test_season_without_summer_evenings_has_only_a_winter_half() -> None:
    result = compute_keizer_season(keizer_params(), players(A, B, C), EVENINGS)
    assert list(result) == ["winter"]
    assert result["winter"].cycle is False
