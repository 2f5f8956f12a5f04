"""Keizer standings of one half, and of a season's two halves.

The rules are in docs/standings.md. In short: a player's value is
`top - step × (rank - 1)`; every outcome scores a factor of the opponent's value, a
factor of the own value, or fixed points; the standings after an evening depend on
the `method` (fixpoint, lagging or frozen) by which values are fed back.

Speed (docs/standings.md, "How fast"): the fixpoint method recomputes all totals many
times per evening, so totals are kept as integers in a common unit (every factor, fixed
amount and value scaled by one denominator); each evening's scoring terms are built once
and added to `fixpoint.TotalsMatrix` (the per-player term lists of `_Totals` are the plain
loop's). Fractions appear only in the output; the many rows of a history and lines of
the explanation are made when first read (`types.Deferred`), without the frozen
dataclasses' __init__, and so are the events they come from (`_half_events`): the
computation reads the evenings for their terms, the players they mention and a tally
of the events' kinds (`_read`). `bench/naive.py` is the reference.
"""

from __future__ import annotations

import array
import functools
import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, pairwise
from operator import itemgetter
from typing import Any, Final, Literal, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from competition.scoring.exact import Fractions, fraction
from competition.scoring.fixpoint import Recalculation, TotalsMatrix, int_array
from competition.scoring.terms import OPPONENT as _OPPONENT
from competition.scoring.terms import OUTCOME as _OUTCOME
from competition.scoring.terms import OVER_LIMIT as _OVER_LIMIT
from competition.scoring.terms import PLAYER as _PLAYER
from competition.scoring.terms import Event as _Event
from competition.scoring.terms import KeizerTerms, keizer_terms
from competition.scoring.types import (
    RESULT_OUTCOMES,
    Evening,
    EveningStandings,
    Half,
    HalfResult,
    KeizerParams,
    Line,
    Outcome,
    Player,
    PlayerStats,
    Standing,
    StandingsTable,
)

MAX_ITERATIONS = 1000

Engine = Literal["matrix", "python"]

Order = tuple[int, ...]  # player indices (= starting positions, 0-based), best first


# What happened to one player on one evening: `terms.Event` (_Event), a plain tuple.


def _event(
    player: int, outcome: Outcome, opponent: int | None = None, colour: str | None = None, over_limit: bool = False
) -> _Event:
    return (player, outcome, opponent, colour, over_limit)


class _Terms(NamedTuple):
    """An evening's scoring in integer units: `coefficients[i]` × the value of
    `of[i]` for player `rows[i]`, and `amounts[j]` fixed points for `fixed[j]`. Each
    player has at most one event an evening; a (row, of) pair repeats only when a player
    entering gets the Keizer 1956 own value beside his evening's own-value outcome (a
    pair named twice counts twice)."""

    rows: list[int]
    of: list[int]
    coefficients: list[int]
    fixed: list[int]
    amounts: list[int]


# ---------------------------------------------------------------------------
# Integer units


# The rules in integer units are `terms.keizer_terms` (both engines and the explanation).


class _Totals:
    """Per-player cumulative terms: total = const + Σ c × V[q] (q may be the player
    himself: own-value outcomes). The plain reference of `fixpoint.TotalsMatrix`."""

    def __init__(self, size: int) -> None:
        self.const = [0] * size
        self.terms: list[list[tuple[int, int]]] = [[] for _ in range(size)]

    def add(self, terms: _Terms) -> None:
        for player, amount in zip(terms.fixed, terms.amounts, strict=True):
            self.const[player] += amount
        for player, of, coefficient in zip(terms.rows, terms.of, terms.coefficients, strict=True):
            self.terms[player].append((of, coefficient))

    def totals(self, values: Sequence[int]) -> list[int]:
        return [c + sum([k * values[q] for q, k in terms]) for c, terms in zip(self.const, self.terms, strict=True)]


def _evening_terms(units: KeizerTerms, events: Sequence[_Event]) -> _Terms:
    """An evening's scoring terms (those of nothing left out: `KeizerTerms.scoring`)."""
    terms = _Terms([], [], [], [], [])
    rules = units.scoring
    # thousands of events a season: the list methods bound once
    add_row, add_of, add_coefficient = terms.rows.append, terms.of.append, terms.coefficients.append
    add_fixed, add_amount = terms.fixed.append, terms.amounts.append
    for player, outcome, opponent, _, over_limit in events:
        rule = None if over_limit else rules.get(outcome)
        if rule is None:
            continue
        basis, coefficient = rule
        if basis == "fixed":
            add_fixed(player)
            add_amount(coefficient)
        else:
            add_row(player)
            add_of(player if basis == "own" else opponent)  # type: ignore[arg-type]
            add_coefficient(coefficient)
    return terms


def _stats_after(tally: Sequence[int] | npt.NDArray[np.intp], size: int) -> list[dict[str, int]]:
    """Every player's counts (the fields of `PlayerStats`, in their order) after the
    events of `tally`: each event as `kind × size + player` (`_KINDS`), the same counts
    as `count_event` for each event, in one `bincount` and one product by `_KIND_COUNTS`
    (in float64: every count is a small whole number)."""
    per_kind = np.bincount(np.asarray(tally, dtype=np.intp), minlength=len(_KINDS) * size)
    counts = (_KIND_COUNTS @ per_kind.reshape(len(_KINDS), size).astype(np.float64)).T.astype(np.int64)
    fields = _STAT_FIELDS
    return [dict(zip(fields, row, strict=True)) for row in counts.tolist()]


def stats_after(tally: Sequence[int], size: int) -> list[dict[str, int]]:
    """`_stats_after`, for the ladder's tally."""
    return _stats_after(tally, size)


def kind_of(outcome: Outcome, colour: str | None) -> int:
    """An event's kind in a tally (`_stats_after`)."""
    return _KINDS[outcome, colour]


def history_counts(tally: Sequence[int], ends: Sequence[int], size: int) -> npt.NDArray[np.int64]:
    """Every player's counts after every evening, shape (evenings, fields of
    `PlayerStats`, players): those of `_stats_after` of the tally up to `ends[k]`, for
    every k at once (`counts_by_evening`)."""
    per_evening = [b - a for a, b in pairwise([0, *ends])]
    return counts_by_evening(tally, np.repeat(np.arange(len(ends), dtype=np.intp), per_evening), len(ends), size)


