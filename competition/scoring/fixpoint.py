"""The Keizer fixpoint recalculation as matrix arithmetic (numpy), exact.

In the engine's integer units a player's total is linear in the values:
`total[p] = const[p] + Σ_q coef[p, q] × value[q]`, where `coef[p, q]` gathers every
factor of q's value that p scored (own-value outcomes on the diagonal). One iteration
of the recalculation is then one matrix-vector product and one sort.

Exactness: float64 holds every integer below 2**53 exactly, and so does every partial
sum of the product while `|const| + Σ|coef| × max|value|` stays below that bound (checked
before each recalculation; above it the caller uses the plain loop). The float product
only decides the orders; the totals and values returned are recomputed in integers.
The results equal the plain loop's (`keizer._recalculate`) bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

EXACT = 2**53  # float64 represents every integer of smaller magnitude exactly
INT64 = 2**62  # a safe ceiling for int64 sums

Order = tuple[int, ...]


@dataclass(frozen=True)
class Recalculation:
    """The outcome of one recalculation. Without a cycle `totals` and `values` are those
    of the final order and `orders` is 1; with a cycle they are summed over the cycle's
    `orders` orders (divide by `orders` for the average)."""

    order: Order
    totals: list[int]
    orders: int
    values: list[int]
    cycle: bool
    iterations: int


class TotalsMatrix:
    """The running totals of a half as `const + coef @ values`, in integer units."""

    def __init__(self, size: int, top: int, step: int) -> None:
        self.size = size
        self.top = top
        self.step = step
        self.coef = np.zeros((size, size), dtype=np.int64)
        self.const = np.zeros(size, dtype=np.int64)
        self._abs_coef = [0] * size  # Σ|coef| per row, as Python ints: the exactness bound
        self._abs_const = [0] * size
        self.usable = True  # False once a coefficient could overflow: use the plain loop

    def add_fixed(self, player: int, amount: int) -> None:
        self._abs_const[player] += abs(amount)
        if self._abs_const[player] >= INT64:
            self.usable = False
        if self.usable:
            self.const[player] += amount

    def add_value(self, player: int, of: int, coefficient: int) -> None:
        """`coefficient` × the value of player `of` (the opponent's, or his own)."""
        self._abs_coef[player] += abs(coefficient)
        if self._abs_coef[player] >= INT64:
            self.usable = False
        if self.usable:
            self.coef[player, of] += coefficient

    def _exact(self, active: Sequence[int], count: int) -> bool:
        if not self.usable or not active:
            return self.usable
        largest = max(abs(self.top), abs(self.top - self.step * (count - 1)))
        bound = max(self._abs_const[p] + self._abs_coef[p] * largest for p in active)
        return count * (bound + 1) < EXACT  # the sort key is count × total + index

    def recalculate(self, active: Sequence[int], start: Order, max_iterations: int) -> Recalculation | None:
        """Iterate values → totals → order from `start` (which names exactly the
        `active` players) as `keizer._recalculate` does; None if the bound for exact
        float arithmetic does not hold (the caller then uses the plain loop)."""
        count = len(active)
        if len(start) != count or not self._exact(active, count):
            return None
        players = np.array(sorted(active), dtype=np.intp)  # local index -> player
        local = {int(p): i for i, p in enumerate(players)}
        coef = self.coef[np.ix_(players, players)]
        const = self.const[players]
        # One product gives the sort key -count × total + index: ascending is highest
        # total first, equal totals by starting position, and no two keys are equal.
        keys = np.empty((count, count + 1), dtype=np.float64)
        keys[:, :count] = coef
        keys[:, count] = const
        keys *= -count
        keys[:, count] += np.arange(count)
        base = np.array([self.top - self.step * r for r in range(count)], dtype=np.int64)
        base_float = base.astype(np.float64)
        values = np.ones(count + 1, dtype=np.float64)  # the last 1 picks the constant column
        key_of = np.empty(count, dtype=np.float64)

        order = np.array([local[p] for p in start], dtype=np.intp)
        key = order.tobytes()
        seen = {key: 0}
        orders = [order]  # orders[i] gives the totals of iteration i + 1
        cycle_from = -1
        iterations = max_iterations
        # The hot loop (thousands of iterations in a large club): bound methods, no lookups.
        dot, argsort, seen_get, remember = keys.dot, key_of.argsort, seen.get, orders.append
        for iteration in range(1, max_iterations + 1):
            values[order] = base_float
            dot(values, key_of)
            new = argsort()
            new_key = new.tobytes()
            if new_key == key:
                return self._result(players, coef, const, base, [order], False, iteration)
            earlier = seen_get(new_key)
            if earlier is not None:
                cycle_from, iterations = earlier, iteration
                break
            seen[new_key] = len(orders)
            remember(new)
            order, key = new, new_key
        cycle_orders = orders[cycle_from:] if cycle_from >= 0 else orders[-3:-1]
        return self._result(players, coef, const, base, cycle_orders, True, iterations)

    def _result(
        self,
        players: npt.NDArray[np.intp],
        coef: npt.NDArray[np.int64],
        const: npt.NDArray[np.int64],
        base: npt.NDArray[np.int64],
        cycle_orders: Sequence[npt.NDArray[np.intp]],
        cycle: bool,
        iterations: int,
    ) -> Recalculation:
        """Totals and values summed over the given orders, in integers; with a cycle
        the settled order is by the summed totals, ties by starting position."""
        n = len(cycle_orders)
        count = len(players)
        largest = int(np.abs(base).max()) if count else 0
        bound = n * max((abs(int(c)) for c in const), default=0) + n * largest * int(
            np.abs(coef).sum(axis=1).max(initial=0)
        )
        dtype: type = np.int64 if bound < INT64 else object
        summed_values: npt.NDArray[Any] = np.zeros(count, dtype=dtype)
        for cycle_order in cycle_orders:
            placed: npt.NDArray[Any] = np.empty(count, dtype=dtype)
            placed[cycle_order] = base.astype(dtype)
            summed_values += placed
        totals = n * const.astype(dtype) + coef.astype(dtype) @ summed_values
        if cycle:
            if dtype is object:
                local = sorted(range(count), key=lambda i: (-totals[i], i))
            else:
                local = np.argsort(-totals, kind="stable").tolist()
        else:
            local = cycle_orders[0].tolist()
        full_totals = [0] * self.size
        full_values = [0] * self.size
        for i, p in enumerate(players.tolist()):
            full_totals[p] = int(totals[i])
            full_values[p] = int(summed_values[i])
        settled = tuple(int(players[i]) for i in local)
        return Recalculation(settled, full_totals, n, full_values, cycle, iterations)
