"""The ladder in integer units equals the ladder in Fractions (the naive reference,
bench/naive.py) exactly (docs/rules.md 4.2)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.naive import compute_ladder as compute_ladder_reference
from competition.scoring.ladder import compute_ladder
from competition.scoring.types import LadderParams
from tests.generate import random_season
from tests.season_factories import evening, ladder_params, players

overrides = st.sampled_from(
    [None, {"bonus": 0.5}, {"bonus_for_bye": True}, {"bonus_for_club_duty": False}, {"place_factor": "1/3"}]
)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.integers(1, 12), overrides, st.booleans())
def test_the_integer_ladder_equals_the_fraction_ladder(seed, size, length, changes, history) -> None:
    season = random_season(seed, size, length, "ladder", changes)
    assert isinstance(season.params, LadderParams)
    args = (season.params, season.players, season.evenings)
    assert compute_ladder(*args, history=history) == compute_ladder_reference(*args, history=history)


def test_start_points_of_any_denominator_are_exact() -> None:
    people = tuple(
        type(p)(p.id, p.name, p.rating, p.start, p.fixed, Fraction(1, 7) * p.id) for p in players(1, 2, 3)
    )
    evenings = [evening("2026-10-02", None, games=[(1, 3, "1-0")], byes=[2])]
    result = compute_ladder(ladder_params(), people, evenings)
    assert result == compute_ladder_reference(ladder_params(), people, evenings)
    # 1 beats 3, two places lower: 3 - 0.14, plus the bonus 0.3
    assert result.row(1).points == Fraction(1, 7) + Fraction(3) - Fraction(14, 100) + Fraction(3, 10)


@pytest.mark.parametrize(
    ("problem", "message"),
    [("unknown", "unknown player in evening 2026-10-02"), ("twice", "player 1 appears twice in evening 2026-10-02")],
)
def test_bad_evenings_are_refused_with_the_evening_named(problem, message) -> None:
    games = [(1, 9, "1-0")] if problem == "unknown" else [(1, 2, "1-0")]
    byes = [1] if problem == "twice" else []
    bad = [evening("2026-10-02", None, games=games, byes=byes)]
    with pytest.raises(ValueError, match=message):
        compute_ladder(ladder_params(), players(1, 2), bad)