def counts_by_evening(
    tally: Sequence[int] | npt.NDArray[np.intp], evening_of: npt.NDArray[np.intp], evenings: int, size: int,
) -> npt.NDArray[np.int64]:
    """Every player's counts after every evening, shape (evenings, fields of
    `PlayerStats`, players), of a tally whose event i is of evening `evening_of[i]`: after
    evening k those of `_stats_after` of the events of evenings 0..k. Each event adds 1
    to one or two fields (`_KIND_FIELDS`: its outcome's and, for a game played, its
    colour's): one `bincount` of (evening, field, player) over those, then a running sum
    over the evenings, in integers."""
    fields = len(_STAT_FIELDS)
    kind, player = np.divmod(np.asarray(tally, dtype=np.intp), size)
    base = evening_of * fields
    first, second = _KIND_FIELDS[0][kind], _KIND_FIELDS[1][kind]
    has_second = second >= 0
    where = np.concatenate(((base + first) * size + player,
                            ((base + second) * size + player)[has_second]))
    per_field = np.bincount(where, minlength=evenings * fields * size).reshape(evenings, fields, size)
    for k in range(1, evenings):  # the running sum (a loop over the evenings: faster than cumsum's axis 0)
        per_field[k] += per_field[k - 1]
    return per_field.astype(np.int64, copy=False)


def _ordered(active: Sequence[int], totals: Sequence[int]) -> Order:
    """Highest total first; equal totals by starting position (the index)."""
    return tuple(sorted(active, key=lambda p: (-totals[p], p)))


# ---------------------------------------------------------------------------
# Fixpoint


def _settle(
    units: KeizerTerms,
    state: _Totals,
    active: Sequence[int],
    size: int,
    cycle_orders: Sequence[Order],
    iterations: int,
) -> Recalculation:
    """Sum the totals (and the values) over the given orders; the settled order is by
    that sum (the average: same count), ties by starting position."""
    values_of = [units.values(order, size) for order in cycle_orders]
    summed = [sum(column) for column in zip(*(state.totals(v) for v in values_of), strict=True)]
    values = [sum(column) for column in zip(*values_of, strict=True)]
    return Recalculation(_ordered(active, summed), summed, len(values_of), values, True, iterations)


def _recalculate(
    units: KeizerTerms,
    state: _Totals,
    active: Sequence[int],
    start: Order,
    size: int,
    max_iterations: int = MAX_ITERATIONS,
) -> Recalculation:
    """Iterate values → totals → order from `start` until the order stays put.

    A return to an earlier order is a cycle: it is settled by the average totals over
    the cycle's orders. After `max_iterations` the last two orders are settled alike.
    This is the plain reference loop; `fixpoint.recalculate` computes the same, faster.
    """
    order = start
    seen: dict[Order, int] = {order: 0}
    orders: list[Order] = [order]  # orders[i] gives the totals of iteration i + 1
    for iteration in range(1, max_iterations + 1):
        values = units.values(order, size)
        totals = state.totals(values)
        new = _ordered(active, totals)
        if new == order:
            return Recalculation(order, totals, 1, values, False, iteration)
        if new in seen:
            return _settle(units, state, active, size, orders[seen[new] :], iteration)
        seen[new] = len(orders)
        orders.append(new)
        order = new
    return _settle(units, state, active, size, orders[-3:-1], max_iterations)


# ---------------------------------------------------------------------------
# Events of a half


def absence_with_notice_scores(earlier: int, limit: int | None) -> bool:
    """Whether an absence with notice scores, after ``earlier`` ones this season: only the
    first ``limit`` of a season do (docs/rules.md 4.1; None: no limit). The engine and the
    warning before a sign-off (competition.season.engine.signup) ask this one question."""
    return limit is None or earlier < limit


def _events(
    evenings: Sequence[Evening],
    index: Mapping[int, int],
    present_from_start: Collection[int],
    limit: int | None,
    absence_counts_before: Mapping[int, int],
    rules: Mapping[Outcome, tuple[str, int]] | None = None,
) -> tuple[list[list[_Event]], list[list[int]], list[_Terms], list[int]]:
    """Per evening: every event (with generated absences without notice), the players
    (indices) who enter the standings that evening, and its scoring terms by `rules`
    (`KeizerTerms.scoring`; those of `_evening_terms`, made as the evenings are read: none
    without); and the tally of every event of the half for `_stats_after`."""
    read = _read(evenings, index, present_from_start, limit, absence_counts_before, rules)
    terms = [read.terms(k) for k in range(len(evenings))]
    tally = read.tally[np.argsort(read.tally_evening, kind="stable")].tolist()
    return _half_events(evenings, index, limit, absence_counts_before, read.absent), read.entering, terms, tally


class _HalfRead(NamedTuple):
    """What the computation needs of a half's evenings (`_read`), as arrays where there
    are thousands: per evening the players absent without notice and those who enter the
    standings (sorted lists); every scoring term, evening by evening (`amounts[i]` × the
    value of `columns[i]` for `rows[i]`, column `size` for fixed points; `term_ends[k]`:
    where evening k's end), as `fixpoint.TotalsMatrix.prepare_terms` takes them; and the
    tally of every event (`kind × size + player`, `_stats_after`) with its evening."""

    size: int
    absent: list[list[int]]
    entering: list[list[int]]
    rows: npt.NDArray[np.intp]
    columns: npt.NDArray[np.intp]
    amounts: npt.NDArray[Any]  # int64, or Python ints beyond it (`fixpoint.int_array`)
    term_ends: list[int]
    tally: npt.NDArray[np.intp]
    tally_evening: npt.NDArray[np.intp]

    def terms(self, k: int) -> _Terms:
        """Evening k's terms as lists (the plain loop's `_Totals`, the evening keys)."""
        start, end = self.term_ends[k - 1] if k else 0, self.term_ends[k]
        terms = _Terms([], [], [], [], [])
        for row, column, amount in zip(self.rows[start:end].tolist(), self.columns[start:end].tolist(),
                                       self.amounts[start:end].tolist(), strict=True):
            if column == self.size:
                terms.fixed.append(row)
                terms.amounts.append(amount)
            else:
                terms.rows.append(row)
                terms.of.append(column)
                terms.coefficients.append(amount)
        return terms


