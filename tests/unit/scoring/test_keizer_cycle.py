"""Fixpoint recalculation: convergence, cycles and their settlement (docs/rules.md 4.1)."""

from fractions import Fraction

from competition.scoring.keizer import (
    compute_keizer_half,
    score_with_order,
    winter_starting_order,
)
from competition.scoring.types import EveningStandings, HalfResult, KeizerParams
from tests.generate import random_season


def _winter(seed: int, size: int = 8, evenings: int = 6) -> tuple[KeizerParams, HalfResult, list]:
    season = random_season(seed, players=size, evenings=2 * evenings)
    params = season.params
    assert isinstance(params, KeizerParams)
    winter = [e for e in season.evenings if e.half == "winter"]
    start = winter_starting_order(season.players)
    fixed = [p.id for p in season.players if p.fixed]
    return params, compute_keizer_half(params, winter, start, present_from_start=fixed), [winter, start, fixed]


def _first_cycle(max_seed: int = 500) -> tuple[int, int]:
    for seed in range(max_seed):
        _, result, _ = _winter(seed)
        for k, entry in enumerate(result.history):
            if entry.cycle and k > 0:
                return seed, k
    raise AssertionError("no cycle found")


def _iterate(params, evenings, start, fixed, order, limit=1000):
    """The rule, spelled out with one scoring step at a time."""
    seen: list[tuple[int, ...]] = [tuple(order)]
    totals_seen = []
    position = {p: i for i, p in enumerate(start)}
    while True:
        scored = score_with_order(params, evenings, list(order), starting_order=start, present_from_start=fixed)
        totals = {p: t for p, (t, _) in scored.items()}
        totals_seen.append(totals)
        new = tuple(sorted(totals, key=lambda p: (-totals[p], position[p])))
        if new == tuple(order):
            return new, totals, 0
        if new in seen:
            cycle = totals_seen[seen.index(new) :]
            average = {p: sum(t[p] for t in cycle) / len(cycle) for p in totals}
            final = tuple(sorted(average, key=lambda p: (-average[p], position[p])))
            return final, average, len(cycle)
        seen.append(new)
        order = new


def _start_of_evening(previous: EveningStandings, current: EveningStandings, start: list[int]) -> list[int]:
    before = [row.player_id for row in previous.rows]
    new = sorted({row.player_id for row in current.rows} - set(before), key=start.index)
    return before + new


def test_a_cycle_is_settled_by_the_average_total_over_the_cycle() -> None:
    seed, k = _first_cycle()
    params, result, (winter, start, fixed) = _winter(seed)
    order = _start_of_evening(result.history[k - 1], result.history[k], start)
    final, average, orders = _iterate(params, winter[: k + 1], start, fixed, order)
    entry = result.history[k]
    assert orders >= 2 and entry.cycle and entry.cycle_orders == orders
    assert [row.player_id for row in entry.rows] == list(final)
    # The total shown is the average that decided the order, exactly.
    assert {row.player_id: row.total for row in entry.rows} == average


def test_after_a_cycle_the_values_are_those_of_the_settled_order() -> None:
    seed, k = _first_cycle()
    params, result, _ = _winter(seed)
    for rank, row in enumerate(result.history[k].rows, start=1):
        assert row.value == params.top - params.step * (rank - 1)


def test_without_a_cycle_the_order_is_a_fixpoint_of_the_recalculation() -> None:
    params, result, (winter, start, fixed) = _winter(1)
    for k, entry in enumerate(result.history):
        if entry.cycle:
            continue
        order = [row.player_id for row in entry.rows]
        scored = score_with_order(params, winter[: k + 1], order, starting_order=start, present_from_start=fixed)
        assert {p: t for p, (t, _) in scored.items()} == {row.player_id: row.total for row in entry.rows}
        position = {p: i for i, p in enumerate(start)}
        assert order == sorted(order, key=lambda p: (-scored[p][0], position[p]))


def test_the_half_reports_whether_its_last_recalculation_cycled() -> None:
    seed, k = _first_cycle()
    params, _, (winter, start, fixed) = _winter(seed)
    upto = compute_keizer_half(params, winter[: k + 1], start, present_from_start=fixed)
    assert upto.cycle is True
    assert upto.history[-1].cycle is True


def test_after_the_iteration_limit_the_last_two_orders_are_settled_alike() -> None:
    # Find an evening that needs at least three iterations; allow only two.
    for seed in range(200):
        params, result, (winter, start, fixed) = _winter(seed)
        slow = [k for k, e in enumerate(result.history) if e.iterations >= 3 and k > 0]
        if slow:
            break
    k = slow[0]
    limited = compute_keizer_half(params, winter[: k + 1], start, present_from_start=fixed, max_iterations=2)
    # Earlier evenings may settle differently once limited: start from `limited`.
    order = _start_of_evening(limited.history[k - 1], limited.history[k], start)
    position = {p: i for i, p in enumerate(start)}

    def totals_of(o):
        s = score_with_order(params, winter[: k + 1], list(o), starting_order=start, present_from_start=fixed)
        return {p: t for p, (t, _) in s.items()}

    first = totals_of(order)
    second_order = sorted(first, key=lambda p: (-first[p], position[p]))
    second = totals_of(second_order)
    average = {p: (first[p] + second[p]) / 2 for p in first}
    expected = sorted(average, key=lambda p: (-average[p], position[p]))
    entry = limited.history[k]
    assert entry.cycle is True and entry.cycle_orders == 2
    assert [row.player_id for row in entry.rows] == expected
    assert {row.player_id: row.total for row in entry.rows} == average


def test_cycles_are_common_in_generated_seasons_and_always_flagged() -> None:
    flagged = 0
    for seed in range(30):
        _, result, _ = _winter(seed)
        flagged += sum(entry.cycle for entry in result.history)
    assert flagged > 0


def test_totals_and_values_are_exact_fractions() -> None:
    _, result, _ = _winter(3)
    assert all(isinstance(row.total, Fraction) for row in result.standings)
    assert all(isinstance(row.value, Fraction) for row in result.standings)
