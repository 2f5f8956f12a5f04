"""The fixpoint on matrix arithmetic gives the plain loop's results bit for bit, and an
explained total after a cycle is the average over the cycle's orders (docs/rules.md 4.1)."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from competition.scoring.fixpoint import TotalsMatrix
from competition.scoring.keizer import compute_keizer_season
from competition.scoring.types import KeizerParams, Outcome
from tests.generate import random_season


def _both(season, **kwargs):
    assert isinstance(season.params, KeizerParams)
    args = (season.params, season.players, season.evenings)
    return (
        compute_keizer_season(*args, engine="matrix", **kwargs),
        compute_keizer_season(*args, engine="python", **kwargs),
    )


@settings(max_examples=120, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2, 30),
    st.integers(1, 12),
    st.sampled_from(["pion", "classic", "keizer1956"]),
    st.booleans(),
)
# a cycle on the first evening with players outside the standings: the iterations of the
# next evening counted alike (the matrix once listed those outside in another order)
@example(362, 5, 3, "pion", False)
def test_the_matrix_fixpoint_equals_the_plain_loop(seed, size, length, system, chaotic) -> None:
    season = random_season(seed, size, length, system, {"method": "fixpoint"}, chaotic=chaotic)
    matrix, python = _both(season)
    assert matrix == python


@pytest.mark.parametrize(("system", "seed", "narrow"), [("classic", 11, True), ("pion", 0, False)])
def test_the_fixpoint_in_single_and_in_double_precision_equals_the_plain_loop(system, seed, narrow, monkeypatch) -> None:
    # classic's numbers are small: every recalculation runs on float32 keys; pion's unit
    # (1/10000) makes its keys too large for them: float64 (docs/standings.md, "How fast")
    used = []
    plain = TotalsMatrix._narrow

    def spy(self, bound):
        found = plain(self, bound)
        used.append(found is not None)
        return found

    monkeypatch.setattr(TotalsMatrix, "_narrow", spy)
    season = random_season(seed, 60, 16, system, chaotic=True)
    matrix, python = _both(season)
    assert used and set(used) == {narrow}
    # a long cycle among them (its orders' values summed in one bincount)
    assert max(e.cycle_orders for h in matrix.values() for e in h.history) > 4
    assert matrix == python


def test_float32_keys_are_used_only_while_exact() -> None:
    grid = TotalsMatrix(3, 60, 1)
    grid.add_terms([0, 1, 2], [1, 2, 0], [6, 6, 6], [], [])
    grid._sync([0, 1, 2])
    assert grid._narrow(grid._bound(3)) is not None
    assert grid._narrow(2**23 // 3 - 1) is not None  # 3 × (bound + 1) just below 2**23
    assert grid._narrow(2**23 // 3) is None  # 3 × (bound + 1) reaches it


@pytest.mark.parametrize("seed", range(3))
def test_the_matrix_fixpoint_equals_the_plain_loop_in_a_large_cycling_season(seed) -> None:
    season = random_season(seed, 60, 12, "pion", chaotic=True)
    matrix, python = _both(season)
    assert sum(e.cycle for h in matrix.values() for e in h.history) > 0
    assert matrix == python


def test_the_matrix_fixpoint_honours_the_iteration_limit_like_the_plain_loop() -> None:
    season = random_season(5, 40, 8, "classic", chaotic=True)
    assert isinstance(season.params, KeizerParams)
    from competition.scoring.keizer import compute_keizer_half, winter_starting_order

    winter = [e for e in season.evenings if e.half == "winter"]
    start = winter_starting_order(season.players)
    fixed = [p.id for p in season.players if p.fixed]
    results = [
        compute_keizer_half(season.params, winter, start, present_from_start=fixed, max_iterations=3, engine=e)
        for e in ("matrix", "python")
    ]
    assert any(entry.cycle_orders == 2 for entry in results[0].history)
    assert results[0] == results[1]


def test_numbers_too_large_for_exact_floats_fall_back_to_the_plain_loop() -> None:
    # The administrator's form refuses such a top value (params: at most 10^9); the
    # engine must still be exact if it is ever handed one.
    season = random_season(7, 12, 6, "classic", {"method": "fixpoint"}, chaotic=True)
    assert isinstance(season.params, KeizerParams)
    season = replace(season, params=replace(season.params, top=Fraction(10**16)))
    matrix, python = _both(season)
    assert matrix == python
    grid = TotalsMatrix(2, 10**16, 1)
    grid.add_value(0, 1, 6)
    assert grid.recalculate([0, 1], (0, 1), 10) is None


def test_after_a_cycle_each_line_is_the_average_over_the_cycle_and_the_lines_sum_to_the_total() -> None:
    for seed in range(50):
        season = random_season(seed, 10, 8, "pion")
        assert isinstance(season.params, KeizerParams)
        halves = compute_keizer_season(season.params, season.players, season.evenings)
        cycled = [h for h in halves.values() if h.cycle]
        if cycled:
            break
    half = cycled[0]
    assert half.cycle_orders >= 2
    for row in half.standings:
        assert sum(line.points for line in row.lines) == row.total
        for line in row.lines:
            if line.outcome == Outcome.LOSS:
                assert line.points == Fraction(5)  # fixed points stay as they are
            if line.outcome == Outcome.WIN and line.value is not None:
                assert line.points == line.value  # a win: 1 × the average opponent value


def test_terms_added_at_once_count_each_even_when_a_pair_repeats() -> None:
    grid = TotalsMatrix(3, 60, 1)
    grid.add_terms([0, 0, 1], [1, 1, 0], [6, 6, 3], [2, 2], [5, 5])
    grid.add_value(0, 1, 6)
    assert (grid.coef[0, 1], grid.coef[1, 0], grid.const[2]) == (18, 3, 10)


def test_sums_beyond_int64_are_checked_exactly_per_player() -> None:
    # Everything added together passes 2**53 and 2**62, each player's own sum does not: still exact.
    grid = TotalsMatrix(3, 1, 0)
    grid.add_terms([0, 1], [1, 0], [2**61, -(2**61)], [2], [2**61 - 1])
    grid.add_value(1, 1, 1)
    assert (int(grid.coef[0, 1]), int(grid.coef[1, 0]), int(grid.coef[1, 1]), int(grid.const[2])) == (
        2**61, -(2**61), 1, 2**61 - 1
    )
    assert grid.usable
    # One player's sum reaches 2**62: the plain loop from now on.
    grid.add_value(0, 2, 2**61)
    assert not grid.usable
    assert grid.recalculate([0, 1, 2], (0, 1, 2), 10) is None
    with pytest.raises(ValueError, match="every term needs"):
        TotalsMatrix(2, 1, 0).add_terms([0], [1], [], [], [])


def _state(grid: TotalsMatrix) -> tuple:
    return (
        grid.coef.tolist(), grid.const.tolist(), grid._abs_coef.tolist(), grid._abs_const.tolist(),
        grid._total_abs, grid._max_abs_coef, grid._max_abs_const, grid.usable,
    )


_AMOUNTS = st.sampled_from([-(2**61), -7, 0, 3, 2**40, 2**52, 2**61, 2**70])  # (2**70: beyond int64)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), _AMOUNTS), max_size=4),
    st.lists(st.tuples(st.integers(0, 3), _AMOUNTS), max_size=3),
), max_size=6), st.integers(0, 6))
def test_prepared_batches_add_up_as_added_one_by_one(raw, upto) -> None:
    # Small and large numbers alike: past 2**53 (and 2**62) the prepared batches are added
    # the slow, checked way; every step leaves the matrix as add_terms does.
    batches = [([r for r, _, _ in terms], [o for _, o, _ in terms], [c for _, _, c in terms],
                [p for p, _ in fixed], [a for _, a in fixed]) for terms, fixed in raw]
    one_by_one, prepared = TotalsMatrix(4, 60, 1), TotalsMatrix(4, 60, 1)
    prepared.prepare(batches)
    for j, batch in enumerate(batches[: min(upto, len(batches))]):
        one_by_one.add_terms(*batch)
        prepared.add_prepared(j + 1)
        assert _state(prepared) == _state(one_by_one)
    prepared.add_prepared(len(batches))  # the rest at once
    for batch in batches[min(upto, len(batches)):]:
        one_by_one.add_terms(*batch)
    assert _state(prepared) == _state(one_by_one)


def test_a_batch_added_directly_after_prepare_keeps_the_sums_exact() -> None:
    one_by_one, prepared = TotalsMatrix(2, 60, 1), TotalsMatrix(2, 60, 1)
    batches = [([0], [1], [5], [1], [7]), ([1], [0], [-3], [], [])]
    prepared.prepare(batches)
    prepared.add_prepared(1)
    prepared.add_terms([0], [0], [2**52], [], [])
    prepared.add_prepared(2)
    for batch in (batches[0], ([0], [0], [2**52], [], []), batches[1]):
        one_by_one.add_terms(*batch)
    assert _state(prepared) == _state(one_by_one)
    with pytest.raises(ValueError, match="every term needs"):
        TotalsMatrix(2, 1, 0).prepare([([0], [1], [], [], [])])