_NO_RULE = (None, 0)  # an outcome that scores nothing, as `_rule_tables` lists it
_BASES = {None: 0, "fixed": 1, "own": 2, "opponent": 3}  # a rule's basis as a number


def _rule_arrays(rules: Mapping[Outcome, tuple[str, int]], outcomes: Sequence[Outcome]) -> tuple[
    npt.NDArray[np.intp], npt.NDArray[Any]
]:
    """The basis (`_BASES`) and the amount of each outcome's rule, as arrays."""
    found = [rules.get(outcome, _NO_RULE) for outcome in outcomes]
    return np.array([_BASES[basis] for basis, _ in found], dtype=np.intp), int_array([amount for _, amount in found])


def _unknown_player(evenings: Sequence[Evening], index: Mapping[int, int]) -> None:
    """Raise the error for the first evening naming a player not in the starting order."""
    for evening in evenings:
        for player_id in sorted(evening.mentioned() - set(index)):
            raise ValueError(f"player {player_id} of evening {evening.date} is not in the starting order")


def _absences_scoring(
    players: npt.NDArray[np.intp], before: Mapping[int, int], index: Mapping[int, int], limit: int | None,
) -> npt.NDArray[np.bool_]:
    """Which of these absences with notice (a half's, evening by evening) score: a
    player's first `limit` of the season, counting `before` (by player id) those of
    earlier halves (`absence_with_notice_scores`)."""
    if limit is None:
        return np.ones(len(players), dtype=bool)
    earlier = np.zeros(len(index), dtype=np.intp)  # of earlier halves, by index
    for player_id, n in before.items():
        if player_id in index:
            earlier[index[player_id]] = n
    # the absences of this half before each: its place among the player's own
    by_player = np.argsort(players, kind="stable")
    ordered = players[by_player]
    first = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    place = np.empty(len(players), dtype=np.intp)
    place[by_player] = np.arange(len(players)) - np.repeat(first, np.diff(np.append(first, len(players))))
    return earlier[players] + place < limit


def _split(mask: npt.NDArray[np.bool_]) -> list[list[int]]:
    """Per row of a (evenings, players) mask its players, ascending."""
    ks, ps = np.nonzero(mask)
    bounds = np.searchsorted(ks, np.arange(len(mask) + 1)).tolist()
    players = ps.tolist()
    return [players[a:b] for a, b in pairwise(bounds)]


def _read(
    evenings: Sequence[Evening],
    index: Mapping[int, int],
    present_from_start: Collection[int],
    limit: int | None,
    absence_counts_before: Mapping[int, int],
    rules: Mapping[Outcome, tuple[str, int]] | None = None,
    own_added: int = 0,
) -> _HalfRead:
    """What the computation needs of the evenings (`_HalfRead`), read without making their
    events (a half has thousands, made only for the explanation and the frozen method:
    `_half_events`): the games' players and results in a few lists, everything else in
    array operations over the half. `own_added` (Keizer 1956) is a term of each player
    entering: `own_added` × his own value."""
    rules = rules or {}
    size, count = len(index), len(evenings)
    games = [game for evening in evenings for game in evening.games]
    evening_numbers = np.arange(count, dtype=np.intp)
    try:
        white = np.fromiter(map(index.__getitem__, [game.white for game in games]), np.intp, len(games))
        black = np.fromiter(map(index.__getitem__, [game.black for game in games]), np.intp, len(games))
        alone = []  # per outcome without an opponent: its evenings and players
        for outcome, named in ((Outcome.BYE, [evening.byes for evening in evenings]),
                               (Outcome.CLUB_DUTY, [evening.club_duty for evening in evenings]),
                               (Outcome.ABSENT_WITH_NOTICE, [evening.absent_with_notice for evening in evenings])):
            lengths = list(map(len, named))
            alone.append((outcome, np.repeat(evening_numbers, lengths),
                          np.fromiter(map(index.__getitem__, chain.from_iterable(named)), np.intp, sum(lengths))))
    except KeyError:
        _unknown_player(evenings, index)
        raise
    result = np.fromiter(map(_RESULT_NUMBER.__getitem__, [game.result for game in games]), np.intp, len(games))
    game_evening = np.repeat(evening_numbers, [len(evening.games) for evening in evenings])
    # Who is mentioned where: each player at most once an evening.
    mentioned = np.bincount(np.concatenate([game_evening * size + white, game_evening * size + black,
                                            *(ks * size + ps for _, ks, ps in alone)]), minlength=count * size)
    if count and mentioned.max(initial=0) > 1:
        raise ValueError(f"a player appears twice in evening {evenings[int(np.argmax(mentioned > 1)) // size].date}")
    seen = mentioned.reshape(count, size) > 0
    if count:
        seen[0, [index[p] for p in present_from_start if p in index]] = True
    active = np.logical_or.accumulate(seen, axis=0)
    new = active.copy()
    new[1:] &= ~active[:-1]
    missing = active & (mentioned.reshape(count, size) == 0)
    missing_evening, missing_player = np.nonzero(missing)
    alone.append((Outcome.ABSENT_WITHOUT_NOTICE, missing_evening, missing_player))
    # The tally: every event's kind and player, with its evening.
    white_kind, black_kind = _RESULT_KINDS
    tally = np.concatenate([white_kind[result] * size + white, black_kind[result] * size + black,
                            *(_KINDS[outcome, None] * size + ps for outcome, _, ps in alone)])
    tally_evening = np.concatenate([game_evening, game_evening, *(ks for _, ks, _ in alone)])
    # The scoring terms: the games' (by each side's rule), the others' (fixed or the own
    # value), the entering players' own value added; then ordered by evening.
    white_outcomes, black_outcomes = zip(*RESULT_OUTCOMES.values(), strict=True)
    term_parts = []
    for outcomes, player, opponent in ((white_outcomes, white, black), (black_outcomes, black, white)):
        basis, amount = _rule_arrays(rules, outcomes)
        game_basis = basis[result]
        scores = game_basis > 0
        column = np.where(game_basis == _BASES["fixed"], size, np.where(game_basis == _BASES["own"], player, opponent))
        term_parts.append((game_evening[scores], player[scores], column[scores], amount[result][scores]))
    _, notice_evening, notice_player = alone[2]
    scoring = _absences_scoring(notice_player, absence_counts_before, index, limit)
    scoring_alone = [*alone[:2], (Outcome.ABSENT_WITH_NOTICE, notice_evening[scoring], notice_player[scoring]), alone[3]]
    for outcome, ks, ps in scoring_alone:
        rule = rules.get(outcome)
        if rule is not None and len(ps):
            column = np.full(len(ps), size, dtype=np.intp) if rule[0] == "fixed" else ps
            term_parts.append((ks, ps, column, int_array([rule[1]] * len(ps))))
    if own_added:
        new_evening, new_player = np.nonzero(new)
        term_parts.append((new_evening, new_player, new_player, int_array([own_added] * len(new_player))))
    term_evening = np.concatenate([part[0] for part in term_parts]) if term_parts else np.zeros(0, dtype=np.intp)
    by_evening = np.argsort(term_evening, kind="stable")
    if term_parts:
        rows, columns = (np.concatenate([part[i] for part in term_parts])[by_evening] for i in (1, 2))
        amounts = np.concatenate([part[3] for part in term_parts])[by_evening]
    else:
        rows = columns = np.zeros(0, dtype=np.intp)
        amounts = np.zeros(0, dtype=np.int64)
    term_ends = np.cumsum(np.bincount(term_evening, minlength=count)).tolist()
    return _HalfRead(size, _split(missing), _split(new), rows, columns, amounts, term_ends, tally, tally_evening)


