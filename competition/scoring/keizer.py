"""Keizer standings of one half, and of a season's two halves.

The rules are in docs/standings.md. In short: a player's value is
`top - step × (rank - 1)`; every outcome scores a factor of the opponent's value, a
factor of the own value, or fixed points; the standings after an evening depend on
the `method` (fixpoint, lagging or frozen) by which values are fed back.

Speed: the fixpoint method recomputes all totals many times per evening, so totals
are kept as integers in a common unit (every factor, fixed amount and value scaled
by one denominator) and per-player term lists grow evening by evening; an
iteration then costs O(players + games so far). Fractions appear only in the output.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from competition.scoring.fixpoint import Recalculation, TotalsMatrix
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
)

MAX_ITERATIONS = 1000

Engine = Literal["matrix", "python"]

Order = tuple[int, ...]  # player indices (= starting positions, 0-based), best first


@dataclass(frozen=True)
class _Event:
    """What happened to one player (by index) on one evening."""

    player: int
    outcome: Outcome
    opponent: int | None = None
    colour: str | None = None  # "white" / "black" for games
    over_limit: bool = False


# ---------------------------------------------------------------------------
# Integer units


class _Units:
    """Scales values, factors and fixed points to integers with one denominator.

    A value v is stored as v × value_unit; a total t as t × total_unit, where
    total_unit = value_unit × factor_unit, so factor × value and fixed points are
    both whole numbers of total units.
    """

    def __init__(self, params: KeizerParams) -> None:
        rules = [params.rule(o) for o in Outcome]
        factors = [r.amount for r in rules if r is not None and r.basis != "fixed"]
        fixed = [r.amount for r in rules if r is not None and r.basis == "fixed"]
        self.value_unit = math.lcm(params.top.denominator, params.step.denominator)
        factor_den = math.lcm(1, *(f.denominator for f in factors))
        fixed_den = math.lcm(1, *(f.denominator for f in fixed))
        self.factor_unit = factor_den * fixed_den
        self.total_unit = self.value_unit * self.factor_unit
        self.top = int(params.top * self.value_unit)
        self.step = int(params.step * self.value_unit)
        # outcome -> ("opponent" | "own" | "fixed", integer coefficient)
        self.rules: dict[Outcome, tuple[str, int]] = {}
        for outcome in Outcome:
            rule = params.rule(outcome)
            if rule is None:
                continue
            if rule.basis == "fixed":
                self.rules[outcome] = ("fixed", int(rule.amount * self.total_unit))
            else:
                self.rules[outcome] = (rule.basis, int(rule.amount * self.factor_unit))

    def values(self, order: Order, size: int) -> list[int]:
        """Scaled value of every player index; players not in `order` get 0."""
        values = [0] * size
        top, step = self.top, self.step
        for rank0, player in enumerate(order):
            values[player] = top - step * rank0
        return values

    def term(self, event: _Event) -> tuple[str, int] | None:
        """The scoring term of an event, or None if it scores nothing."""
        if event.over_limit:
            return None
        return self.rules.get(event.outcome)

    def points(self, event: _Event, values: Sequence[int]) -> int:
        term = self.term(event)
        if term is None:
            return 0
        basis, coefficient = term
        if basis == "fixed":
            return coefficient
        if basis == "own":
            return coefficient * values[event.player]
        assert event.opponent is not None
        return coefficient * values[event.opponent]


class _Totals:
    """Per-player cumulative terms: total = const + own × V[p] + Σ c × V[q]."""

    def __init__(self, size: int) -> None:
        self.const = [0] * size
        self.own = [0] * size
        self.terms: list[list[tuple[int, int]]] = [[] for _ in range(size)]

    def add(self, units: _Units, event: _Event, matrix: TotalsMatrix | None = None) -> None:
        term = units.term(event)
        if term is None:
            return
        basis, coefficient = term
        if basis == "fixed":
            self.const[event.player] += coefficient
            if matrix is not None:
                matrix.add_fixed(event.player, coefficient)
        elif basis == "own":
            self.own[event.player] += coefficient
            if matrix is not None:
                matrix.add_value(event.player, event.player, coefficient)
        else:
            assert event.opponent is not None
            self.terms[event.player].append((event.opponent, coefficient))
            if matrix is not None:
                matrix.add_value(event.player, event.opponent, coefficient)

    def totals(self, values: Sequence[int]) -> list[int]:
        return [
            c + o * v + sum([k * values[q] for q, k in terms])
            for c, o, v, terms in zip(self.const, self.own, values, self.terms, strict=True)
        ]


def _ordered(active: Sequence[int], totals: Sequence[int]) -> Order:
    """Highest total first; equal totals by starting position (the index)."""
    return tuple(sorted(active, key=lambda p: (-totals[p], p)))


# ---------------------------------------------------------------------------
# Fixpoint


def _settle(
    units: _Units,
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
    units: _Units,
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
    first ``limit`` of a season do (RULES.md 4.1; None: no limit). The engine and the
    warning before a sign-off (competition.signup) ask this one question."""
    return limit is None or earlier < limit


