"""The Keizer fixpoint recalculation as matrix arithmetic (numpy), exact.

In the engine's integer units a player's total is linear in the values:
`total[p] = const[p] + Σ_q coef[p, q] × value[q]`, where `coef[p, q]` gathers every
factor of q's value that p scored (own-value outcomes on the diagonal). One iteration
of the recalculation is then one matrix-vector product and one sort.

The product runs over every player of the starting order (`size`): a player not yet in
the standings has an empty row and column, and LIFT (2**52) in his sort key, so he sorts
last, by index.

Exactness: float64 holds every integer below 2**53 exactly, and so does every partial
sum of the product while `size × (|const| + Σ|coef| × max|value| + 1)` stays below LIFT
(checked before each recalculation with the largest `Σ|const|` and `Σ|coef|` of any
player; above it the caller uses the plain loop). Under that bound every sort key is an
exact integer below LIFT, so a settled order's totals are read back from its keys; after
a cycle of n orders the summed totals come from one more product with the summed values
(exact while `n × size × (bound + 1)` stays below LIFT), else they are recomputed in
integers (Python ints beyond int64). The results equal the plain loop's (`keizer._recalculate`)
bit for bit. While `size × (bound + 1)` stays below 2**23 the iterations run on a float32
copy of the keys (`_narrow`): every partial sum is then an integer below 2**24, exact in
single precision too, and a product reads half the memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

EXACT = 2**53  # float64 represents every integer of smaller magnitude exactly
INT64 = 2**62  # a safe ceiling for int64 sums
LIFT = 2**52  # added to the sort key of a player not in the standings: he sorts last
# Single precision: float32 holds every integer up to 2**24 exactly. While a recalculation's
# numbers are small enough (most clubs') its hot loop runs on a float32 copy of the keys
# (`_narrow`), those outside the standings lifted by NARROW_LIFT: half the memory to read
# per product, the same orders.
NARROW_LIFT = 2**23

Order = tuple[int, ...]
# Terms as `TotalsMatrix.add_terms` takes them: rows, of, coefficients, fixed, amounts.
Batch = tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int], Sequence[int]]


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


_new = object.__new__
_set = object.__setattr__


def int_array(numbers: Sequence[int]) -> npt.NDArray[Any]:
    """Integers as an int64 array, or as an array of Python ints if one is beyond int64."""
    try:
        return np.array(numbers, dtype=np.int64)
    except OverflowError:
        array = np.empty(len(numbers), dtype=object)
        array[:] = list(numbers)
        return array


class TotalsMatrix:
    """The running totals of a half as `const + coef @ values`, in integer units."""

    def __init__(self, size: int, top: int, step: int) -> None:
        self.size = size
        self.top = top
        self.step = step
        # coef and const side by side (a prepared batch is added by one flat add.at)
        self._exact = np.zeros((size, size + 1), dtype=np.int64)
        self.coef, self.const = self._exact[:, :size], self._exact[:, size]
        # Σ|coef| and Σ|const| per row, and their largest: the exactness bound. The per-row
        # sums are int64 arrays, added up in float64 while everything ever added,
        # `_total_abs`, stays below EXACT (then every sum is exact); beyond that they are
        # checked in Python ints.
        self._abs_coef = np.zeros(size, dtype=np.int64)
        self._abs_const = np.zeros(size, dtype=np.int64)
        self._total_abs = 0
        self._max_abs_coef = self._max_abs_const = 0
        self.usable = True  # False once a coefficient could overflow: use the plain loop
        # The sort keys' matrix over every player, in float64 (exact below the bound): the
        # coefficients, and a last column `offset - size × const`, where `offset` is the
        # player's index plus LIFT while he is not in the standings (`_sync`). Kept up to
        # date by `add_prepared`; after `add_terms` rebuilt from `coef` and `const` (`_stale`).
        # Column-major: the hot loop's matrix-vector product is a fifth faster so.
        self.keys = np.zeros((size, size + 1), dtype=np.float64, order="F")
        self._positions = np.arange(size, dtype=np.float64)
        self._positions.flags.writeable = False
        self._offset = self._positions + LIFT
        self.keys[:, size] = self._offset
        # The float32 copy of the keys (`_narrow`), made when a recalculation can use it.
        self._narrow_keys = np.zeros((size, size + 1), dtype=np.float32, order="F")
        self._stale = False
        self._active: object = None  # the `active` list of the last recalculation, and its length
        self._count = 0
        self._inactive = np.arange(size, dtype=np.intp)
        # The last order given out (`_full`), as a tuple and over every player, and the
        # players outside the standings then: the engine starts the next evening from
        # that tuple itself, most evenings with no one new.
        self._last: tuple[Order | None, npt.NDArray[np.intp], npt.NDArray[np.intp]] = (None, self._inactive, self._inactive)
        if size * max(abs(top), abs(top - step * max(size - 1, 0))) >= LIFT:
            self.usable, top, step = False, 0, 0  # no value is exact as a key: the plain loop
        self._all_base = top - step * np.arange(size, dtype=np.int64)  # the value of each place
        self._all_base.flags.writeable = False
        self._key_values = (-size * self._all_base).astype(np.float64)  # the values times -size
        self._values = np.ones(size + 1, dtype=np.float64)  # the last 1 picks the constant column
        self._key_of = np.empty(size, dtype=np.float64)
        # the values and the keys in float32, for the narrow loop (`_narrow`)
        self._narrow_values = np.ones(size + 1, dtype=np.float32)
        self._narrow_key_of = np.empty(size, dtype=np.float32)
        self._narrow_key_values = self._key_values.astype(np.float32)  # exact where used (`_narrow`)
        # Terms given to `prepare_terms`, where each batch starts, the next batch to add and
        # how many are prepared (in numpy).
        self._terms: tuple[Any, ...] = ()
        self._term_at: list[int] = [0]
        self._next = self._fast = 0
        self._prepared: tuple[Any, ...] = ()

    def add_fixed(self, player: int, amount: int) -> None:
        self.add_terms([], [], [], [player], [amount])

    def add_value(self, player: int, of: int, coefficient: int) -> None:
        """`coefficient` × the value of player `of` (the opponent's, or his own)."""
        self.add_terms([player], [of], [coefficient], [], [])

    def add_terms(
        self, rows: Sequence[int], of: Sequence[int], coefficients: Sequence[int],
        fixed: Sequence[int], amounts: Sequence[int],
    ) -> None:
        """Many terms at once (an evening's): `coefficients[i]` × the value of `of[i]` for
        `rows[i]`, `amounts[j]` fixed points for `fixed[j]`. A pair named twice counts twice.
        Batches prepared and not yet added are then added by `add_terms` too."""
        self._fast = 0  # the prepared sums start from the matrix as it was: no longer true
        self._stale = True
        self._add_terms(rows, of, coefficients, fixed, amounts)

    def prepare(self, batches: Sequence[Batch]) -> None:
        """Batches of terms (each as `add_terms` takes them, e.g. a half's evenings) to be
        added later, in this order, by `add_prepared`: `prepare_terms` of their terms."""
        size = self.size
        rows: list[int] = []
        columns: list[int] = []
        amounts: list[int] = []
        ends = []
        for batch_rows, batch_of, batch_coefficients, batch_fixed, batch_amounts in batches:
            if len(batch_rows) != len(batch_of) or len(batch_rows) != len(batch_coefficients) \
                    or len(batch_fixed) != len(batch_amounts):
                raise ValueError("add_terms: every term needs its row, its column and its amount")
            rows += batch_rows
            rows += batch_fixed
            columns += batch_of
            columns += [size] * len(batch_fixed)
            amounts += batch_coefficients
            amounts += batch_amounts
            ends.append(len(rows))
        self.prepare_terms(np.array(rows, dtype=np.intp), np.array(columns, dtype=np.intp), int_array(amounts), ends)

    def prepare_terms(
        self, rows: npt.NDArray[np.intp], columns: npt.NDArray[np.intp], amounts: npt.NDArray[Any], ends: Sequence[int],
    ) -> None:
        """Batches of terms to be added later, in this order, by `add_prepared`, as arrays:
        `amounts[i]` × the value of player `columns[i]` for player `rows[i]` (column `size`:
        fixed points), batch j being the terms from `ends[j - 1]` (0) to `ends[j]`;
        `amounts` int64, or Python ints (`int_array`). The cells and the running exactness
        sums are made here once for all, so that adding a batch is two numpy calls;
        batches from the first that takes `_total_abs` to EXACT on (or all, if the matrix
        is not usable) are added by `add_terms` when their turn comes."""
        self._terms, self._next, self._fast = (rows, columns, amounts), 0, 0
        size = self.size
        term_at = [0, *ends]
        sized = self._sizes(amounts, term_at) if self.usable else None
        totals = [] if not self.usable else sized[1] if sized is not None else None
        if totals is None:  # large numbers: summed exactly, in Python ints
            running, totals = self._total_abs, []
            exact = amounts.tolist()
            for start, end in pairwise(term_at):
                running += sum(map(abs, exact[start:end]))
                if running >= EXACT:
                    break
                totals.append(running)
        fast = len(totals)
        terms = term_at[fast]
        del term_at[fast + 1 :]
        self._term_at = [0, *ends]
        # Below EXACT every number and every sum fits int64 exactly (and below 2**52 a float).
        exact_amounts = sized[0].astype(np.int64) if sized is not None else amounts[:terms].astype(np.int64)
        cells_of = rows[:terms] * (size + 1) + columns[:terms]
        fixed_point = columns[:terms] == size  # a term of the last column
        # The exactness sums after each batch: Σ|coef| and Σ|const| per (batch, player)
        # (float weights: every sum is below EXACT), cumulated over the batches.
        batch_number = np.repeat(np.arange(fast, dtype=np.intp), np.diff(term_at))
        sums = np.bincount((batch_number * 2 + fixed_point) * size + rows[:terms],
                           np.abs(exact_amounts), 2 * fast * size).astype(np.int64).reshape(fast, 2, size)
        for j in range(1, fast):  # the running sums (a loop over the batches: faster than cumsum's axis 0)
            sums[j] += sums[j - 1]
        abs_coef, abs_const = sums[:, 0, :] + self._abs_coef, sums[:, 1, :] + self._abs_const
        # In the keys a fixed point counts -size times (exact where the keys are used: `_bound`)
        key_amounts = exact_amounts.astype(np.float64) * np.where(fixed_point, -size, 1)
        key_cells = columns[:terms] * size + rows[:terms]  # the same cells in the column-major keys
        self._prepared = (
            cells_of, key_cells, exact_amounts, key_amounts, term_at,
            abs_coef, abs_const, abs_coef.max(axis=1, initial=0).tolist(),
            abs_const.max(axis=1, initial=0).tolist(), totals,
        )
        self._fast = fast

    def _batch(self, j: int) -> Batch:
        """Prepared batch `j` as `add_terms` takes it."""
        rows, columns, amounts = self._terms
        start, end = self._term_at[j], self._term_at[j + 1]
        batch_rows, batch_of, batch_amounts = rows[start:end].tolist(), columns[start:end].tolist(), amounts[start:end].tolist()
        size = self.size
        value = [i for i, of in enumerate(batch_of) if of != size]
        fixed = [i for i, of in enumerate(batch_of) if of == size]
        return ([batch_rows[i] for i in value], [batch_of[i] for i in value], [batch_amounts[i] for i in value],
                [batch_rows[i] for i in fixed], [batch_amounts[i] for i in fixed])

    def _sizes(self, amounts: npt.NDArray[Any], term_at: Sequence[int]) -> tuple[npt.NDArray[np.float64], list[int]] | None:
        """The amounts of every batch to prepare, as floats, and `_total_abs` after each
        batch, if all of them keep it below 2**52 (the usual case: then every number is
        exact as a float, and so is every sum); None if not."""
        if self._total_abs >= LIFT:
            return None
        try:  # as floats, so that even -2**63 has its size
            floats = amounts.astype(np.float64)
        except OverflowError:
            return None
        # Σ|amount| over the terms so far, read at each batch's end (exact below 2**52)
        running = np.concatenate(([0.0], np.cumsum(np.abs(floats))))[term_at[1:]] + self._total_abs
        if len(running) and not running[-1] < LIFT:  # (also a number too large for a float)
            return None
        totals: list[int] = running.astype(np.int64).tolist()
        return floats, totals

    def add_prepared(self, upto: int) -> None:
        """Add the prepared batches not added yet, up to (not including) batch `upto`."""
        cells_of, key_cells, exact_amounts, key_amounts, term_at, abs_coef, abs_const, max_coef, max_const, totals = (
            self._prepared or (None,) * 10
        )
        # views: `_exact` is row-major, `keys` column-major, both contiguous
        exact, keys = self._exact.reshape(-1), self.keys.reshape(-1, order="F")
        for j in range(self._next, upto):
            self._next = j + 1
            if j >= self._fast:
                self._stale = True
                self._add_terms(*self._batch(j))
                continue
            a, b = term_at[j], term_at[j + 1]
            if b > a:  # add.at: a pair named twice counts twice
                np.add.at(exact, cells_of[a:b], exact_amounts[a:b])
                if not self._stale:  # exact: every partial sum is below the bound (`_bound`)
                    np.add.at(keys, key_cells[a:b], key_amounts[a:b])
            self._abs_coef, self._abs_const = abs_coef[j], abs_const[j]  # read only: never added to in place
            self._max_abs_coef, self._max_abs_const, self._total_abs = max_coef[j], max_const[j], totals[j]

    def _add_terms(
        self, rows: Sequence[int], of: Sequence[int], coefficients: Sequence[int],
        fixed: Sequence[int], amounts: Sequence[int],
    ) -> None:
        if len(rows) != len(of) or len(rows) != len(coefficients) or len(fixed) != len(amounts):
            raise ValueError("add_terms: every term needs its row, its column and its amount")
        if not self.usable:
            return
        coef_sizes, const_sizes = list(map(abs, coefficients)), list(map(abs, amounts))
        self._total_abs += sum(coef_sizes) + sum(const_sizes)
        if self._total_abs < EXACT:  # the usual case: every sum is exact even in float64
            # The sums only grow, so the largest over all players is the running maximum.
            if rows:
                row_index = np.array(rows, dtype=np.intp)
                self._abs_coef = self._abs_coef + np.bincount(row_index, coef_sizes, self.size).astype(np.int64)
                self._max_abs_coef = int(self._abs_coef.max())
                np.add.at(self.coef, (row_index, np.array(of, dtype=np.intp)),
                          np.array(coefficients, dtype=np.int64))
            if fixed:
                fixed_index = np.array(fixed, dtype=np.intp)
                self._abs_const = self._abs_const + np.bincount(fixed_index, const_sizes, self.size).astype(np.int64)
                self._max_abs_const = int(self._abs_const.max())
                np.add.at(self.const, fixed_index, np.array(amounts, dtype=np.int64))
            return
        abs_coef, abs_const = self._abs_coef.tolist(), self._abs_const.tolist()  # exact Python ints
        for row, size in zip(rows, coef_sizes, strict=True):
            abs_coef[row] += size
        for row, size in zip(fixed, const_sizes, strict=True):
            abs_const[row] += size
        self._max_abs_coef = max(self._max_abs_coef, max((abs_coef[row] for row in rows), default=0))
        self._max_abs_const = max(self._max_abs_const, max((abs_const[row] for row in fixed), default=0))
        if self._max_abs_coef >= INT64 or self._max_abs_const >= INT64:
            self.usable = False
            return
        self._abs_coef, self._abs_const = np.array(abs_coef, dtype=np.int64), np.array(abs_const, dtype=np.int64)
        if rows:  # add.at: a pair named twice counts twice
            np.add.at(self.coef, (np.array(rows), np.array(of)), np.array(coefficients, dtype=np.int64))
        if fixed:
            np.add.at(self.const, np.array(fixed), np.array(amounts, dtype=np.int64))

    def _bound(self, count: int) -> int | None:
        """A bound on every player's `|const| + Σ|coef| × max|value|` (the largest of each
        part: players outside the standings have none), if the sort key
        `size × total + index` is exact in float64 below it and below LIFT; None if not."""
        if not self.usable:
            return None
        largest = max(abs(self.top), abs(self.top - self.step * max(count - 1, 0)))
        bound = self._max_abs_const + self._max_abs_coef * largest
        return bound if self.size * (bound + 1) < LIFT else None

    def _sync(self, active: Sequence[int]) -> None:
        """The key matrix up to date for these players in the standings (called after
        `_bound` held: every number is exact in float64). `active` of the engine only
        grows, the same list again: then only a new length changes anything."""
        size = self.size
        if active is not self._active or len(active) != self._count:
            is_active = np.zeros(size, dtype=bool)
            is_active[np.fromiter(active, np.intp, len(active))] = True
            offset = self._positions + LIFT * ~is_active
            if not self._stale:
                self.keys[:, size] += offset - self._offset  # ±LIFT: exact
            self._offset, self._inactive = offset, np.flatnonzero(~is_active)
            self._active, self._count = active, len(active)
        if self._stale:
            self.keys[:, :size] = self.coef
            self.keys[:, size] = self._offset - size * self.const.astype(np.float64)
            self._stale = False

    def _full_start(self, start: Order) -> npt.NDArray[np.intp]:
        """`start`, then the players not in the standings (they sort last, by index)."""
        if start is self._last[0] and self._inactive is self._last[2]:  # the order settled last, no one new
            return self._last[1]
        order = np.fromiter(start, np.intp, len(start))
        return order if len(start) == self.size else np.concatenate((order, self._inactive))

    def _local(self, active: Sequence[int], start: Order) -> tuple[
        npt.NDArray[np.intp], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.intp]
    ]:
        """The active players (ascending), their rows and columns of the matrix, and
        `start` in local indices."""
        count = len(active)
        if count == self.size:  # everybody is in the standings: no copy
            players = np.arange(count, dtype=np.intp)
            return players, self.coef, self.const, np.fromiter(start, np.intp, count)
        players = np.array(sorted(active), dtype=np.intp)  # local index -> player
        local = np.empty(self.size, dtype=np.intp)
        local[players] = np.arange(count, dtype=np.intp)
        coef = self.coef[np.ix_(players, players)]
        return players, coef, self.const[players], local[np.fromiter(start, np.intp, count)]

    def _base(self, count: int) -> npt.NDArray[np.int64]:
        """The value of each place, best first."""
        return self._all_base[:count]

    def recalculate(self, active: Sequence[int], start: Order, max_iterations: int) -> Recalculation | None:
        """Iterate values → totals → order from `start` (which names exactly the
        `active` players) as `keizer._recalculate` does; None if the bound for exact
        float arithmetic does not hold (the caller then uses the plain loop)."""
        count, size = len(active), self.size
        bound = self._bound(count)
        if len(start) != count or bound is None:
            return None
        self._sync(active)
        # One product over every player gives the sort key -size × total + index (+ LIFT
        # for a player not in the standings: his row is empty, he sorts last, by index):
        # ascending is highest total first, equal totals by starting position, and no two
        # keys are equal. The values go in times -size; a player outside the standings has
        # an empty column, so the value his place gives him changes nothing. With small
        # numbers the same orders come from float32 keys (`_narrow`).
        positions = self._positions
        narrow = self._narrow(bound)
        keys: npt.NDArray[Any]
        key_values: npt.NDArray[Any]
        values: npt.NDArray[Any]
        key_of: npt.NDArray[Any]
        if narrow is not None:
            (keys, offset), key_values = narrow, self._narrow_key_values
            values, key_of = self._narrow_values, self._narrow_key_of
        else:
            keys, offset, key_values, values, key_of = self.keys, self._offset, self._key_values, self._values, self._key_of
        order = self._full_start(start)
        key = order.tobytes()
        # Every order so far by its bytes, numbered: the i-th gives the totals of iteration
        # i + 1. Only the bytes are kept (a cycle's orders are read back from them), so the
        # sort's output array is freed and its memory reused by the next sort.
        seen = {key: 0}
        cycle_from = -1
        iterations = max_iterations
        # The hot loop (thousands of iterations in a large club): bound methods, no lookups.
        dot, argsort, remember = keys.dot, key_of.argsort, seen.setdefault
        for iteration in range(1, max_iterations + 1):
            values[order] = key_values
            dot(values, key_of)
            new = argsort()
            new_key = new.tobytes()
            if remember(new_key, iteration) != iteration:  # an order seen before (one look-up)
                if new_key == key:  # the totals are in the keys, exactly (`_bound`); 0 outside
                    totals = ((offset - key_of) / size).astype(np.int64)  # (in float64)
                    return self._settled(order, count, totals, 1, False, iteration)
                cycle_from, iterations = seen[new_key], iteration
                break
            order, key = new, new_key
        orders = list(seen)
        cycle_orders = [np.frombuffer(found, dtype=np.intp)
                        for found in (orders[cycle_from:] if cycle_from >= 0 else orders[-3:-1])]
        n = len(cycle_orders)
        if n * size * (bound + 1) < LIFT:
            # The summed totals in one product of the float64 keys, exact as the keys are
            # (every partial sum below n × size × (bound + 1)): the values summed over the
            # orders times -size, and n for the constant column, give n × index - size ×
            # summed total (and more than LIFT for a player outside the standings).
            key_values, key_of = self._key_values, self._key_of
            summed = np.empty(size + 1, dtype=np.float64)
            summed[size] = n
            if n <= 4:
                summed[:size] = 0
                for cycle_order in cycle_orders:  # each a permutation: no index twice
                    summed[cycle_order] += key_values
            else:  # a long cycle: every order's values in one bincount (whole numbers: exact)
                summed[:size] = np.bincount(np.concatenate(cycle_orders), np.tile(key_values, n), size)
            self.keys.dot(summed, key_of)
            totals = ((n * positions - key_of) / size).astype(np.int64)
            # -size × summed total + index: ascending is the highest summed total first,
            # ties by starting position, as in `_result`
            settled = (key_of - (n - 1) * positions).argsort()
            summed_values = (summed[:size] / -size).astype(np.int64)
            if count < size:  # nothing outside the standings
                totals[self._inactive] = summed_values[self._inactive] = 0
                # Those outside sort last by index, as `_full_start` lists them: their keys,
                # n × LIFT + index, are no longer exact from n = 2 on (2**53 and up).
                settled[count:] = self._inactive
            return self._full(settled, count, totals, summed_values, n, True, iterations)
        players, coef, const, _ = self._local(active, start)
        local = np.empty(size, dtype=np.intp)
        local[players] = np.arange(count, dtype=np.intp)
        local_orders = [local[cycle_order[:count]] for cycle_order in cycle_orders]
        return self._result(players, coef, const, self._base(count), bound, local_orders, True, iterations)

    def _narrow(self, bound: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]] | None:
        """The keys in float32 and the offset that turns a key back into a total
        (`(offset - key) / size`), if `size × (bound + 1)` is below 2**23 (called after
        `_sync`, with `bound` from `_bound`): the keys as in float64, -size × total +
        index, but those outside the standings lifted by 2**23. Every partial sum of the
        product is then an integer below 2**24, exact in float32: the same orders. None if
        the numbers are larger: the float64 keys."""
        size = self.size
        if not size * (bound + 1) < NARROW_LIFT:
            return None
        narrow, keys = self._narrow_keys, self.keys
        offset = self._positions + (self._offset - self._positions) / (LIFT // NARROW_LIFT)  # NARROW_LIFT outside
        narrow[:, :size] = keys[:, :size]
        narrow[:, size] = keys[:, size] - self._offset + offset  # in float64: exact
        return narrow, offset

    def _settled(
        self, order: npt.NDArray[np.intp], count: int, totals: npt.NDArray[np.int64], orders: int, cycle: bool,
        iterations: int,
    ) -> Recalculation:
        """The Recalculation of a settled `order` (every player, the `count` in the standings first)."""
        values = np.zeros(self.size, dtype=np.int64)
        values[order[:count]] = self._all_base[:count]
        return self._full(order, count, totals, values, orders, cycle, iterations)

    def score_once(self, active: Sequence[int], start: Order) -> Recalculation | None:
        """The totals with the values of `start` (which names exactly the `active`
        players) and the order they give, once (the lagging method); None if the
        numbers are too large for exact arithmetic."""
        count, size = len(active), self.size
        if len(start) != count or self._bound(count) is None:
            return None
        self._sync(active)
        values, key_of = self._values, self._key_of
        order = self._full_start(start)
        values[order] = self._key_values
        self.keys.dot(values, key_of)  # the sort keys, as in `recalculate`
        totals = ((self._offset - key_of) / size).astype(np.int64)
        settled = key_of.argsort()  # highest first, ties by starting position
        values_now = np.zeros(size, dtype=np.int64)
        values_now[order[:count]] = self._all_base[:count]
        return self._full(settled, count, totals, values_now, 1, False, 1)

    def _result(
        self,
        players: npt.NDArray[np.intp],
        coef: npt.NDArray[np.int64],
        const: npt.NDArray[np.int64],
        base: npt.NDArray[np.int64],
        bound: int,
        cycle_orders: Sequence[npt.NDArray[np.intp]],
        cycle: bool,
        iterations: int,
    ) -> Recalculation:
        """Totals and values summed over the given orders, in integers; with a cycle
        the settled order is by the summed totals, ties by starting position. A summed
        total is at most `n × bound` (`_bound`): int64 below INT64, Python ints above."""
        n = len(cycle_orders)
        count = len(players)
        if not cycle and bound < INT64:  # the usual case, in few numpy calls
            values = np.empty(count, dtype=np.int64)
            values[cycle_orders[0]] = base
            return self._full_local(players, cycle_orders[0], const + coef @ values, values, 1, False, iterations)
        dtype: type = np.int64 if n * bound < INT64 else object
        summed_values: npt.NDArray[Any] = np.zeros(count, dtype=dtype)
        placed: npt.NDArray[Any] = base.astype(dtype)
        for cycle_order in cycle_orders:  # each a permutation: no index twice
            summed_values[cycle_order] += placed
        if dtype is np.int64:
            totals = n * const + coef @ summed_values
        else:
            totals = n * const.astype(dtype) + coef.astype(dtype) @ summed_values
        if not cycle:
            settled: Any = cycle_orders[0]
        elif dtype is object:
            settled = sorted(range(count), key=lambda i: (-totals[i], i))
        else:
            settled = np.argsort(-totals, kind="stable")
        return self._full_local(players, settled, totals, summed_values, n, cycle, iterations)

    def _full(
        self,
        settled: npt.NDArray[np.intp],
        count: int,
        totals: npt.NDArray[np.int64],
        values: npt.NDArray[np.int64],
        orders: int,
        cycle: bool,
        iterations: int,
    ) -> Recalculation:
        """A Recalculation from arrays over every player (those not in the standings: 0;
        `settled` names them last, by index, after the `count` in the standings), made
        without the frozen dataclass's __init__ (every field given)."""
        order = tuple(settled[:count].tolist())
        self._last = (order, settled, self._inactive)  # never written to: argsort's or `_full_start`'s
        result = _new(Recalculation)
        _set(result, "__dict__", {
            "order": order, "totals": totals.tolist(), "orders": orders,
            "values": values.tolist(), "cycle": cycle, "iterations": iterations,
        })
        return result

    def _full_local(
        self,
        players: npt.NDArray[np.intp],
        settled: Any,
        totals: npt.NDArray[Any],
        values: npt.NDArray[Any],
        orders: int,
        cycle: bool,
        iterations: int,
    ) -> Recalculation:
        """A Recalculation over every player (those not active: 0), as Python ints."""
        if len(players) == self.size:
            full_totals, full_values = totals.tolist(), values.tolist()
            order = tuple(settled.tolist() if isinstance(settled, np.ndarray) else settled)
        else:
            full_totals, full_values = [0] * self.size, [0] * self.size
            for p, total, value in zip(players.tolist(), totals.tolist(), values.tolist(), strict=True):
                full_totals[p], full_values[p] = total, value
            order = tuple(players[np.asarray(settled, dtype=np.intp)].tolist())
        return Recalculation(order, full_totals, orders, full_values, cycle, iterations)