def _half_events(
    evenings: Sequence[Evening],
    index: Mapping[int, int],
    limit: int | None,
    absence_counts_before: Mapping[int, int],
    absent: Sequence[Sequence[int]],
) -> list[list[_Event]]:
    """Every event of every evening (those of `_read`, which checked the evenings):
    the games' (white's, then black's), the byes, the club duties, the absences with
    notice (`over_limit` by the season's count so far) and without (`absent`)."""
    absences = {index[p]: n for p, n in absence_counts_before.items() if p in index}
    absent_events: dict[int, _Event] = {}  # a player's absence without notice: one tuple all half
    outcomes = RESULT_OUTCOMES
    bye, duty, notice = Outcome.BYE, Outcome.CLUB_DUTY, Outcome.ABSENT_WITH_NOTICE
    events: list[list[_Event]] = []
    for evening, missing in zip(evenings, absent, strict=True):
        evening_events: list[_Event] = []
        append = evening_events.append
        for game in evening.games:  # thousands a season: the tuples made inline
            white, black = index[game.white], index[game.black]
            white_outcome, black_outcome = outcomes[game.result]
            append((white, white_outcome, black, "white", False))
            append((black, black_outcome, white, "black", False))
        evening_events += [(index[p], bye, None, None, False) for p in evening.byes]
        evening_events += [(index[p], duty, None, None, False) for p in evening.club_duty]
        for player_id in evening.absent_with_notice:
            p = index[player_id]
            before = absences.get(p, 0)
            absences[p] = before + 1
            append((p, notice, None, None, limit is not None and before >= limit))  # not absence_with_notice_scores
        for p in missing:
            if p not in absent_events:
                absent_events[p] = _event(p, Outcome.ABSENT_WITHOUT_NOTICE)
        evening_events += map(absent_events.__getitem__, missing)
        events.append(evening_events)
    return events


# ---------------------------------------------------------------------------
# Statistics


_COUNTERS = {
    Outcome.WIN: "won",
    Outcome.DRAW: "drawn",
    Outcome.LOSS: "lost",
    Outcome.FORFEIT_WIN: "forfeit_wins",
    Outcome.FORFEIT_LOSS: "forfeit_losses",
    Outcome.POSTPONED: "postponed",
    Outcome.BYE: "byes",
    Outcome.ABSENT_WITH_NOTICE: "absent_with_notice",
    Outcome.ABSENT_WITHOUT_NOTICE: "absent_without_notice",
    Outcome.CLUB_DUTY: "club_duty",
}
_PLAYED = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})
_STAT_FIELDS: Final = tuple(PlayerStats.__dataclass_fields__)
# An event's kind for the tally of `_stats_after`: its outcome and colour, numbered.
_KINDS: Final = {
    (outcome, colour): kind
    for kind, (outcome, colour) in enumerate(
        (outcome, colour) for outcome in _COUNTERS for colour in ("white", "black", None)
    )
}


def count_event(counts: dict[str, int], outcome: Outcome, colour: str | None) -> None:
    """Add one evening's outcome to a player's running counts (see PlayerStats)."""
    counts[_COUNTERS[outcome]] += 1
    if outcome in _PLAYED and colour is not None:
        counts["whites" if colour == "white" else "blacks"] += 1


def new_counts() -> dict[str, int]:
    return dict.fromkeys(PlayerStats.__dataclass_fields__, 0)


def _kind_counts() -> npt.NDArray[np.float64]:
    """`count_event` as a table: per field of `PlayerStats` (in their order) a row, per
    kind (`_KINDS`) a column, 1 where one event of the kind adds to the field."""
    table = np.zeros((len(_STAT_FIELDS), len(_KINDS)), dtype=np.float64)
    for (outcome, colour), kind in _KINDS.items():
        counts = new_counts()
        count_event(counts, outcome, colour)
        table[:, kind] = list(counts.values())
    table.flags.writeable = False
    return table


_KIND_COUNTS: Final = _kind_counts()