def _events(
    evenings: Sequence[Evening],
    index: Mapping[int, int],
    present_from_start: Collection[int],
    limit: int | None,
    absence_counts_before: Mapping[int, int],
) -> tuple[list[list[_Event]], list[list[int]]]:
    """Per evening: every event (with generated absences without notice), and the
    players (indices) who enter the standings that evening."""
    absences = {index[p]: n for p, n in absence_counts_before.items() if p in index}
    active: set[int] = set()
    events: list[list[_Event]] = []
    entering: list[list[int]] = []
    for k, evening in enumerate(evenings):
        evening_events = _mentioned_events(evening, index, limit, absences)
        mentioned = {e.player for e in evening_events}
        new = {index[p] for p in present_from_start if p in index} if k == 0 else set()
        new = (new | mentioned) - active
        active |= new
        evening_events += [
            _Event(p, Outcome.ABSENT_WITHOUT_NOTICE) for p in sorted(active - mentioned)
        ]
        events.append(evening_events)
        entering.append(sorted(new))
    return events, entering


def _mentioned_events(
    evening: Evening, index: Mapping[int, int], limit: int | None, absences: dict[int, int]
) -> list[_Event]:
    def idx(player_id: int) -> int:
        if player_id not in index:
            raise ValueError(f"player {player_id} of evening {evening.date} is not in the starting order")
        return index[player_id]

    events: list[_Event] = []
    for game in evening.games:
        white, black = idx(game.white), idx(game.black)
        white_outcome, black_outcome = RESULT_OUTCOMES[game.result]
        events.append(_Event(white, white_outcome, black, "white"))
        events.append(_Event(black, black_outcome, white, "black"))
    events += [_Event(idx(p), Outcome.BYE) for p in evening.byes]
    events += [_Event(idx(p), Outcome.CLUB_DUTY) for p in evening.club_duty]
    for player_id in evening.absent_with_notice:
        p = idx(player_id)
        before = absences.get(p, 0)
        absences[p] = before + 1
        over = not absence_with_notice_scores(before, limit)
        events.append(_Event(p, Outcome.ABSENT_WITH_NOTICE, over_limit=over))
    players = [e.player for e in events]
    if len(players) != len(set(players)):
        raise ValueError(f"a player appears twice in evening {evening.date}")
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


def count_event(counts: dict[str, int], outcome: Outcome, colour: str | None) -> None:
    """Add one evening's outcome to a player's running counts (see PlayerStats)."""
    counts[_COUNTERS[outcome]] += 1
    if outcome in _PLAYED and colour is not None:
        counts["whites" if colour == "white" else "blacks"] += 1