def _kind_fields() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Per kind the (one or two) fields of `PlayerStats` one event of it adds 1 to
    (`_KIND_COUNTS`'s column): the first, and the second or -1."""
    first = np.full(len(_KINDS), -1, dtype=np.intp)
    second = np.full(len(_KINDS), -1, dtype=np.intp)
    for kind in range(len(_KINDS)):
        added = np.flatnonzero(_KIND_COUNTS[:, kind])
        if not 1 <= len(added) <= 2 or not set(_KIND_COUNTS[added, kind]) <= {1.0}:
            raise AssertionError(f"kind {kind} adds to fields {added.tolist()}")
        first[kind] = added[0]
        if len(added) == 2:
            second[kind] = added[1]
    return first, second


_KIND_FIELDS: Final = _kind_fields()
# A game's result as a number (its place in RESULT_OUTCOMES), and per number the kind of
# white's and of black's event (`_read`).
_RESULT_NUMBER: Final = {result: number for number, result in enumerate(RESULT_OUTCOMES)}
_RESULT_KINDS: Final = (
    np.array([_KINDS[white, "white"] for white, _ in RESULT_OUTCOMES.values()], dtype=np.intp),
    np.array([_KINDS[black, "black"] for _, black in RESULT_OUTCOMES.values()], dtype=np.intp),
)


# ---------------------------------------------------------------------------
# The half


@dataclass
class _EveningOutcome:
    order: Order
    totals: list[int]  # summed over `orders` orders
    scoring_values: list[int]  # the values the evening's totals were computed with (summed alike)
    cycle: bool
    iterations: int
    orders: int = 1  # with a cycle: how many orders the totals average over


class _Settled:
    """The fixpoint's outcome after each evening, remembered per process: a half's
    standings after evening k depend only on the inputs and evenings 1..k, so after a
    result on the last evening the earlier recalculations are not done again (each
    can take a thousand iterations in a large club). A cache of a pure function: the
    key is a SHA-256 over the inputs and the evenings so far; bounded, least recently
    used first out."""

    SIZE = 2048  # about 10 kB each with 100 players: a few seasons of 40 evenings

    def __init__(self) -> None:
        self._outcomes: OrderedDict[bytes, _EveningOutcome] = OrderedDict()

    def get(self, key: bytes) -> _EveningOutcome | None:
        found = self._outcomes.get(key)
        if found is not None:
            self._outcomes.move_to_end(key)
        return found

    def put(self, key: bytes, outcome: _EveningOutcome) -> None:
        self._outcomes[key] = outcome
        if len(self._outcomes) > self.SIZE:
            self._outcomes.popitem(last=False)

    def clear(self) -> None:
        self._outcomes.clear()


SETTLED = _Settled()


class SharedMemory(Protocol):
    """A memory of settled evenings shared by processes (the shell passes one backed by
    its cache): bytes in, bytes out; a key it lost is simply computed again."""

    def get_many(self, keys: Sequence[bytes]) -> Mapping[bytes, bytes]: ...

    def set_many(self, items: Mapping[bytes, bytes]) -> None: ...


def _shared_get(shared: SharedMemory | None, keys: Sequence[bytes]) -> dict[bytes, _EveningOutcome]:
    """The outcomes of these keys that the process's memory lacks and the shared one has
    (put into the process's memory too)."""
    if shared is None or not keys:
        return {}
    found = {}
    for key, blob in shared.get_many(keys).items():
        outcome = pickle.loads(blob)  # noqa: S301 - our own cache's bytes, as Django's cache does
        if isinstance(outcome, _EveningOutcome):
            found[key] = outcome
            SETTLED.put(key, outcome)
    return found


def _evening_keys(read: _HalfRead) -> list[bytes]:
    """Every evening's part of the `SETTLED` key: its scoring terms and the players
    entering. As int64 bytes: the two counts, the players entering, then each term's row,
    column and amount; as `repr` if a number is beyond int64 (the first byte tells which).
    Every evening's part ends where its own counts say, so the running digest over the
    evenings names them unambiguously."""
    starts = [0, *read.term_ends]
    if read.amounts.dtype == object:
        keys = []
        for k, new in enumerate(read.entering):
            a, b = starts[k], starts[k + 1]
            text = repr((read.rows[a:b].tolist(), read.columns[a:b].tolist(), read.amounts[a:b].tolist(), new)).encode()
            keys.append(b"r" + len(text).to_bytes(8, "little") + text)
        return keys
    terms = np.stack((read.rows, read.columns, read.amounts), axis=1).astype(np.int64).tobytes()
    return [
        b"i" + array.array("q", [b - a, len(new), *new]).tobytes() + terms[24 * a : 24 * b]
        for new, a, b in zip(read.entering, starts, starts[1:], strict=False)
    ]


# The form of the memory's keys (`_evening_keys`), first in every digest: a worker's shared
# memory outlives a deploy, so a key of an earlier form can never be read as one of this.
_KEY_FORMAT: Final = "evening keys 2: counts, entering, (row, column, amount) per term"


def _inputs_digest(*parts: object) -> hashlib._Hash:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode())
    return digest


def compute_keizer_half(
    params: KeizerParams,
    evenings: Sequence[Evening],
    starting_order: Sequence[int],
    *,
    present_from_start: Collection[int] = (),
    absence_counts_before: Mapping[int, int] | None = None,
    half: Half = "winter",
    history: bool = True,
    max_iterations: int = MAX_ITERATIONS,
    engine: Engine = "matrix",
    shared: SharedMemory | None = None,
) -> HalfResult:
    """The standings of one half after each of its evenings.

    `starting_order` lists every player id who may take part, best first.
    `present_from_start` are in the standings from the first evening (fixed
    players; in summer also everybody of the winter standings); the others enter at
    the first evening that mentions them. `absence_counts_before` counts the
    absences with notice of earlier halves, for the season limit.
    With `history=False` only the final standings are built (the computation is
    the same: the fixpoint method depends on the previous evening's standings).
    `engine="python"` runs the fixpoint with the plain reference loop instead of the
    matrix arithmetic (same results, for tests and the benchmark). `shared`: a memory of
    settled evenings beside the process's own (`SETTLED`), for a worker that did not
    compute this season before: one look-up for the evenings the process does not
    remember, one write of those it computed.
    """
    index = {player_id: i for i, player_id in enumerate(starting_order)}
    if len(index) != len(starting_order):
        raise ValueError("the starting order names a player twice")
    size = len(starting_order)
    units = keizer_terms(params)
    read = _read(evenings, index, present_from_start, params.absent_with_notice_limit,
                 absence_counts_before or {}, units.scoring, units.own_added)
    absent, entering = read.absent, read.entering
    made: list[list[list[_Event]]] = []

    def events() -> list[list[_Event]]:
        """The half's events, made when first needed (the explanation, the history rows,
        the frozen method)."""
        if not made:
            made.append(_half_events(evenings, index, params.absent_with_notice_limit,
                                     absence_counts_before or {}, absent))
        return made[0]

    if not evenings:
        return HalfResult(half, tuple(starting_order), (), False, ())
    stats = _stats_after(read.tally, size)  # after the last evening
    rescored = params.method != "frozen"  # every evening rescored with new values
    matrix = TotalsMatrix(size, units.top, units.step) if rescored and engine == "matrix" else None
    state = _Totals(size) if rescored and matrix is None else None
    memo = None  # the running digest of the inputs and the evenings so far
    if params.method == "fixpoint" and matrix is not None:
        memo = _inputs_digest(_KEY_FORMAT, params, tuple(starting_order), sorted(present_from_start),
                              sorted((absence_counts_before or {}).items()), max_iterations)
    evening_keys = _evening_keys(read) if memo is not None else []
    keys: list[bytes] = []  # the memory's key after each evening
    if memo is not None:
        for evening_key in evening_keys:
            memo.update(evening_key)
            keys.append(memo.digest())
    from_shared = _shared_get(shared, [key for key in keys if SETTLED.get(key) is None])
    computed: dict[bytes, _EveningOutcome] = {}
    frozen = [0] * size  # the frozen method's running totals
    active: list[int] = []
    order: Order = ()
    outcomes: list[_EveningOutcome] = []
    rank_values = [fraction(units.top - units.step * r, units.value_unit) for r in range(size)]
    totals_seen = Fractions()
    matrix_prepared = False  # prepared when first needed: a remembered season never is
    for k in range(len(evenings)):
        active += entering[k]
        if state is not None:
            state.add(read.terms(k))
        used = order + tuple(entering[k])
        remembered, key = None, b""
        if memo is not None:
            key = keys[k]
            remembered = SETTLED.get(key) or from_shared.get(key)
        if remembered is not None:
            result = remembered
        elif rescored:
            r = None
            if matrix is not None:
                if not matrix_prepared:  # at the first evening not remembered (none added yet)
                    matrix.prepare_terms(read.rows, read.columns, read.amounts, read.term_ends)
                    matrix_prepared = True
                matrix.add_prepared(k + 1)  # with the evenings whose outcome was remembered
                if params.method == "fixpoint":
                    r = matrix.recalculate(active, used, max_iterations)
                else:
                    r = matrix.score_once(active, used)
                if r is None:  # numbers too large for exact float arithmetic: the plain loop from now on
                    matrix, memo = None, None
                    state = _state_after(read, k + 1)
            if r is None:
                assert state is not None
                if params.method == "fixpoint":
                    r = _recalculate(units, state, active, used, size, max_iterations)
                else:
                    values = units.values(used, size)
                    totals = state.totals(values)
                    r = Recalculation(_ordered(active, totals), totals, 1, values, False, 1)
            result = _EveningOutcome(r.order, r.totals, r.values, r.cycle, r.iterations, r.orders)
            if memo is not None:
                SETTLED.put(key, result)
                computed[key] = result
        else:
            result = _score_frozen(units, frozen, events()[k], active, used, units.own_added)
        outcomes.append(result)
        order = result.order
    if shared is not None and computed:
        shared.set_many({key: pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
                         for key, outcome in computed.items()})
    explained = _deferred_explanation(params, units, evenings, events, outcomes, index, starting_order,
                                      stats, rank_values, totals_seen)
    # The last evening of the history: its rows (without lines) made of its table when
    # read, as every evening's (`_deferred_history`).
    final = _new(EveningStandings)
    _set(final, "__dict__", {
        "date": evenings[-1].date, "cycle": outcomes[-1].cycle,
        "iterations": outcomes[-1].iterations, "cycle_orders": _cycle_orders(outcomes[-1]),
    })
    return HalfResult(
        half=half,
        starting_order=tuple(starting_order),
        standings=explained,
        cycle=final.cycle,
        history=_deferred_history(units, evenings, read, outcomes, final, starting_order, totals_seen)
        if history else (),
        cycle_orders=final.cycle_orders,
    )


def _deferred_history(
    units: KeizerTerms,
    evenings: Sequence[Evening],
    read: _HalfRead,
    outcomes: Sequence[_EveningOutcome],
    final: EveningStandings,
    ids: Sequence[int],
    fractions: Fractions,
) -> tuple[EveningStandings, ...]:
    """The standings after every evening, as columns (`types.StandingsTable`, what the
    store reads): made for every evening at once when one evening's table or rows are
    first read, the counts of all of them from the tally in a few array operations (no
    object per event or per row). An evening's rows are made of its table when first
    read, for it and every later evening (an incremental recalculation reads the evenings
    from the corrected one on); the earlier ones stay deferred (`types.Deferred`)."""
    entries: list[EveningStandings] = []

    def tables() -> None:
        for entry, table in zip(entries, _history_tables(units, read, outcomes, ids), strict=True):
            state = entry.__dict__
            state.setdefault("_table", table)
            state.pop("_tables", None)

    def fill(start: int) -> None:
        for entry in entries[start:]:
            state = entry.__dict__
            if "rows" not in state:
                state["rows"] = entry.table().rows(fractions)
            state.pop("_deferred", None)

    for k, evening in enumerate(evenings[:-1]):
        result = outcomes[k]
        entry = _new(EveningStandings)
        _set(entry, "__dict__", {
            "date": evening.date, "cycle": result.cycle, "iterations": result.iterations,
            "cycle_orders": _cycle_orders(result), "_deferred": functools.partial(fill, k), "_tables": tables,
        })
        entries.append(entry)
    final.__dict__.update(_deferred=functools.partial(fill, len(entries)), _tables=tables)
    entries.append(final)
    return tuple(entries)


def _history_tables(
    units: KeizerTerms,
    read: _HalfRead,
    outcomes: Sequence[_EveningOutcome],
    ids: Sequence[int],
) -> list[StandingsTable]:
    """Every evening's table. The counts after evening k are those of the tally's events
    of evening k and before (`counts_by_evening`); every evening's order picks its columns, all evenings
    in one gather (an evening with fewer players in the standings takes the first of its
    row)."""
    size = len(ids)
    counts = counts_by_evening(read.tally, read.tally_evening, len(outcomes), size)
    value_unit, total_unit = units.value_unit, units.total_unit
    all_values = tuple(units.top - units.step * r for r in range(size))
    orders = np.zeros((len(outcomes), size), dtype=np.intp)
    for k, result in enumerate(outcomes):
        orders[k, : len(result.order)] = result.order
    # counts[k, field, orders[k, j]] for every k, field and j: one gather of the flat counts
    fields = counts.shape[1]
    cells = (np.arange(len(outcomes) * fields, dtype=np.intp).reshape(len(outcomes), fields, 1) * size
             + orders[:, None, :])
    picked = counts.reshape(-1).take(cells)
    if picked.max(initial=0) < 256:  # (a half of fewer than 256 evenings): a count a byte, read back as ints
        flat = picked.astype(np.uint8).tobytes()
        columns = [tuple(flat[i : i + size]) for i in range(0, len(flat), size)]
    else:
        columns = list(map(tuple, picked.reshape(-1, size).tolist()))
    tables = []
    for k, result in enumerate(outcomes):
        order, totals = result.order, result.totals
        n = len(order)
        evening_columns = columns[k * fields : (k + 1) * fields]
        table = _new(StandingsTable)
        _set(table, "__dict__", {
            "player_ids": _picked(ids, order),
            "totals": _picked(totals, order),
            "denominator": total_unit * result.orders,
            "values": all_values[:n],
            "value_unit": value_unit,
            "counts": tuple(evening_columns) if n == size else tuple([column[:n] for column in evening_columns]),
        })
        tables.append(table)
    return tables