def new_counts() -> dict[str, int]:
    return dict.fromkeys(PlayerStats.__dataclass_fields__, 0)


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
    matrix arithmetic (same results, for tests and the benchmark).
    """
    index = {player_id: i for i, player_id in enumerate(starting_order)}
    if len(index) != len(starting_order):
        raise ValueError("the starting order names a player twice")
    size = len(starting_order)
    units = _Units(params)
    events, entering = _events(
        evenings,
        index,
        present_from_start,
        params.absent_with_notice_limit,
        absence_counts_before or {},
    )
    state = _Totals(size)
    matrix = None
    memo = None  # the running digest of the inputs and the evenings so far
    if params.method == "fixpoint" and engine == "matrix":
        matrix = TotalsMatrix(size, units.top, units.step)
        memo = _inputs_digest(params, tuple(starting_order), sorted(present_from_start),
                              sorted((absence_counts_before or {}).items()), max_iterations)
    frozen = [0] * size  # the frozen method's running totals
    own_added = units.factor_unit if params.own_value_added else 0
    active: list[int] = []
    order: Order = ()
    counts = [new_counts() for _ in range(size)]
    outcomes: list[_EveningOutcome] = []
    rows_by_evening: list[EveningStandings] = []
    for k, evening in enumerate(evenings):
        active += entering[k]
        for p in entering[k]:
            state.own[p] += own_added
            if matrix is not None and own_added:
                matrix.add_value(p, p, own_added)
        for event in events[k]:
            state.add(units, event, matrix)
            count_event(counts[event.player], event.outcome, event.colour)
        used = order + tuple(entering[k])
        if memo is not None:
            memo.update(repr(evening).encode())
        key = memo.digest() if memo is not None else b""
        remembered = SETTLED.get(key) if memo is not None else None
        if remembered is not None:
            result = remembered
        elif params.method == "fixpoint":
            r = matrix.recalculate(active, used, max_iterations) if matrix is not None else None
            if r is None:
                r = _recalculate(units, state, active, used, size, max_iterations)
            result = _EveningOutcome(r.order, r.totals, r.values, r.cycle, r.iterations, r.orders)
            if memo is not None:
                SETTLED.put(key, result)
        else:
            result = _score_once(params, units, state, frozen, events[k], active, used)
        outcomes.append(result)
        order = result.order
        if history or k == len(evenings) - 1:
            rows = _rows(units, result, counts, starting_order)
            rows_by_evening.append(
                EveningStandings(evening.date, rows, result.cycle, result.iterations, _cycle_orders(result))
            )
    if not evenings:
        return HalfResult(half, tuple(starting_order), (), False, ())
    final = rows_by_evening[-1]
    explained = _explain(params, units, evenings, events, outcomes, final.rows, index, starting_order)
    return HalfResult(
        half=half,
        starting_order=tuple(starting_order),
        standings=explained,
        cycle=final.cycle,
        history=tuple(rows_by_evening) if history else (),
        cycle_orders=final.cycle_orders,
    )


def _cycle_orders(result: _EveningOutcome) -> int:
    return result.orders if result.cycle else 0


def _score_once(
    params: KeizerParams,
    units: _Units,
    state: _Totals,
    frozen: list[int],
    events: Sequence[_Event],
    active: Sequence[int],
    used: Order,
) -> _EveningOutcome:
    """lagging: rescore everything once with the values of `used` (the previous
    standings); frozen: add only this evening, scored with those values."""
    values = units.values(used, len(frozen))
    if params.method == "lagging":
        totals = state.totals(values)
    else:
        for event in events:
            frozen[event.player] += units.points(event, values)
        own_added = units.factor_unit if params.own_value_added else 0
        totals = [f + own_added * v for f, v in zip(frozen, values, strict=True)]
    return _EveningOutcome(_ordered(active, totals), totals, values, False, 1)


def _rows(
    units: _Units, result: _EveningOutcome, counts: Sequence[dict[str, int]], ids: Sequence[int]
) -> tuple[Standing, ...]:
    """Standings rows, without explanation lines."""
    top, step = units.top, units.step
    return tuple(
        Standing(
            rank=rank0 + 1,
            player_id=ids[p],
            total=Fraction(result.totals[p], units.total_unit * result.orders),
            value=Fraction(top - step * rank0, units.value_unit),
            stats=PlayerStats(**counts[p]),
        )
        for rank0, p in enumerate(result.order)
    )


def _explain(
    params: KeizerParams,
    units: _Units,
    evenings: Sequence[Evening],
    events: Sequence[Sequence[_Event]],
    outcomes: Sequence[_EveningOutcome],
    rows: Sequence[Standing],
    index: Mapping[int, int],
    ids: Sequence[int],
) -> tuple[Standing, ...]:
    """Attach to each final row the lines that sum to its total.

    fixpoint and lagging score every evening with the last evening's scoring
    values; frozen scores each evening with its own. After a cycle the values and
    points are averages over the cycle's orders, as the total is.
    """
    last = outcomes[-1].scoring_values
    per_player: dict[int, list[Line]] = {index[row.player_id]: [] for row in rows}
    fractions: dict[tuple[int, int], Fraction] = {}  # a season repeats few distinct numbers
    for k, evening in enumerate(evenings):
        outcome = outcomes[k] if params.method == "frozen" else outcomes[-1]
        values, orders = outcome.scoring_values, outcome.orders
        for event in events[k]:
            per_player[event.player].append(
                _line(units, evening, event, values, ids, orders, fractions)
            )
    if params.own_value_added:
        for p, lines in per_player.items():
            value = Fraction(last[p], units.value_unit * outcomes[-1].orders)
            lines.append(Line(None, Outcome.OWN_VALUE, None, value, value))
    return tuple(
        Standing(row.rank, row.player_id, row.total, row.value, row.stats, tuple(per_player[index[row.player_id]]))
        for row in rows
    )


def _line(
    units: _Units,
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
    rule = units.rules.get(event.outcome)
    per = 1 if rule is not None and rule[0] == "fixed" else orders  # fixed points are not summed
    points_key = (units.points(event, values), units.total_unit * per)
    value_key: tuple[int, int] | None = None
    if rule is not None and rule[0] == "own":
        value_key = (values[event.player], units.value_unit * orders)
    elif rule is not None and rule[0] == "opponent" and event.opponent is not None:
        value_key = (values[event.opponent], units.value_unit * orders)
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
        "date": evening.date, "outcome": event.outcome,
        "opponent": None if event.opponent is None else ids[event.opponent],
        "value": value, "points": points, "over_limit": event.over_limit,
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
            params, winter, by_start, present_from_start=fixed, half="winter", history=history, engine=engine
        )
        carried = [row.player_id for row in results["winter"].standings]
    if summer:
        order = carried + [p for p in by_start if p not in set(carried)]
        results["summer"] = compute_keizer_half(
            params,
            summer,
            order,
            present_from_start=fixed | set(carried),
            absence_counts_before=absences_with_notice(winter),
            half="summer",
            history=history,
            engine=engine,
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
    units = _Units(params)
    events, entering = _events(
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
            lines[event.player].append(_line(units, evening, event, values, start))
    for p, player_lines in lines.items():
        if params.own_value_added:
            value = Fraction(values[p], units.value_unit)
            player_lines.append(Line(None, Outcome.OWN_VALUE, None, value, value))
        result[start[p]] = (sum((line.points for line in player_lines), Fraction(0)), tuple(player_lines))
    return result