def _picked(items: Sequence[int], order: Order) -> tuple[int, ...]:
    """`items` in the order of `order` (an evening's totals by rank): one C-level gather."""
    if len(order) > 1:
        return itemgetter(*order)(items)  # type: ignore[no-any-return]
    return tuple([items[p] for p in order])


def _state_after(read: _HalfRead, evenings: int) -> _Totals:
    """The plain loop's totals after these evenings (when the matrix cannot go on exactly)."""
    state = _Totals(read.size)
    for k in range(evenings):
        state.add(read.terms(k))
    return state


def _cycle_orders(result: _EveningOutcome) -> int:
    return result.orders if result.cycle else 0


def _score_frozen(
    units: KeizerTerms, frozen: list[int], events: Sequence[_Event], active: Sequence[int], used: Order, own_added: int
) -> _EveningOutcome:
    """frozen: add only this evening, scored with the values of `used` (the previous
    standings), to the totals so far."""
    values = units.values(used, len(frozen))
    for event in events:
        frozen[event[_PLAYER]] += units.points(event, values)
    totals = [f + own_added * v for f, v in zip(frozen, values, strict=True)]
    return _EveningOutcome(_ordered(active, totals), totals, values, False, 1)


_new = object.__new__
_set = object.__setattr__


def _rows(
    units: KeizerTerms,
    result: _EveningOutcome,
    counts: Sequence[dict[str, int]],
    ids: Sequence[int],
    rank_values: Sequence[Fraction],
    fractions: Fractions,
    deferred: Callable[[], None],
) -> tuple[Standing, ...]:
    """The final standings rows, their explanation lines left to `deferred` (which fills
    them: `types.Deferred`); `counts` by player are the fields of each row's
    `PlayerStats`, made for these rows. The frozen rows are made without their dataclass
    __init__ (which sets each field through object.__setattr__), every field given, and
    each total once (`exact.Fractions`)."""
    totals, denominator = result.totals, units.total_unit * result.orders
    made = fractions.over(denominator)
    rows: list[Standing] = []
    append, new, set_ = rows.append, _new, _set
    for rank0, p in enumerate(result.order):
        stats = new(PlayerStats)
        set_(stats, "__dict__", counts[p])
        number = totals[p]
        total = made.get(number)
        if total is None:
            total = made[number] = fraction(number, denominator)
        row = new(Standing)
        set_(row, "__dict__", {
            "rank": rank0 + 1, "player_id": ids[p], "total": total,
            "value": rank_values[rank0], "stats": stats, "_deferred": deferred,
        })
        append(row)
    return tuple(rows)


def _deferred_explanation(
    params: KeizerParams,
    units: KeizerTerms,
    evenings: Sequence[Evening],
    events: Callable[[], Sequence[Sequence[_Event]]],
    outcomes: Sequence[_EveningOutcome],
    index: Mapping[int, int],
    ids: Sequence[int],
    counts: Sequence[dict[str, int]],
    rank_values: Sequence[Fraction],
    fractions: Fractions,
) -> tuple[Standing, ...]:
    """The final rows (`_rows` of the last evening, `counts` by player), their
    explanation lines made when one row's are first read (`types.Deferred`): thousands of
    lines a season, and a page shows one player's."""
    explained: list[Standing] = []

    def fill() -> None:
        lines = _explain(params, units, evenings, events(), outcomes, explained, index, ids)
        for standing in explained:
            state = standing.__dict__
            if "lines" not in state:
                state["lines"] = lines[index[state["player_id"]]]
            state.pop("_deferred", None)

    explained += _rows(units, outcomes[-1], counts, ids, rank_values, fractions, fill)
    return tuple(explained)


def _explain(
    params: KeizerParams,
    units: KeizerTerms,
    evenings: Sequence[Evening],
    events: Sequence[Sequence[_Event]],
    outcomes: Sequence[_EveningOutcome],
    rows: Sequence[Standing],
    index: Mapping[int, int],
    ids: Sequence[int],
) -> dict[int, tuple[Line, ...]]:
    """The lines that sum to each final row's total, by player index.

    fixpoint and lagging score every evening with the last evening's scoring
    values; frozen scores each evening with its own. After a cycle the values and
    points are averages over the cycle's orders, as the total is.
    """
    last = outcomes[-1].scoring_values
    per_player: dict[int, list[Line]] = {index[row.player_id]: [] for row in rows}
    fractions: dict[tuple[int, int], Fraction] = {}  # a season repeats few distinct numbers

    rules = units.rules
    for k, evening in enumerate(evenings):
        outcome = outcomes[k] if params.method == "frozen" else outcomes[-1]
        values, orders = outcome.scoring_values, outcome.orders
        per_value, per_total = units.value_unit * orders, units.total_unit * orders
        date = evening.date
        shared: dict[tuple[Outcome, bool, tuple[int, int]], Line] = {}
        for player, result, opponent, _, over_limit in events[k]:  # `_line`, inline
            rule = rules.get(result)
            value = None
            if rule is None:
                key = (0, 1)
            elif rule[0] == "fixed":
                key = (0 if over_limit else rule[1], units.total_unit)  # fixed points are not summed
            else:
                scored = values[player if rule[0] == "own" else opponent]  # type: ignore[index]
                value = fractions.get((scored, per_value))
                if value is None:
                    value = fractions[scored, per_value] = Fraction(scored, per_value)
                key = (0 if over_limit else rule[1] * scored, per_total)
            alike = opponent is None and value is None  # e.g. every absence without notice of the evening
            line = shared.get((result, over_limit, key)) if alike else None
            if line is None:
                points = fractions.get(key)
                if points is None:
                    points = fractions[key] = Fraction(*key)
                line = _new(Line)  # a frozen dataclass, built without its slow __init__
                _set(line, "__dict__", {
                    "date": date, "outcome": result, "opponent": None if opponent is None else ids[opponent],
                    "value": value, "points": points, "over_limit": over_limit,
                })
                if alike:
                    shared[result, over_limit, key] = line  # equal lines may be one object: they are frozen
            per_player[player].append(line)
    if units.own_added:
        for p, lines in per_player.items():
            line = units.own_value_line(last[p], outcomes[-1].orders)
            assert line is not None
            lines.append(line)
    return {p: tuple(lines) for p, lines in per_player.items()}


def _line(
    units: KeizerTerms,
    evening: Evening,
    event: _Event,
    values: Sequence[int],
    ids: Sequence[int],
    orders: int = 1,
    fractions: dict[tuple[int, int], Fraction] | None = None,
) -> Line:
    """One explanation line; `values` summed over `orders` orders give averages.
    `fractions` memoises the exact numbers (each is built once per explanation)."""
    memo = fractions if fractions is not None else {}
    rule = units.rules.get(event[_OUTCOME])
    per = 1 if rule is not None and rule[0] == "fixed" else orders  # fixed points are not summed
    points_key = (units.points(event, values), units.total_unit * per)
    value_key: tuple[int, int] | None = None
    if rule is not None and rule[0] == "own":
        value_key = (values[event[_PLAYER]], units.value_unit * orders)
    elif rule is not None and rule[0] == "opponent" and (opponent := event[_OPPONENT]) is not None:
        value_key = (values[opponent], units.value_unit * orders)
    points = memo.get(points_key)
    if points is None:
        points = memo[points_key] = Fraction(*points_key)
    value: Fraction | None = None
    if value_key is not None:
        value = memo.get(value_key)
        if value is None:
            value = memo[value_key] = Fraction(*value_key)
    line = object.__new__(Line)  # a frozen dataclass, built without its slow __init__
    object.__setattr__(line, "__dict__", {
        "date": evening.date, "outcome": event[_OUTCOME],
        "opponent": None if event[_OPPONENT] is None else ids[event[_OPPONENT]],
        "value": value, "points": points, "over_limit": event[_OVER_LIMIT],
    })
    return line


# ---------------------------------------------------------------------------
# The season


def absences_with_notice(evenings: Sequence[Evening]) -> dict[int, int]:
    """How many absences with notice each player had in these evenings."""
    counts: dict[int, int] = {}
    for evening in evenings:
        for player_id in evening.absent_with_notice:
            counts[player_id] = counts.get(player_id, 0) + 1
    return counts


def winter_starting_order(players: Sequence[Player]) -> list[int]:
    """By `start` (rating order on 1 September)."""
    return [p.id for p in sorted(players, key=lambda p: (p.start, p.id))]


def compute_keizer_season(
    params: KeizerParams,
    players: Sequence[Player],
    evenings: Sequence[Evening],
    *,
    history: bool = True,
    engine: Engine = "matrix",
    shared: SharedMemory | None = None,
) -> dict[Half, HalfResult]:
    """Both halves: the winter final standings are the summer starting order, players
    new in summer follow by `start`; absences with notice count over the season.
    A half is in the result only if it has evenings."""
    winter = [e for e in evenings if e.half == "winter"]
    summer = [e for e in evenings if e.half == "summer"]
    if len(winter) + len(summer) != len(evenings):
        raise ValueError("every Keizer evening must belong to the winter or the summer half")
    fixed = {p.id for p in players if p.fixed}
    by_start = winter_starting_order(players)
    results: dict[Half, HalfResult] = {}
    carried: list[int] = []
    if winter:
        results["winter"] = compute_keizer_half(
            params, winter, by_start, present_from_start=fixed, half="winter", history=history, engine=engine,
            shared=shared,
        )
        carried = [row.player_id for row in results["winter"].standings]
    if summer:
        in_winter = set(carried)
        order = carried + [p for p in by_start if p not in in_winter]
        results["summer"] = compute_keizer_half(
            params,
            summer,
            order,
            present_from_start=fixed | set(carried),
            absence_counts_before=absences_with_notice(winter),
            half="summer",
            history=history,
            engine=engine,
            shared=shared,
        )
    return results


def score_with_order(
    params: KeizerParams,
    evenings: Sequence[Evening],
    order: Sequence[int],
    *,
    starting_order: Sequence[int] | None = None,
    present_from_start: Collection[int] = (),
    absence_counts_before: Mapping[int, int] | None = None,
) -> dict[int, tuple[Fraction, tuple[Line, ...]]]:
    """Score every evening once with the values of a given `order` (best first):
    total and explanation lines per player of the standings.

    This is one step of a recalculation, exposed to check worked examples
    (seed 002) and to explain a total. `order` must name every player in the
    standings after the last evening; ties and entry use `starting_order`
    (default: `order`).
    """
    start = list(starting_order if starting_order is not None else order)
    index = {player_id: i for i, player_id in enumerate(start)}
    units = keizer_terms(params)
    events, entering, _, _ = _events(
        evenings, index, present_from_start, params.absent_with_notice_limit, absence_counts_before or {}
    )
    active = {p for players in entering for p in players}
    ranked = tuple(index[player_id] for player_id in order)
    if set(ranked) != active:
        raise ValueError("the order must name exactly the players in the standings")
    values = units.values(ranked, len(start))
    result: dict[int, tuple[Fraction, tuple[Line, ...]]] = {}
    lines: dict[int, list[Line]] = {p: [] for p in active}
    for evening, evening_events in zip(evenings, events, strict=True):
        for event in evening_events:
            lines[event[_PLAYER]].append(_line(units, evening, event, values, start))
    for p, player_lines in lines.items():
        if (own := units.own_value_line(values[p])) is not None:
            player_lines.append(own)
        result[start[p]] = (sum((line.points for line in player_lines), Fraction(0)), tuple(player_lines))
    return result

